import { FUTURES_DEFAULT_FUNDING_INTERVAL_MS, type MarkPriceView } from '@platform/contracts';
import { type BookDepth, perp } from '@platform/engine';
import { formatDecimal, parseDecimal, toScale } from '@platform/money';

/**
 * Mark price, index price and predicted funding rate of every perpetual (docs/futures.md,
 * futures-maths.md §5 and §6). The choices:
 * - Index: the median of the FRESH USD prices of the market's base across the independent price
 *   sources (every configured source but the simulator), each source's latest quote as the markets
 *   module received it (modules/markets/source-quotes.ts: no extra polling). A quote older than
 *   `indexStaleMs` (FUTURES_INDEX_STALE_MS, 30 s) is left out; an even count takes the mean of the
 *   two middle ones rounded half up (perp.indexPriceTicks). With no independent source configured
 *   (the default) the simulator is the only source (the markets module's reference quote: the
 *   chain's answer, or the last published price when the feed is off). With independent sources
 *   configured but none fresh, the simulator is NOT used (a made-up price must never liquidate a
 *   real position): no sample. Each price arrives as a decimal string and is rounded half up to the
 *   market's tick exactly (never a float); one that is not a positive decimal is ignored.
 * - No sample, no new mark: the last mark stands, with `indexAt` (the time of the newest quote its
 *   index was made of). Once that is older than the cut-off the market's index is stale: the
 *   liquidation watch neither liquidates nor sends margin calls in it, and `mark.{MARKET}` is
 *   published once more with `index_stale: true` (then again when a fresh sample comes).
 * - Mark: index + moving average of (book mid - index) over `basisWindow` one-second samples
 *   (60 s, between Binance's older 1 minute and newer 30 seconds), clamped to +/- maxBasisRate of
 *   the index (0.5 %). A sample without a two-sided book counts a basis of 0, so an empty or
 *   one-sided book pulls the mark to the index, and one wild mid moves the average by 1/60 of its
 *   basis at most. The last trade is never used. (Binance also takes the median with the
 *   funding-basis price and the last price; we keep the plainer, harder to push, moving basis.)
 * - Premium: every sample, impact bid and ask (the average fill of a market order of the market's
 *   impact notional, 200 USD x its maximum leverage, as Binance) give a premium that goes into a
 *   time-weighted average for the current funding interval; Binance samples every 5 s, we take
 *   every second (more points, same weights scheme). The funding schedule resets it after a round.
 * - Predicted funding rate: fundingRate(average premium, interest 0.01 % per 8 h scaled to the
 *   interval, cap of the market; the +/-0.05 % clamp of I - P stays as Binance's 8 h figure).
 *   nextFundingTime: the next multiple of the interval since the
 *   epoch (00:00, 08:00, 16:00 UTC for 8 h).
 * - Publication: `mark.{MARKET}` (retained) after a sample whose mark, index, rate or next funding
 *   time differs from the last published one: at most once per sample interval per market.
 * - The state is in memory: after a restart the mark rebuilds its window from the index (basis 0)
 *   and the premium average starts empty.
 */

/** What the marks need to know of a perpetual market (modules/futures/markets.ts's spec has it all). */
export interface FuturesMarkMarket {
  id: string;
  base: string;
  priceDecimals: number;
  quantityDecimals: number;
  maxLeverage: number;
  /** Funding rate cap (and -floor) per interval, RATE_SCALE. */
  fundingCap: bigint;
  /** Impact notional, money (10^-8 USD); impactNotionalFor(maxLeverage) when absent. */
  impactNotional?: bigint;
}

export type BookSide = 'bid' | 'ask';
export interface BookTop {
  bestBidTicks: number | null;
  bestAskTicks: number | null;
}
export interface BookLevel {
  priceTicks: number;
  lots: number;
}

export interface FuturesMarksConfig {
  /** One sample per market this often (1 s). */
  sampleMs: number;
  /** A source quote older than this (ms) is left out of the index; a mark whose index is older is stale (30 s). */
  indexStaleMs: number;
  /** Basis samples in the mark's moving average (60). */
  basisWindow: number;
  /** The mark stays within this share of the index (RATE_SCALE; 0.5 % = 500_000n). */
  maxBasisRate: bigint;
  /** Interest component per 8 hours (RATE_SCALE; 0.01 % = 10_000n), scaled to the interval. */
  interestRatePer8h: bigint;
  fundingIntervalMs: number;
  /** Book levels read per side for the impact prices. */
  impactDepth: number;
}

