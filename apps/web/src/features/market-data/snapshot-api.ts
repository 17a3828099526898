import { orderBookSchema, tradeSchema } from '@platform/contracts';
import { z } from 'zod';
import { apiClient } from '../../api/http.ts';
import { withQuery } from '../../api/wallet.ts';

/**
 * The HTTP snapshots that seed (and resync) the book and trade feeds. Apart from
 * market-data-api.ts, so that the shell, which loads that one, does not carry them.
 */

const pairPath = (pairId: string) => encodeURIComponent(pairId);

export const snapshotApi = {
  /** A snapshot of the book, `depth` levels a side (the socket's snapshot is what stays live). */
  orderBook: (pairId: string, depth = 50) =>
    apiClient.request(withQuery(`/v1/orderbook/${pairPath(pairId)}`, { depth }), { schema: orderBookSchema }),

  marketTrades: (pairId: string, limit = 50) =>
    apiClient.request(withQuery(`/v1/market/${pairPath(pairId)}/trades`, { limit }), {
      schema: z.array(tradeSchema),
    }),
};
