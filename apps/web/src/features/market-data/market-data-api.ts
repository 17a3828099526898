import {
  type CandleInterval,
  candlesResponseSchema,
  marketStatisticsSchema,
  priceUpdateSchema,
  tradingPairSchema,
} from '@platform/contracts';
import { z } from 'zod';
import { apiClient } from '../../api/http.ts';

/** The market-data REST calls (snapshots for the stream, and data the stream does not carry). */

const pairPath = (pairId: string) => encodeURIComponent(pairId);

export const marketDataApi = {
  fetchPairs: () => apiClient.request('/v1/trading-pairs', { schema: z.array(tradingPairSchema) }),
  fetchTicker: (pairId: string) => apiClient.request(`/v1/ticker/${pairPath(pairId)}`, { schema: priceUpdateSchema }),
  fetchStatistics: (pairId: string) =>
    apiClient.request(`/v1/market/${pairPath(pairId)}/statistics`, { schema: marketStatisticsSchema }),
  fetchCandles: (pairId: string, interval: CandleInterval, limit: number) =>
    apiClient.request(`/v1/market/${pairPath(pairId)}/candles?interval=${interval}&limit=${limit}`, {
      schema: candlesResponseSchema,
    }),
};
