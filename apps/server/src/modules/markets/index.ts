import { formatDecimal } from '@platform/money';
import type { AppContext, ModuleParts } from '../../context.ts';
import { CandleReads } from './candle-cache.ts';
import { PairCatalogue } from './catalogue.ts';
import { type FeedPair, MarketFeed } from './feed.ts';
import { marketsRoutes } from './routes.ts';
import { seedCatalogue, seedHistory } from './seed.ts';
import {
  type ReferenceDayQuote,
  type ReferenceQuote,
  referenceDayQuote,
  referenceQuote,
  usdPriceAt,
} from './service.ts';
import { MarketSnapshots } from './snapshots.ts';
import type { SourceQuote } from './source-quotes.ts';
import { createPriceSources, type PriceSources } from './sources.ts';

export {
  type CandleSpan,
  type CandlesQuery,
  type CandlesResponse,
  candleSpan,
} from './candle-reads.ts';
export type { PairCatalogue, PairChangeListener, PairRow } from './catalogue.ts';
export type { MarketFeed } from './feed.ts';
export { existingPairIds, latestPriceUpdate, type ReferenceDayQuote, type ReferenceQuote } from './service.ts';
export type { MarketSnapshots } from './snapshots.ts';
export type { SourceQuote } from './source-quotes.ts';

/** What the markets offer the other modules: the running feed and the reference prices. */
export type Markets = ModuleParts & {
  feed: MarketFeed;
  /** The trading pairs in memory; the exchange listens to it for pairs an admin opens or closes. */
  catalogue: PairCatalogue;
  /** The public market reads, encoded once per change (the provider facade sends them too). */
  snapshots: MarketSnapshots;
  sources: PriceSources;
  /** Resolves once the first-start history is written (tests wait for it). */
  history: Promise<void>;
  /** The reference price of a pair (the sources', never a trade on our book) and when it was confirmed. */
  referenceQuote(pairId: string): ReferenceQuote | undefined;
  /** The same reference price with the reference track's price 24 h ago (what the portfolio values with). */
  referenceDayQuote(pairId: string): ReferenceDayQuote | undefined;
  /** Each configured source's latest USD quote of a coin, whatever its age (the simulator's too). */
  sourceQuotes(symbol: string): SourceQuote[];
  /** The recorded USD price of a currency at a past moment (a stored candle's close), or null. */
  usdPriceAt(currency: string, timeMs: number): Promise<string | null>;
};

/**
 * Markets: the catalogue (seeded from contracts at start), the price feed worker and the market
 * data routes. The feed is stopped when the app closes.
 */
export async function createMarkets(context: AppContext): Promise<Markets> {
  const { db, config, log, clock, pubsub } = context;
  const startedAtMs = Date.now();
  await seedCatalogue(db);
  const sources = createPriceSources(context);
  const catalogue = await PairCatalogue.load(db);
  const feedPairs: FeedPair[] = catalogue.all().map((row) => ({
    id: row.id,
    base: row.base_currency,
    quote: row.quote_currency,
    pricePrecision: row.price_precision,
    quantityPrecision: row.quantity_precision,
  }));
  const feed = new MarketFeed({
    db,
    pubsub,
    log,
    clock,
    source: sources.chain,
    pairs: feedPairs,
    pollIntervalMs: config.pricePollIntervalMs,
  });

  const candleReads = new CandleReads(db, catalogue, feed.candles);

  const quotes = await feed.prime();
  const endPrices = new Map([...quotes.values()].map((quote) => [quote.symbol, quote.priceUsd]));
  let ownQuote: ((pairId: string) => ReferenceQuote | undefined) | null = null;
  let ownDayQuote: ((pairId: string) => ReferenceDayQuote | undefined) | null = null;
  if (config.priceFeedEnabled) {
    sources.simulator.start();
    await feed.start();
    ownQuote = (pairId) => {
      const quote = feed.referenceQuote(pairId);
      return quote && { price: formatDecimal(quote.price), timestamp: quote.timestampMs };
    };
    ownDayQuote = (pairId) => {
      const quote = ownQuote?.(pairId);
      const open = feed.stats(pairId)?.open24h;
      return quote && open && { ...quote, open24h: formatDecimal(open) };
    };
  }

  // A year of history takes seconds to write on first start: it is written after the server is
  // up (charts fill in coin by coin), and a shutdown stops it between coins.
  let closing = false;
  const historyOptions = {
    seed: config.simulatorSeed,
    nowMs: clock().getTime(),
    days: config.historyDays,
    minuteHours: config.historyMinuteHours,
  };
  const history = seedHistory(db, endPrices, historyOptions, () => closing)
    .then(async (inserted) => {
      if (!closing) await feed.loadWindows();
      // The history under the live candles changed: they are read again.
      feed.candles.reset();
      log.info(
        { pairs: feedPairs.length, candlesInserted: inserted, ms: Date.now() - startedAtMs },
        'market history ready',
      );
    })
    .catch((error: unknown) => log.error({ err: error }, 'could not generate market history'));

  const snapshots = new MarketSnapshots(catalogue, feed, clock);
  return {
    feed,
    catalogue,
    snapshots,
    sources,
    history,
    referenceQuote: (pairId) => referenceQuote(ownQuote, pubsub, pairId),
    referenceDayQuote: (pairId) => referenceDayQuote(ownDayQuote, pubsub, pairId),
    sourceQuotes: (symbol) => sources.quotes.quotes(symbol),
    usdPriceAt: (currency, timeMs) => usdPriceAt(db, currency, timeMs),
    routes: (scope) => marketsRoutes(scope, context, snapshots, candleReads),
    stop: async () => {
      closing = true;
      await history;
      await feed.stop();
      await sources.chain.close();
    },
  };
}
