import {
  type ConversionEstimateQuery,
  conversionHistoryResponseSchema,
  conversionPairsResponseSchema,
  conversionQuoteSchema,
  conversionSchema,
  conversionSupportedResponseSchema,
  executeQuickTradeResponseSchema,
  quickTradeHistoryResponseSchema,
} from '@platform/contracts';
import { apiClient } from './http.ts';
import { withQuery } from './wallet.ts';

/**
 * The conversion desk and quick trades of spec §3.5 and §7.3, on the wallet service (/api/v1).
 * Currency codes go lower-cased (§5); amounts travel as decimal strings. Every answer is parsed with
 * the contract's schema.
 */

export interface CreateConversionBody {
  from_currency: string;
  to_currency: string;
  /** A decimal string, never a number. */
  from_amount: string;
  quote_id: string;
}

export interface ExecuteTradeBody {
  sell_currency: string;
  buy_currency: string;
  sell_amount: string;
  /** The least buy_currency accepted; left out when the user set none. */
  target_amount?: string | undefined;
}

const lower = (currency: string) => currency.trim().toLowerCase();

export const conversionsApi = {
  pairs: () => apiClient.request('/api/v1/conversions/pairs', { schema: conversionPairsResponseSchema }),

  /** Spec §7.8: the support check answers false on any error, never throws. */
  supported: async (fromCurrency: string, toCurrency: string): Promise<boolean> => {
    try {
      const answer = await apiClient.request(
        withQuery('/api/v1/conversions/supported', {
          from_currency: lower(fromCurrency),
          to_currency: lower(toCurrency),
        }),
        { schema: conversionSupportedResponseSchema },
      );
      return answer.supported;
    } catch {
      return false;
    }
  },

  estimate: (query: ConversionEstimateQuery) =>
    apiClient.request(
      withQuery('/api/v1/conversions/estimate', {
        from_currency: lower(query.from_currency),
        to_currency: lower(query.to_currency),
        from_amount: query.from_amount,
      }),
      { schema: conversionQuoteSchema },
    ),

  /** The key makes the conversion idempotent: a retry with it gets the first conversion back. */
  create: (body: CreateConversionBody, idempotencyKey: string) =>
    apiClient.request('/api/v1/conversions', {
      method: 'POST',
      body: {
        from_currency: lower(body.from_currency),
        to_currency: lower(body.to_currency),
        from_amount: body.from_amount,
        quote_id: body.quote_id,
      },
      headers: { 'Idempotency-Key': idempotencyKey },
      schema: conversionSchema,
    }),

  history: (limit?: number) =>
    apiClient.request(withQuery('/api/v1/conversions/history', { limit }), {
      schema: conversionHistoryResponseSchema,
    }),

  executeTrade: (body: ExecuteTradeBody, idempotencyKey: string) =>
    apiClient.request('/api/v1/trade/execute', {
      method: 'POST',
      body: {
        sell_currency: lower(body.sell_currency),
        buy_currency: lower(body.buy_currency),
        sell_amount: body.sell_amount,
        ...(body.target_amount ? { target_amount: body.target_amount } : {}),
        trade_type: 'market',
      },
      headers: { 'Idempotency-Key': idempotencyKey },
      schema: executeQuickTradeResponseSchema,
    }),

  tradeHistory: (limit?: number) =>
    apiClient.request(withQuery('/api/v1/trade/history', { limit }), { schema: quickTradeHistoryResponseSchema }),
};