export const DEFAULT_MARKS_CONFIG: FuturesMarksConfig = {
  sampleMs: 1_000,
  indexStaleMs: 30_000,
  basisWindow: 60,
  maxBasisRate: 500_000n,
  interestRatePer8h: 10_000n,
  fundingIntervalMs: FUTURES_DEFAULT_FUNDING_INTERVAL_MS,
  impactDepth: 200,
};

/** One source's USD price of a coin ('67250.12') and when it was seen (ms). */
export interface IndexQuote {
  price: string;
  atMs: number;
}

export interface FuturesMarksDeps {
  markets: () => readonly FuturesMarkMarket[];
  /** The index sources' latest USD prices of a base currency, any age (the marks leave out stale ones). */
  indexSources: (base: string) => readonly IndexQuote[];
  bookTop: (marketId: string) => BookTop;
  /** The best `depth` levels of one side, best first. */
  bookLevels: (marketId: string, side: BookSide, depth: number) => readonly BookLevel[];
  clock: () => Date;
  /** Publishes on the pub/sub, retained (`{ retain: true }`): a new subscriber gets the latest at once. */
  publish: (channel: string, payload: MarkPriceView) => void;
  log?: { warn(details: object, message: string): void };
  config?: Partial<FuturesMarksConfig>;
}

export interface MarkSnapshot {
  markTicks: number;
  indexTicks: number;
  /** When the index was last confirmed: the time (ms) of the newest source quote it was made of. */
  indexAt: number;
  /** Predicted rate of the coming round, capped, RATE_SCALE. */
  fundingRate: bigint;
  nextFundingTime: number;
}

export type MarkListener = (marketId: string, snapshot: MarkSnapshot) => void;

export interface FuturesMarks {
  mark(marketId: string): MarkSnapshot | null;
  /**
   * True while the market has no index younger than `indexStaleMs` (none yet, or its sources went
   * quiet): its last mark stands but must not liquidate anyone.
   */
  indexStale(marketId: string): boolean;
  /** Called after every sample that changed a market's snapshot; returns the way to stop. */
  onMark(listener: MarkListener): () => void;
  /** The predicted rate now (what the next round would pay), capped; null for an unknown market. */
  fundingRate(marketId: string): bigint | null;
  /** Starts a new premium average (after a funding round). */
  resetPremium(marketId: string): void;
  /** Samples every market once now (the timer calls it; tests drive it). */
  sampleAll(): void;
  start(): void;
  stop(): void;
  readonly config: FuturesMarksConfig;
}

/** Impact notional as Binance: 200 USD of initial margin at the market's maximum leverage. */
export function impactNotionalFor(maxLeverage: number): bigint {
  return 200n * perp.MONEY_SCALE * BigInt(maxLeverage);
}

/** The latest funding time at or before `nowMs`. */
export function lastFundingTime(nowMs: number, intervalMs: number): number {
  return Math.floor(nowMs / intervalMs) * intervalMs;
}

/** What the marks read of a perpetual's matching engine (MarketEngine has it). */
export interface EngineBook {
  bestBid(): number | null;
  bestAsk(): number | null;
  depth(levels: number): BookDepth;
}

/** bookTop and bookLevels read from each market's matching engine; an unknown market has an empty book. */
export function engineBookReader(
  engineOf: (marketId: string) => EngineBook | undefined,
): Pick<FuturesMarksDeps, 'bookTop' | 'bookLevels'> {
  return {
    bookTop(marketId) {
      const engine = engineOf(marketId);
      return { bestBidTicks: engine?.bestBid() ?? null, bestAskTicks: engine?.bestAsk() ?? null };
    },
    bookLevels(marketId, side, depth) {
      const book = engineOf(marketId)?.depth(depth);
      const levels = (side === 'bid' ? book?.bids : book?.asks) ?? [];
      return levels.map((level) => ({ priceTicks: level.priceTicks, lots: level.quantityLots }));
    },
  };
}

/** What the index reads of the markets module (modules/markets/index.ts's Markets has it). */
export interface IndexPriceSources {
  /** The configured independent sources' names (every configured one but 'simulator'). */
  independent: readonly string[];
  /** Each source's latest quote of a coin (modules/markets/source-quotes.ts). */
  sourceQuotes: (symbol: string) => readonly { source: string; priceUsd: string; atMs: number }[];
  /** The `{BASE}_USD` pair's reference quote: the chain's answer, the last published price with the feed off. */
  referenceQuote: (pairId: string) => { price: string; timestamp: number } | undefined;
}

/**
 * The index sources of a base coin: the latest quote of every independent source; with none
 * configured, the reference quote (the simulator's price, the only source). The simulator is never
 * mixed in or fallen back to when independent sources are configured: their staleness must show.
 */
