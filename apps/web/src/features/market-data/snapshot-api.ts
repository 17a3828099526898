import {
  FUTURES_MARKET_ID_PATTERN,
  futuresMarketTradeSchema,
  futuresOrderBookSchema,
  type OrderBookView,
  orderBookSchema,
  type Trade,
  tradeSchema,
} from '@platform/contracts';
import { z } from 'zod';
import { apiClient } from '../../api/http.ts';
import { withQuery } from '../../api/wallet.ts';

/**
 * The HTTP snapshots that seed (and resync) the book and trade feeds. Apart from
 * market-data-api.ts, so that the shell, which loads that one, does not carry them. A perpetual's
 * id (BTC_USD_PERP) is read from /v1/futures/markets/...; its socket channels carry the same
 * payloads as a spot pair's, so the feeds need nothing else to show one.
 */

const pairPath = (pairId: string) => encodeURIComponent(pairId);
const isPerpetual = (pairId: string) => FUTURES_MARKET_ID_PATTERN.test(pairId);
const symbolOf = (market: string) => market.replace(/_/g, '/');

async function futuresOrderBook(market: string, depth: number): Promise<OrderBookView> {
  const book = await apiClient.request(withQuery(`/v1/futures/markets/${pairPath(market)}/orderbook`, { depth }), {
    schema: futuresOrderBookSchema,
  });
  return { ...book, trading_pair: book.market, symbol: symbolOf(book.market) };
}

/** The contracts name no list shape for a perpetual's trades: a bare array (as spot) or `{ trades }`. */
const futuresTradesAnswer = z.union([
  z.array(futuresMarketTradeSchema),
  z.object({ trades: z.array(futuresMarketTradeSchema) }),
]);

async function futuresTrades(market: string, limit: number): Promise<Trade[]> {
  const answer = await apiClient.request(withQuery(`/v1/futures/markets/${pairPath(market)}/trades`, { limit }), {
    schema: futuresTradesAnswer,
  });
  const trades = Array.isArray(answer) ? answer : answer.trades;
  return trades.map(({ market: id, ...trade }) => ({
    ...trade,
    trading_pair: id,
    symbol: symbolOf(id),
    total: '0',
  }));
}

export const snapshotApi = {
  /** A snapshot of the book, `depth` levels a side (the socket's snapshot is what stays live). */
  orderBook: (pairId: string, depth = 50) =>
    isPerpetual(pairId)
      ? futuresOrderBook(pairId, depth)
      : apiClient.request(withQuery(`/v1/orderbook/${pairPath(pairId)}`, { depth }), { schema: orderBookSchema }),

  marketTrades: (pairId: string, limit = 50) =>
    isPerpetual(pairId)
      ? futuresTrades(pairId, limit)
      : apiClient.request(withQuery(`/v1/market/${pairPath(pairId)}/trades`, { limit }), {
          schema: z.array(tradeSchema),
        }),
};
