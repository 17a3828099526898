import type { PriceUpdate } from '@platform/contracts';
import { type Amount, decimal, div, eq, formatDecimal, gt, isZero, lt, mul, sub, toScale, zero } from '@platform/money';
import type { PriceQuote, PriceSource } from '../../adapters/prices/types.ts';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { LiveCandles } from './live-candles.ts';
import { ChangedPairs, StatsVersions } from './versions.ts';
import { CoinWindow, type MinuteBucket, TradeWindow } from './windows.ts';

const MS_PER_MINUTE = 60_000;
const DAY_MS = 86_400_000;
/** Percent values (change) are given to 2 decimals. */
const PERCENT_SCALE = 2;
/** USD volumes to cents. */
const USD_SCALE = 2;

export type FeedPair = {
  id: string;
  base: string;
  quote: string;
  pricePrecision: number;
  quantityPrecision: number;
};

export type PairStats = {
  pairId: string;
  symbol: string;
  price: Amount;
  open24h: Amount;
  high24h: Amount;
  low24h: Amount;
  /** Base-currency volume over 24 h. */
  volume24h: Amount;
  change24h: Amount;
  changePercent24h: Amount;
  marketCapUsd: string | null;
  source: string;
  timestampMs: number;
};

export type MarketFeedOptions = {
  db: Database;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  source: PriceSource;
  pairs: readonly FeedPair[];
  /** Each pair publishes at most once per this many ms (4 per second by default). */
  publishIntervalMs?: number;
  /** Sources that do not stream are asked again this often. */
  pollIntervalMs?: number;
  /** Candles are written at most this often. */
  flushIntervalMs?: number;
};

export const priceTopic = (pairId: string) => `price.${pairId}`;

/** Price messages at most four times a second per pair: smooth to the eye, bounded for slow sockets. */
const DEFAULT_PUBLISH_INTERVAL_MS = 250;
/** Candles and statistics reach the database every 5 s: a crash loses at most that much, writes stay few. */
const DEFAULT_FLUSH_INTERVAL_MS = 5_000;
/** Spec §9: the price polling fallback runs every 30 s. */
const DEFAULT_POLL_INTERVAL_MS = 30_000;

/**
 * The price feed worker: USD quotes per coin from the source chain, exact per-pair prices derived
 * from them, per-pair 24 h statistics, 1m/1h/1d candles of the USD pairs, and a retained
 * `price.{PAIR_ID}` message per pair, published at most every publishIntervalMs.
 */
export class MarketFeed {
  private readonly windows = new Map<string, CoinWindow>();
  /** Per pair: the trades on our own book over the last 24 h. */
  private readonly trades = new Map<string, TradeWindow>();
  private readonly pairsBySymbol = new Map<string, FeedPair[]>();
  private readonly pairsById = new Map<string, FeedPair>();
  /** Per pair, how often its figures changed: the read snapshots (snapshots.ts) rebuild on a change. */
  readonly versions = new StatsVersions();
  private readonly dirtyPairs: Set<string> = new ChangedPairs(this.versions);
  /** Candles in the making: written every few seconds, read from memory until then. */
  readonly candles: LiveCandles;
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;
  private stopped = false;

  constructor(private readonly options: MarketFeedOptions) {
    this.candles = new LiveCandles(options.db, options.log, options.clock);
    for (const pair of options.pairs) {
      this.pairsById.set(pair.id, pair);
      for (const symbol of [pair.base, pair.quote]) {
        const list = this.pairsBySymbol.get(symbol) ?? [];
        list.push(pair);
        this.pairsBySymbol.set(symbol, list);
      }
    }
  }

  /** Every coin symbol the pairs need (USD itself is the unit, never quoted). */
  get symbols(): string[] {
    return [...this.pairsBySymbol.keys()].filter((symbol) => symbol !== 'USD');
  }

  private usdPair(symbol: string): FeedPair | undefined {
    return this.pairsById.get(`${symbol}_USD`);
  }

  /** First quotes for every coin, and the last 24 h of 1m candles to start the windows from. */
  async prime(): Promise<Map<string, PriceQuote>> {
    const quotes = await this.options.source.getQuotes(this.symbols);
    for (const quote of quotes.values()) this.ensureWindow(quote);
    return quotes;
  }

