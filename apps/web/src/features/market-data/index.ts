/**
 * Streamed market data enters the client here and only here (conventions: one module, as dYdX
 * v4-web does). Screens use these hooks; they never open a socket or read price messages. The
 * product socket itself goes out only to the account feeds that share it (orders, balances,
 * notifications). Biome's noRestrictedImports (biome.json) fails the lint on an import of any other
 * file of this folder from outside it, except ./shell.ts (the page entry's, see there) and
 * ./testing.ts (the fakes, for tests).
 */

export { applyCandleTick, type CandleFeed, candleBucketStart, type LiveCandles } from './candles.ts';
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
export { getMarketData, type MarketData } from './market-data.ts';
export { marketDataApi } from './market-data-api.ts';
export type { BookLevel, BookSide } from './order-book.ts';
export {
  BOOK_SNAPSHOT_DEPTH,
  type OrderBookPicture,
  type OrderBookStatus,
  orderBookFeed,
} from './order-book-feed.ts';
export {
  bookSpread,
  depthFraction,
  GROUPING_MULTIPLIER_EXPONENTS,
  type GroupedLevel,
  groupingStep,
  groupingSteps,
  groupLevels,
  type Spread,
} from './order-book-grouping.ts';
export type { LiveQuote } from './price-store.ts';
export type { SocketStatus } from './product-socket.ts';
export { marketQueryKeys } from './query-keys.ts';
export { RECENT_TRADES_LIMIT, TRADE_TAPE_CAPACITY, type TradeTapeStatus, tradeTape } from './trade-tape.ts';
export { type CandlesResult, useCandles } from './use-candles.ts';
export { type OrderBookResult, useOrderBook } from './use-order-book.ts';
export { type RecentTrades, useRecentTrades } from './use-recent-trades.ts';
