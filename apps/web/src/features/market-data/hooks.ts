import type { TradingPair } from '@platform/contracts';
import { formatDecimal, mulToScale } from '@platform/money';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { toAmount } from '../../lib/format.ts';
import { getMarketData } from './market-data.ts';
import { marketDataApi } from './market-data-api.ts';
import type { LiveQuote } from './price-store.ts';
import type { SocketStatus } from './product-socket.ts';
import { marketQueryKeys } from './query-keys.ts';

/** The pairs list changes rarely (listings, admin switches); prices come from the stream. */
const PAIRS_STALE_MS = 60_000;
const STATISTICS_STALE_MS = 5 * 60_000;
const SPARKLINE_STALE_MS = 10 * 60_000;
const SPARKLINE_CACHE_MS = 30 * 60_000;
/** Seven days of hourly candles. */
export const SPARKLINE_INTERVAL = '1h';
export const SPARKLINE_CANDLES = 168;

export function usePairs(enabled = true) {
  return useQuery({
    queryKey: marketQueryKeys.tradingPairs(),
    queryFn: marketDataApi.fetchPairs,
    staleTime: PAIRS_STALE_MS,
    enabled,
  });
}

/** The live quote of one market; subscribes its price channel while mounted. */
export function usePriceUpdate(pairId: string | null | undefined): LiveQuote | undefined {
  const { store } = getMarketData();
  useEffect(() => (pairId ? store.watch(pairId) : undefined), [store, pairId]);
  return useSyncExternalStore(
    store.subscribe,
    () => (pairId ? store.getQuote(pairId) : undefined),
    () => undefined,
  );
}

/**
 * Keeps the price channels of `pairIds` subscribed, joining and leaving only the ones that change
 * (a search that narrows the list must not unsubscribe and resubscribe the rest).
 */
export function useWatchPairs(pairIds: readonly string[]): void {
  const { store } = getMarketData();
  const watched = useRef(new Map<string, () => void>());
  const key = [...new Set(pairIds)].sort().join(',');
  useEffect(() => {
    const wanted = new Set(key ? key.split(',') : []);
    for (const [pairId, leave] of watched.current) {
      if (wanted.has(pairId)) continue;
      leave();
      watched.current.delete(pairId);
    }
    for (const pairId of wanted) {
      if (!watched.current.has(pairId)) watched.current.set(pairId, store.watch(pairId));
    }
  }, [store, key]);
  useEffect(() => {
    const current = watched.current;
    return () => {
      for (const leave of current.values()) leave();
      current.clear();
    };
  }, []);
}

/** A trading pair with its live price, change and volume (the stream's when known, else the list's). */
export interface LivePair {
  id: string;
  symbol: string;
  baseCurrency: string;
  quoteCurrency: string;
  price: string | null;
  changePercent24h: string | null;
  /** Base-currency volume over 24 h. */
  volume24h: string | null;
  /** Volume x price, in the quote currency, to the cent. */
  quoteVolume24h: string | null;
  high24h: string | null;
  low24h: string | null;
  /** Unix milliseconds of the last price, or null when only the list's price is known. */
  updatedAt: number | null;
  pair: TradingPair;
}

export function quoteVolume(volume: string | null, price: string | null): string | null {
  const volumeAmount = toAmount(volume);
  const priceAmount = toAmount(price);
  if (!volumeAmount || !priceAmount) return null;
  return formatDecimal(mulToScale(volumeAmount, priceAmount, 2, 'half_up'));
}

export function toLivePair(pair: TradingPair, quote: LiveQuote | undefined): LivePair {
  const price = quote?.price ?? pair.current_price;
  const volume24h = quote?.volume24h ?? pair.volume_24h;
  return {
    id: pair.id,
    symbol: pair.symbol,
    baseCurrency: pair.base_currency,
    quoteCurrency: pair.quote_currency,
    price,
    changePercent24h: quote?.changePercent24h ?? pair.change_24h,
    volume24h,
    quoteVolume24h: quoteVolume(volume24h, price),
    high24h: quote?.high24h ?? null,
    low24h: quote?.low24h ?? null,
    updatedAt: quote?.timestamp ?? null,
    pair,
  };
}

export interface LivePairsResult {
  pairs: LivePair[];
  isLoading: boolean;
  error: unknown;
  refetch: () => void;
}

/**
 * Every active pair with live prices. `watch` chooses the markets whose channels are subscribed
 * (default: all of them); the others keep the list's last price.
 */
export function useLivePairs(watch: 'all' | readonly string[] = 'all'): LivePairsResult {
  const pairsQuery = usePairs();
  const { store } = getMarketData();
  const quotes = useSyncExternalStore(store.subscribe, store.getQuotes, store.getQuotes);
  const activePairs = useMemo(() => (pairsQuery.data ?? []).filter((pair) => pair.is_active), [pairsQuery.data]);
  const watchedIds = useMemo(
    () => (watch === 'all' ? activePairs.map((pair) => pair.id) : watch),
    [watch, activePairs],
  );
  useWatchPairs(watchedIds);
  // A market whose pair and quote did not change keeps its object, so memoised rows skip rendering.
  const cache = useRef(new Map<string, { pair: TradingPair; quote: LiveQuote | undefined; live: LivePair }>());
  const pairs = useMemo(
    () =>
      activePairs.map((pair) => {
        const quote = quotes.get(pair.id);
        const cached = cache.current.get(pair.id);
        if (cached && cached.pair === pair && cached.quote === quote) return cached.live;
        const live = toLivePair(pair, quote);
        cache.current.set(pair.id, { pair, quote, live });
        return live;
      }),
    [activePairs, quotes],
  );
  return {
    pairs,
    isLoading: pairsQuery.isLoading,
    error: pairsQuery.error,
    refetch: () => void pairsQuery.refetch(),
  };
}

export interface FeedStatus {
  status: SocketStatus;
  /** True while the socket has given up and REST prices are polled instead (spec §4). */
  polling: boolean;
  reconnect: () => void;
}

export function useFeedStatus(): FeedStatus {
  const marketData = getMarketData();
  const subscribe = useCallback(
    (listener: () => void) => {
      const leave = marketData.socket.onStatus(listener);
      return () => void leave();
    },
    [marketData],
  );
  const readStatus = () => marketData.socket.status;
  const status = useSyncExternalStore(subscribe, readStatus, readStatus);
  return { status, polling: status === 'failed', reconnect: marketData.reconnect };
}

export function useMarketStatistics(pairId: string, enabled = true) {
  return useQuery({
    queryKey: marketQueryKeys.statistics(pairId),
    queryFn: () => marketDataApi.fetchStatistics(pairId),
    staleTime: STATISTICS_STALE_MS,
    enabled,
  });
}

/** Seven days of hourly closes for a sparkline, cached for the session's browsing. */
export function useSparkline(pairId: string, enabled = true) {
  return useQuery({
    queryKey: marketQueryKeys.sparkline(pairId),
    queryFn: async () => {
      const response = await marketDataApi.fetchCandles(pairId, SPARKLINE_INTERVAL, SPARKLINE_CANDLES);
      return response.candles.map((candle) => candle.close);
    },
    staleTime: SPARKLINE_STALE_MS,
    gcTime: SPARKLINE_CACHE_MS,
    enabled,
  });
}