  private ensureWindow(quote: PriceQuote): CoinWindow | undefined {
    const existing = this.windows.get(quote.symbol);
    if (existing) return existing;
    const pair = this.usdPair(quote.symbol);
    const price = parseQuoteDecimal(quote.priceUsd);
    if (!pair || !price || isZero(price)) return undefined;
    const window = new CoinWindow(
      quote.symbol,
      pair.pricePrecision,
      pair.quantityPrecision,
      price,
      quote.source,
      quote.timestamp.getTime(),
    );
    window.volume24hUsd = parseQuoteDecimal(quote.volume24hUsd) ?? zero();
    window.marketCapUsd = quote.marketCapUsd;
    this.windows.set(quote.symbol, window);
    return window;
  }

  /** Loads the stored 1m candles of the last 24 h into the windows, so stats survive a restart. */
  async loadWindows(): Promise<void> {
    const nowMs = this.options.clock().getTime();
    const result = await this.options.db.query<{
      pair_id: string;
      open_time: Date;
      open: string;
      high: string;
      low: string;
      close: string;
      volume: string;
    }>(
      `SELECT pair_id, open_time, open, high, low, close, volume FROM candles
       WHERE interval = '1m' AND open_time > $1 AND pair_id = ANY($2::text[]) ORDER BY pair_id, open_time`,
      [new Date(nowMs - DAY_MS).toISOString(), [...this.windows.keys()].map((symbol) => `${symbol}_USD`)],
    );
    const loaded = new Map<CoinWindow, MinuteBucket[]>();
    for (const row of result.rows) {
      const window = this.windows.get(row.pair_id.replace(/_USD$/, ''));
      if (!window) continue;
      const list = loaded.get(window) ?? [];
      loaded.set(window, list);
      list.push({
        minute: Math.floor(new Date(row.open_time).getTime() / MS_PER_MINUTE),
        open: decimal(row.open),
        high: decimal(row.high),
        low: decimal(row.low),
        close: decimal(row.close),
        volume: decimal(row.volume),
      });
    }
    // Stored minutes go before the live ones (history may be loaded after the feed started).
    for (const [window, buckets] of loaded) {
      const firstLive = window.buckets[0]?.minute ?? Number.POSITIVE_INFINITY;
      window.buckets.unshift(...buckets.filter((bucket) => bucket.minute < firstLive));
      window.invalidate();
      for (const pair of this.pairsBySymbol.get(window.symbol) ?? []) this.dirtyPairs.add(pair.id);
    }
  }

