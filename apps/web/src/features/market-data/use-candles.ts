import { type CandleInterval, type ChartRange, chartRangeIntervals } from '@platform/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { type CandleFeed, fetchRangeCandles, LiveCandles } from './candles.ts';
import { getMarketData } from './market-data.ts';
import { priceChannel } from './price-store.ts';
import { marketQueryKeys } from './query-keys.ts';
import { tradesChannel } from './trade-tape.ts';

/** A range's history is reloaded when the chart comes back to it after this long. */
const CANDLES_STALE_MS = 30_000;

export interface CandlesResult {
  interval: CandleInterval;
  /** The candles once loaded, kept live from the market's trades and prices; null before. */
  live: LiveCandles | null;
  isLoading: boolean;
  error: unknown;
  refetch: () => void;
}

/**
 * The candles of a chart range (spec §2.6), live while mounted: a spot pair's, or those of `feed`
 * (a perpetual's, named by its market id in `pairId`), which follow its trades only.
 */
export function useCandles(pairId: string, range: ChartRange, feed?: CandleFeed): CandlesResult {
  const { interval } = chartRangeIntervals[range];
  const followsPrices = feed === undefined;
  const query = useQuery({
    queryKey: marketQueryKeys.candles(pairId, range),
    queryFn: () => (feed ? feed.fetchRange(range) : fetchRangeCandles(pairId, range)),
    staleTime: CANDLES_STALE_MS,
  });
  const history = query.data?.candles;
  const live = useMemo(() => (history ? new LiveCandles(history, interval) : null), [history, interval]);
  useEffect(() => {
    if (!live) return;
    const { socket } = getMarketData();
    const leaveTrades = socket.subscribe(tradesChannel(pairId), (message) => {
      if (message.type === 'trade_update') live.applyTrade(message.payload);
    });
    const leavePrices = followsPrices
      ? socket.subscribe(priceChannel(pairId), (message) => {
          if (message.type === 'price_update') live.applyPrice(message.payload.price, message.payload.timestamp);
        })
      : undefined;
    socket.connect();
    return () => {
      leaveTrades();
      leavePrices?.();
    };
  }, [live, pairId, followsPrices]);
  return {
    interval,
    live,
    isLoading: query.isLoading,
    error: query.error,
    refetch: () => void query.refetch(),
  };
}
