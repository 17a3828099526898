import {
  type AccountTrade,
  accountTradeListSchema,
  accountTradeSchema,
  type ModifyOrderRequest,
  type Order,
  type OrderSide,
  type OrderStatus,
  type OrderType,
  orderListSchema,
  orderSchema,
  type PlaceOrderRequest,
} from '@platform/contracts';
import { apiClient } from './http.ts';
import { withQuery } from './wallet.ts';

/**
 * The spot trading calls of spec §7.2 on the main API: orders (place, get, cancel, modify, list)
 * and the account's trades. Every answer is parsed with the contract's schema. A market's book and
 * recent trades (their snapshots and their streams) come through features/market-data, never from
 * here.
 */

export type { AccountTrade, Order };

/** Filters of the order history (spec §3.6 labels): any left undefined is not sent. */
export interface OrdersFilter {
  status?: OrderStatus | 'open' | 'closed' | undefined;
  /** Pair id (BTC_USD). */
  tradingPair?: string | undefined;
  side?: OrderSide | undefined;
  type?: OrderType | undefined;
  /** Unix milliseconds: created at or after / before. */
  from?: number | undefined;
  to?: number | undefined;
  limit?: number | undefined;
  page?: number | undefined;
}

export interface TradesFilter {
  tradingPair?: string | undefined;
  side?: OrderSide | undefined;
  from?: number | undefined;
  to?: number | undefined;
  limit?: number | undefined;
  page?: number | undefined;
}

const id = (value: string) => encodeURIComponent(value);

export const tradingApi = {
  /**
   * A client_order_id makes placement idempotent: a second click or a retry with the same id gets
   * the first order back (HTTP 200) rather than placing twice.
   */
  placeOrder: (body: PlaceOrderRequest) =>
    apiClient.request('/v1/orders', { method: 'POST', body, schema: orderSchema }),

  order: (orderId: string) => apiClient.request(`/v1/orders/${id(orderId)}`, { schema: orderSchema }),

  cancelOrder: (orderId: string) =>
    apiClient.request(`/v1/orders/${id(orderId)}/cancel`, { method: 'POST', schema: orderSchema }),

  modifyOrder: (orderId: string, body: ModifyOrderRequest) =>
    apiClient.request(`/v1/orders/${id(orderId)}/modify`, { method: 'PUT', body, schema: orderSchema }),

  orders: (accountId: string, filter: OrdersFilter = {}) =>
    apiClient.request(
      withQuery(`/v1/accounts/${id(accountId)}/orders`, {
        status: filter.status,
        trading_pair: filter.tradingPair,
        side: filter.side,
        type: filter.type,
        from: filter.from,
        to: filter.to,
        limit: filter.limit,
        page: filter.page,
      }),
      { schema: orderListSchema },
    ),

  trades: (accountId: string, filter: TradesFilter = {}) =>
    apiClient.request(
      withQuery(`/v1/accounts/${id(accountId)}/trades/history`, {
        trading_pair: filter.tradingPair,
        side: filter.side,
        from: filter.from,
        to: filter.to,
        limit: filter.limit,
        page: filter.page,
      }),
      { schema: accountTradeListSchema },
    ),

  trade: (tradeId: string) => apiClient.request(`/v1/trades/${id(tradeId)}`, { schema: accountTradeSchema }),
};
