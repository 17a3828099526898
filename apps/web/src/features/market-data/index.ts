/**
 * Streamed market data enters the client here and only here (conventions: one module, as dYdX
 * v4-web does). Screens use these hooks; they never open a socket or read price messages.
 */
export {
  type FeedStatus,
  type LivePair,
  type LivePairsResult,
  quoteVolume,
  SPARKLINE_CANDLES,
  toLivePair,
  useFeedStatus,
  useLivePairs,
  useMarketStatistics,
  usePairs,
  usePriceUpdate,
  useSparkline,
  useWatchPairs,
} from './hooks.ts';
export type { LiveQuote } from './price-store.ts';
export type { SocketStatus } from './product-socket.ts';