export function indexSourcesFromPriceSources(sources: IndexPriceSources): (base: string) => readonly IndexQuote[] {
  const independent = new Set(sources.independent.filter((name) => name !== 'simulator'));
  return (base) => {
    if (independent.size === 0) {
      const quote = sources.referenceQuote(`${base}_USD`);
      return quote ? [{ price: quote.price, atMs: quote.timestamp }] : [];
    }
    return sources
      .sourceQuotes(base)
      .filter((quote) => independent.has(quote.source))
      .map((quote) => ({ price: quote.priceUsd, atMs: quote.atMs }));
  };
}

/** The interest component for an interval: the 8-hour rate scaled, rounded half away from zero. */
export function interestForInterval(ratePer8h: bigint, intervalMs: number): bigint {
  const eightHours = 8n * 3_600_000n;
  const scaled = ratePer8h * BigInt(intervalMs);
  const half = eightHours / 2n;
  return scaled >= 0n ? (scaled + half) / eightHours : -((-scaled + half) / eightHours);
}

/** A USD price as ticks of `priceDecimals`, rounded half up; null when not a positive decimal. */
export function priceTextToTicks(text: string, priceDecimals: number): number | null {
  const parsed = parseDecimal(text, { maxScale: 30, maxIntegerDigits: 20 });
  if (!parsed.ok || parsed.value.units <= 0n) return null;
  const ticks = toScale(parsed.value, priceDecimals, 'half_up').units;
  if (ticks <= 0n || ticks > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(ticks);
}

const ticksText = (ticks: number, decimals: number) => formatDecimal({ units: BigInt(ticks), scale: decimals });
/** A rate (RATE_SCALE = 10^-8) as a decimal fraction without padding zeros: '0.0001'. */
export const rateText = (rate: bigint) => formatDecimal({ units: rate, scale: 8 }, { trimZeros: true });

type MarketState = {
  tracker: perp.MarkPriceTracker;
  premium: perp.PremiumAverage;
  snapshot: MarkSnapshot | null;
  /** The last publication said `index_stale: true` (published once per stale period). */
  stalePublished: boolean;
};

/**
 * The median of the fresh sources' prices for the market's base, in its ticks, and the time of the
 * newest quote in it; null without a fresh, valid one.
 */
export function indexOf(
  quotes: readonly IndexQuote[],
  priceDecimals: number,
  nowMs: number,
  staleMs: number,
): { ticks: number; atMs: number } | null {
  const ticks: number[] = [];
  let atMs = Number.NEGATIVE_INFINITY;
  for (const quote of quotes) {
    if (!Number.isFinite(quote.atMs) || nowMs - quote.atMs > staleMs) continue;
    const price = priceTextToTicks(quote.price, priceDecimals);
    if (price === null) continue;
    ticks.push(price);
    atMs = Math.max(atMs, quote.atMs);
  }
  const median = perp.indexPriceTicks(ticks);
  return median === null ? null : { ticks: median, atMs };
}

/** The premium of the book now: impact bid and ask of the market's impact notional against the index. */
function premiumSample(
  deps: FuturesMarksDeps,
  config: FuturesMarksConfig,
  market: FuturesMarkMarket,
  indexTicks: number,
): bigint {
  const spec = { priceDecimals: market.priceDecimals, quantityDecimals: market.quantityDecimals };
  const notional = market.impactNotional ?? impactNotionalFor(market.maxLeverage);
  const impact = (side: BookSide) =>
    perp.impactPriceTicks(spec, deps.bookLevels(market.id, side, config.impactDepth), notional);
  return perp.premiumRate(indexTicks, impact('bid'), impact('ask'));
}

/** One basis and premium sample of the book at the index; the mark after it (null before any). */
function sampleBook(
  deps: FuturesMarksDeps,
  config: FuturesMarksConfig,
  market: FuturesMarkMarket,
  state: MarketState,
  indexTicks: number,
): number | null {
  const top = deps.bookTop(market.id);
  state.tracker.sample(indexTicks, top.bestBidTicks, top.bestAskTicks);
  state.premium.add(premiumSample(deps, config, market, indexTicks));
  return state.tracker.markTicks();
}

/** No snapshot yet, or its index is older than the cut-off. */
const indexIsStale = (snapshot: MarkSnapshot | null, nowMs: number, staleMs: number) =>
  snapshot === null || nowMs - snapshot.indexAt > staleMs;

export function createFuturesMarks(deps: FuturesMarksDeps): FuturesMarks {
  const config: FuturesMarksConfig = { ...DEFAULT_MARKS_CONFIG, ...deps.config };
  const interest = interestForInterval(config.interestRatePer8h, config.fundingIntervalMs);
  const states = new Map<string, MarketState>();
  const listeners = new Set<MarkListener>();
  let timer: NodeJS.Timeout | null = null;

  const stateOf = (marketId: string): MarketState => {
    let state = states.get(marketId);
    if (!state) {
      const tracker = new perp.MarkPriceTracker({ window: config.basisWindow, maxBasisRate: config.maxBasisRate });
      state = { tracker, premium: new perp.PremiumAverage(), snapshot: null, stalePublished: false };
      states.set(marketId, state);
    }
    return state;
  };
  const marketOf = (marketId: string) => deps.markets().find((market) => market.id === marketId);

  const predicted = (market: FuturesMarkMarket, state: MarketState) =>
    perp.fundingRate(state.premium.average(), interest, market.fundingCap);

  const isStale = (snapshot: MarkSnapshot | null, nowMs: number) => indexIsStale(snapshot, nowMs, config.indexStaleMs);

  const announce = (market: FuturesMarkMarket, snapshot: MarkSnapshot, nowMs: number, stale: boolean) => {
    deps.publish(`mark.${market.id}`, markView(market, snapshot, nowMs, stale));
    for (const listener of listeners) listener(market.id, snapshot);
  };

  // No fresh index: the last mark stands; once its index is past the cut-off, one publication says so.
  const sampleWithoutIndex = (market: FuturesMarkMarket, nowMs: number): void => {
    const state = states.get(market.id);
    if (!state?.snapshot || state.stalePublished || !isStale(state.snapshot, nowMs)) return;
    state.stalePublished = true;
    announce(market, state.snapshot, nowMs, true);
  };

  const sampleMarket = (market: FuturesMarkMarket, nowMs: number): void => {
    const index = indexOf(deps.indexSources(market.base), market.priceDecimals, nowMs, config.indexStaleMs);
    if (index === null) {
      sampleWithoutIndex(market, nowMs);
      return;
    }
    const state = stateOf(market.id);
    const markTicks = sampleBook(deps, config, market, state, index.ticks);
    if (markTicks === null) return;
    const next: MarkSnapshot = {
      markTicks,
      indexTicks: index.ticks,
      indexAt: index.atMs,
      fundingRate: predicted(market, state),
      nextFundingTime: perp.nextFundingTime(nowMs, config.fundingIntervalMs),
    };
    const previous = state.snapshot;
    state.snapshot = next;
    // indexAt alone moving is no news; a fresh index after a stale period is.
    if (previous !== null && sameSnapshot(previous, next) && !state.stalePublished) return;
    state.stalePublished = false;
    announce(market, next, nowMs, false);
  };

  const sampleAll = (): void => {
    const nowMs = deps.clock().getTime();
    for (const market of deps.markets()) {
      try {
        sampleMarket(market, nowMs);
      } catch (error) {
        deps.log?.warn({ err: error, market: market.id }, 'mark sample failed');
      }
    }
  };

  return {
    config,
    mark: (marketId) => states.get(marketId)?.snapshot ?? null,
    indexStale: (marketId) => isStale(states.get(marketId)?.snapshot ?? null, deps.clock().getTime()),
    onMark(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fundingRate(marketId) {
      const market = marketOf(marketId);
      return market ? predicted(market, stateOf(marketId)) : null;
    },
    resetPremium: (marketId) => stateOf(marketId).premium.reset(),
    sampleAll,
    start() {
      if (timer) return;
      sampleAll();
      timer = setInterval(sampleAll, config.sampleMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

const sameSnapshot = (a: MarkSnapshot, b: MarkSnapshot) =>
  a.markTicks === b.markTicks &&
  a.indexTicks === b.indexTicks &&
  a.fundingRate === b.fundingRate &&
  a.nextFundingTime === b.nextFundingTime;

/** The `mark.{MARKET}` message (markPriceSchema) of a snapshot; `indexStale`: its index is past the cut-off. */
export function markView(
  market: FuturesMarkMarket,
  snapshot: MarkSnapshot,
  timestampMs: number,
  indexStale = false,
): MarkPriceView {
  return {
    market: market.id,
    mark_price: ticksText(snapshot.markTicks, market.priceDecimals),
    index_price: ticksText(snapshot.indexTicks, market.priceDecimals),
    funding_rate: rateText(snapshot.fundingRate),
    next_funding_time: snapshot.nextFundingTime,
    index_stale: indexStale,
    timestamp: timestampMs,
  };
}
