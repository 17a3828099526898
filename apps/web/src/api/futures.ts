import {
  type ChartRange,
  candlesResponseSchema,
  type FuturesOrder,
  fundingHistorySchema,
  futuresAccountSchema,
  futuresFillListSchema,
  futuresIncomeListSchema,
  futuresMarketListSchema,
  futuresMarketSchema,
  futuresOrderListSchema,
  futuresOrderPreviewSchema,
  futuresOrderSchema,
  futuresPositionListSchema,
  futuresPositionSchema,
  futuresSettingsListSchema,
  futuresSettingsSchema,
  futuresTierListSchema,
  futuresTransferListSchema,
  futuresTransferSchema,
  insuranceFundSchema,
  type MarginMode,
  markPriceSchema,
  type PlaceFuturesOrderRequest,
} from '@platform/contracts';
import { z } from 'zod';
import { apiClient } from './http.ts';
import { withQuery } from './wallet.ts';

/**
 * The futures calls (issue F9), all under /v1/futures/: the client does not refresh or end the
 * session on a 401 from those paths (client.ts shouldRefreshOn401, spec §7.8). Answers are parsed
 * with the contracts' schemas.
 */

export const FUTURES_API_PREFIX = '/v1/futures/';

const seg = (value: string) => encodeURIComponent(value);
const path = (rest: string) => `${FUTURES_API_PREFIX}${rest}`;
/** The write answers the contracts leave unnamed are accepted as they come and not read. */
const anyAnswer = z.unknown();

export interface FuturesPage {
  market?: string | undefined;
  limit?: number | undefined;
  page?: number | undefined;
}

export const futuresApi = {
  markets: async () => (await apiClient.request(path('markets'), { schema: futuresMarketListSchema })).markets,
  market: (market: string) => apiClient.request(path(`markets/${seg(market)}`), { schema: futuresMarketSchema }),
  tiers: async (market: string) =>
    (await apiClient.request(path(`markets/${seg(market)}/tiers`), { schema: futuresTierListSchema })).tiers,
  mark: (market: string) => apiClient.request(path(`markets/${seg(market)}/mark`), { schema: markPriceSchema }),
  /** The perpetual's own last-price candles of a chart range (the spot candles' query and answer). */
  candles: (market: string, range: ChartRange) =>
    apiClient.request(path(`markets/${seg(market)}/candles?range=${seg(range)}`), { schema: candlesResponseSchema }),
  funding: (market: string, page: FuturesPage = {}) =>
    apiClient.request(withQuery(path(`markets/${seg(market)}/funding`), { limit: page.limit, page: page.page }), {
      schema: fundingHistorySchema,
    }),
  account: () => apiClient.request(path('account'), { schema: futuresAccountSchema }),
  positions: async () => (await apiClient.request(path('positions'), { schema: futuresPositionListSchema })).positions,
  settings: async () => (await apiClient.request(path('settings'), { schema: futuresSettingsListSchema })).settings,
  setLeverage: (market: string, leverage: number) =>
    apiClient.request(path(`markets/${seg(market)}/leverage`), {
      method: 'PUT',
      body: { leverage },
      schema: futuresSettingsSchema.or(anyAnswer),
    }),
  setMarginMode: (market: string, marginMode: MarginMode) =>
    apiClient.request(path(`markets/${seg(market)}/margin-mode`), {
      method: 'PUT',
      body: { margin_mode: marginMode },
      schema: anyAnswer,
    }),
  isolatedMargin: (market: string, action: 'add' | 'remove', amount: string) =>
    apiClient.request(path(`positions/${seg(market)}/margin`), {
      method: 'POST',
      body: { action, amount },
      schema: futuresPositionSchema.or(anyAnswer),
    }),
  setTpsl: (market: string, takeProfit: string | null, stopLoss: string | null) =>
    apiClient.request(path(`positions/${seg(market)}/tpsl`), {
      method: 'PUT',
      body: { take_profit_price: takeProfit, stop_loss_price: stopLoss },
      schema: anyAnswer,
    }),
  placeOrder: (body: PlaceFuturesOrderRequest) =>
    apiClient.request(path('orders'), { method: 'POST', body, schema: futuresOrderSchema }),
  previewOrder: (body: PlaceFuturesOrderRequest) =>
    apiClient.request(path('orders/preview'), { method: 'POST', body, schema: futuresOrderPreviewSchema }),
  orders: (status: 'open' | 'closed', page: FuturesPage = {}) =>
    apiClient.request(withQuery(path('orders'), { status, market: page.market, limit: page.limit, page: page.page }), {
      schema: futuresOrderListSchema,
    }),
  cancelOrder: (orderId: string): Promise<unknown> =>
    apiClient.request(path(`orders/${seg(orderId)}`), { method: 'DELETE', schema: anyAnswer }),
  modifyOrder: (orderId: string, body: { quantity?: string; price?: string; stop_price?: string }) =>
    apiClient.request<FuturesOrder>(path(`orders/${seg(orderId)}`), {
      method: 'PUT',
      body,
      schema: futuresOrderSchema,
    }),
  fills: (page: FuturesPage = {}) =>
    apiClient.request(withQuery(path('fills'), { market: page.market, limit: page.limit, page: page.page }), {
      schema: futuresFillListSchema,
    }),
  transfer: (direction: 'to_futures' | 'to_spot', amount: string, clientTransferId: string) =>
    apiClient.request(path('transfers'), {
      method: 'POST',
      body: { direction, amount, client_transfer_id: clientTransferId },
      schema: futuresTransferSchema,
    }),
  transfers: (page: FuturesPage = {}) =>
    apiClient.request(withQuery(path('transfers'), { limit: page.limit, page: page.page }), {
      schema: futuresTransferListSchema,
    }),
  income: (page: FuturesPage = {}) =>
    apiClient.request(withQuery(path('income'), { market: page.market, limit: page.limit, page: page.page }), {
      schema: futuresIncomeListSchema,
    }),
  insuranceFund: () => apiClient.request(path('insurance-fund'), { schema: insuranceFundSchema }),
};