  /** The last trade of every pair and its trades of the last 24 h, so prices and volumes survive a restart. */
  async loadTrades(): Promise<void> {
    const nowMs = this.options.clock().getTime();
    const minutes = await this.options.db.query<{
      pair_id: string;
      minute: Date;
      high: string;
      low: string;
      volume: string;
    }>(
      `SELECT pair_id, date_trunc('minute', executed_at) AS minute, max(price)::text AS high, min(price)::text AS low,
         sum(quantity)::text AS volume
       FROM trades WHERE executed_at > $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [new Date(nowMs - DAY_MS).toISOString()],
    );
    const last = await this.options.db.query<{ pair_id: string; price: string; executed_at: Date }>(
      `SELECT DISTINCT ON (pair_id) pair_id, price::text AS price, executed_at FROM trades
       ORDER BY pair_id, executed_at DESC, sequence DESC`,
    );
    for (const row of minutes.rows) {
      const time = new Date(row.minute).getTime();
      const window = this.tradeWindow(row.pair_id);
      window?.add(decimal(row.high), decimal(row.volume), time);
      if (row.low !== row.high) window?.add(decimal(row.low), zero(), time);
    }
    for (const row of last.rows) {
      const window = this.tradeWindow(row.pair_id);
      if (!window) continue;
      window.last = decimal(row.price);
      window.lastMs = new Date(row.executed_at).getTime();
      this.dirtyPairs.add(row.pair_id);
    }
  }

  private tradeWindow(pairId: string): TradeWindow | undefined {
    const pair = this.pairsById.get(pairId);
    if (!pair) return undefined;
    let window = this.trades.get(pairId);
    if (!window) {
      window = new TradeWindow(pair.quantityPrecision);
      this.trades.set(pairId, window);
    }
    return window;
  }

  async start(): Promise<void> {
    await this.prime();
    await this.loadWindows();
    await this.loadTrades();
    for (const pair of this.pairsById.values()) this.dirtyPairs.add(pair.id);
    this.publishDirty();
    const { source } = this.options;
    if (source.subscribe) this.unsubscribe = source.subscribe(this.symbols, (quote) => this.onQuote(quote));
    this.every(this.options.publishIntervalMs ?? DEFAULT_PUBLISH_INTERVAL_MS, () => this.publishDirty());
    this.every(this.options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS, () => void this.flush());
    this.every(this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, () => void this.poll());
  }

  private every(ms: number, task: () => void): void {
    const handle = setInterval(task, ms);
    // The feed never keeps a process (or a test run) alive on its own.
    handle.unref();
    this.timers.push(handle);
  }

  private async poll(): Promise<void> {
    try {
      const quotes = await this.options.source.getQuotes(this.symbols);
      for (const quote of quotes.values()) this.onQuote(quote);
    } catch (error) {
      this.options.log.warn({ err: error }, 'price poll failed');
    }
  }

  /** A new USD quote for a coin: update its window and candles, and mark its pairs. */
  onQuote(quote: PriceQuote): void {
    if (this.stopped) return;
    const price = parseQuoteDecimal(quote.priceUsd);
    if (!price || isZero(price)) return;
    const window = this.ensureWindow(quote);
    if (!window) return;
    window.source = quote.source;
    window.marketCapUsd = quote.marketCapUsd ?? window.marketCapUsd;
    window.volume24hUsd = parseQuoteDecimal(quote.volume24hUsd) ?? window.volume24hUsd;
    window.apply(price, this.options.clock().getTime());
    // Candles are not written from quotes: they come from the trades on our books (recordTrade).
    for (const pair of this.pairsBySymbol.get(quote.symbol) ?? []) this.dirtyPairs.add(pair.id);
  }

  /**
   * A trade of the matching engine. It becomes the pair's last price (what its price channel, ticker
   * and statistics show), adds to its 24 h traded volume, and moves its candle in the making: the
   * live candles of every pair come from its trades (the generated history before them does not).
   */
  recordTrade(pairId: string, price: Amount, quantity: Amount, timeMs: number): void {
    if (this.stopped) return;
    const window = this.tradeWindow(pairId);
    if (!window || isZero(price)) return;
    window.add(price, quantity, timeMs);
    this.updateCandles(pairId, price, quantity, timeMs);
    this.dirtyPairs.add(pairId);
  }

  private updateCandles(pairId: string, price: Amount, addedVolume: Amount, timeMs: number): void {
    this.candles.record(pairId, price, addedVolume, timeMs);
  }

  /** Writes the candles in the making (see LiveCandles). */
  flush(): Promise<void> {
    return this.candles.flush();
  }

  private publishDirty(): void {
    if (this.dirtyPairs.size === 0) return;
    const ids = [...this.dirtyPairs];
    this.dirtyPairs.clear();
    for (const id of ids) {
      const update = this.priceUpdate(id);
      if (update) this.options.pubsub.publish(priceTopic(id), update, { retain: true });
    }
  }

  /** USD price of a coin now (USD itself is 1). */
  usdPrice(symbol: string): Amount | undefined {
    if (symbol === 'USD') return { units: 1n, scale: 0 };
    return this.windows.get(symbol)?.price;
  }

  /**
   * The pair's reference price: derived exactly from the USD prices of its two coins (the price
   * sources). Market makers quote around it and the price band is measured from it; what the pair
   * shows as its price is its last trade (stats).
   */
  referencePrice(pairId: string): Amount | undefined {
    return this.referenceStats(pairId)?.price;
  }

  /**
   * The reference price with the time it was last confirmed by the sources. A cross pair is only as
   * fresh as the older of its two coins; trades on our book never refresh it (the house prices
   * conversions from it, and a user can print a trade).
   */
  referenceQuote(pairId: string): { price: Amount; timestampMs: number } | undefined {
    const pair = this.pairsById.get(pairId);
    const reference = this.referenceStats(pairId);
    const base = pair && this.windows.get(pair.base);
    if (!pair || !reference || !base) return undefined;
    const quote = pair.quote === 'USD' ? undefined : this.windows.get(pair.quote);
    return { price: reference.price, timestampMs: Math.min(base.timestampMs, quote?.timestampMs ?? base.timestampMs) };
  }

  /**
   * The pair's price and 24 h statistics. The price is the last trade on our book (the reference
   * before the first one); the volume is what traded on our book in 24 h; open, high and low follow
   * the reference track (the generated history, then the sources' prices) widened by the trades.
   */
  stats(pairId: string): PairStats | undefined {
    const reference = this.referenceStats(pairId);
    if (!reference) return undefined;
    const pair = this.pairsById.get(pairId)!;
    const window = this.trades.get(pairId);
    const traded = window?.stats(this.options.clock().getTime());
    const price = window?.last ?? reference.price;
    const open = reference.open;
    const high = maxOf(reference.high, price, ...(traded ? [traded.high] : []));
    const low = minOf(reference.low, price, ...(traded ? [traded.low] : []));
    const change = sub(price, open);
    const changePercent = isZero(open)
      ? zero(PERCENT_SCALE)
      : div(mul(change, { units: 100n, scale: 0 }), open, PERCENT_SCALE, 'half_even');
    return {
      pairId,
      symbol: `${pair.base}/${pair.quote}`,
      price,
      open24h: open,
      high24h: high,
      low24h: low,
      volume24h: traded?.volume ?? zero(pair.quantityPrecision),
      change24h: change,
      changePercent24h: changePercent,
      marketCapUsd: reference.marketCapUsd,
      source: reference.source,
      timestampMs: Math.max(reference.timestampMs, window?.lastMs ?? 0),
    };
  }

  /** Price, open, high and low of the reference track, derived exactly from the USD windows. */
  private referenceStats(pairId: string) {
    const pair = this.pairsById.get(pairId);
    if (!pair) return undefined;
    const base = this.windows.get(pair.base);
    if (!base) return undefined;
    const baseStats = base.stats();
    const scale = pair.pricePrecision;
    const ratio = (a: Amount, b: Amount) => div(a, b, scale, 'half_even');
    let price: Amount;
    let open: Amount;
    let high: Amount;
    let low: Amount;
    if (pair.quote === 'USD') {
      price = toScale(base.price, scale, 'half_even');
      open = toScale(baseStats.open, scale, 'half_even');
      high = toScale(baseStats.high, scale, 'half_even');
      low = toScale(baseStats.low, scale, 'half_even');
    } else {
      const quote = this.windows.get(pair.quote);
      if (!quote || isZero(quote.price)) return undefined;
      const quoteStats = quote.stats();
      price = ratio(base.price, quote.price);
      open = ratio(baseStats.open, quoteStats.open);
      high = maxOf(price, open, ratio(baseStats.high, quoteStats.high));
      low = minOf(price, open, ratio(baseStats.low, quoteStats.low));
    }
    return {
      price,
      open,
      high,
      low,
      marketCapUsd: base.marketCapUsd,
      source: base.source,
      timestampMs: Math.max(base.timestampMs, this.windows.get(pair.quote)?.timestampMs ?? 0),
    };
  }

  priceUpdate(pairId: string): PriceUpdate | undefined {
    const stats = this.stats(pairId);
    if (!stats) return undefined;
    return {
      symbol: stats.symbol,
      price: formatDecimal(stats.price),
      change24h: formatDecimal(stats.change24h),
      changePercent24h: formatDecimal(stats.changePercent24h),
      volume24h: formatDecimal(stats.volume24h),
      high24h: formatDecimal(stats.high24h),
      low24h: formatDecimal(stats.low24h),
      timestamp: stats.timestampMs,
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const handle of this.timers) clearInterval(handle);
    this.timers.length = 0;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.flush();
  }
}

const maxOf = (...values: Amount[]): Amount => values.reduce((best, value) => (gt(value, best) ? value : best));
const minOf = (...values: Amount[]): Amount => values.reduce((best, value) => (lt(value, best) ? value : best));

/** A source's decimal string, or null when it is not one (sources are outside data). */
function parseQuoteDecimal(text: string): Amount | null {
  if (!/^\d{1,30}(\.\d{1,30})?$/.test(text)) return null;
  return decimal(text);
}

export const usdVolume = (volume: Amount, price: Amount): Amount => toScale(mul(volume, price), USD_SCALE, 'half_even');
export const sameAmount = eq;
