import {
  CIRCULATING_SUPPLY,
  COIN_TYPE_BY_SYMBOL,
  type CoinType,
  decimalMagnitude,
  pricePrecisionForMagnitude,
  quantityPrecisionForMagnitude,
  REFERENCE_PRICES_USD,
} from '@platform/contracts';
import { decimal, div, formatDecimal, mulToScale, toScale } from '@platform/money';
import { invariant } from '../../lib/invariant.ts';
import type { PriceQuote, PriceSource, PriceSourceHealth } from './types.ts';

/**
 * The built-in market simulator: a random walk per coin from the reference prices, in exact
 * decimals. Only the random shock starts life as a float (a seeded PRNG draw); it becomes a
 * bounded integer number of basis points before it touches a price, so a price is always a
 * bigint at the coin's USD price precision.
 */

export const SIMULATOR_SOURCE_NAME = 'simulator';

const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
const BPS = 10_000n;
const MINUTES_PER_DAY = 1_440;
const MS_PER_HOUR = 3_600_000;
/** The simulated past day a coin starts with, in hourly steps. */
const PREFILL_HOURS = 24;
/** A single step never moves a price by more than this (20 %), so a price can never reach zero. */
const MAX_STEP_BPS = 2_000;
/** A shock is cut at this many standard deviations: fat enough tails, no absurd jumps. */
const MAX_SHOCK_SIGMAS = 4;
/** Stable coins: the deviation from 1 in basis points stays within ±10 bp (0.1 %). */
const STABLE_MAX_DEVIATION_BPS = 10;
/** Prices drift freely inside [reference / 4, reference × 4]; beyond it the walk turns back. */
const DRIFT_BOUND_FACTOR = 4n;

/** Daily volatility by coin type, in basis points (one standard deviation of a day's move). */
export const DAILY_VOLATILITY_BPS: Record<CoinType, number> = {
  stable: 0,
  major: 300,
  layer2: 450,
  defi: 450,
  altcoin: 500,
  meme: 800,
};

/** Typical 24 h USD volume by coin type (whole dollars), with the two giants named. */
const DAILY_VOLUME_USD: Record<CoinType, bigint> = {
  stable: 2_000_000_000n,
  major: 400_000_000n,
  layer2: 200_000_000n,
  defi: 120_000_000n,
  altcoin: 80_000_000n,
  meme: 300_000_000n,
};
const DAILY_VOLUME_USD_BY_SYMBOL: Record<string, bigint> = {
  BTC: 25_000_000_000n,
  ETH: 12_000_000_000n,
  USDT: 40_000_000_000n,
  USDC: 6_000_000_000n,
};

// ---------------------------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------------------------

/** FNV-1a 32-bit hash of a text: turns (seed, symbol, purpose) into a PRNG seed. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** mulberry32: a tiny 32-bit PRNG, uniform in [0, 1). Deterministic for a seed. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** Standard normal draw (Box-Muller), cut at ±MAX_SHOCK_SIGMAS. */
  gaussian(): number {
    const u = Math.max(this.next(), Number.EPSILON);
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(-MAX_SHOCK_SIGMAS, Math.min(MAX_SHOCK_SIGMAS, z));
  }
  /** Integer in [low, high]. */
  integer(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }
}

/** A float shock becomes a bounded integer number of basis points here, and only here. */
export function shockBps(random: Random, sigmaBps: number, maxBps = MAX_STEP_BPS): number {
  const bps = Math.round(random.gaussian() * sigmaBps);
  return Math.max(-maxBps, Math.min(maxBps, bps));
}

/** One standard deviation in basis points for a step of stepMs, from the daily volatility. */
export function stepSigmaBps(type: CoinType, stepMs: number): number {
  return DAILY_VOLATILITY_BPS[type] * Math.sqrt(stepMs / MS_PER_DAY);
}

// ---------------------------------------------------------------------------------------------
// Exact price steps
// ---------------------------------------------------------------------------------------------

/** units × (10000 + bps) / 10000, rounded half-even, never below one unit. */
export function applyMoveBps(units: bigint, bps: number): bigint {
  const numerator = units * (BPS + BigInt(bps));
  let quotient = numerator / BPS;
  const remainder = numerator % BPS;
  if (remainder * 2n > BPS || (remainder * 2n === BPS && quotient % 2n === 1n)) quotient += 1n;
  return quotient < 1n ? 1n : quotient;
}

/** The coin's simulation parameters: its type and the scale of its USD price. */
export type CoinModel = {
  symbol: string;
  type: CoinType;
  /** Decimal places of the USD price (the USD pair's price precision). */
  scale: number;
  /** Decimal places of a base-currency quantity (the pairs' quantity precision). */
  quantityScale: number;
  referenceUnits: bigint;
};

export function coinModel(symbol: string, referencePrice = REFERENCE_PRICES_USD[symbol]): CoinModel {
  invariant(referencePrice !== undefined, `No reference price for ${symbol}`);
  const magnitude = decimalMagnitude(referencePrice);
  const scale = pricePrecisionForMagnitude(magnitude);
  return {
    symbol,
    type: COIN_TYPE_BY_SYMBOL[symbol] ?? 'altcoin',
    scale,
    quantityScale: quantityPrecisionForMagnitude(magnitude),
    referenceUnits: toScale(decimal(referencePrice), scale, 'half_even').units,
  };
}

/**
 * The next price of a walk. Stable coins follow a mean-reverting walk of whole basis points
 * around 1 (never more than 0.1 % away); the others a bounded multiplicative walk that turns back
 * when it strays beyond DRIFT_BOUND_FACTOR of the reference.
 */
export function nextUnits(model: CoinModel, units: bigint, random: Random, sigmaBps: number): bigint {
  if (model.type === 'stable') {
    const one = 10n ** BigInt(model.scale);
    const unitsPerBp = one / BPS;
    const deviation = Number((units - one) / (unitsPerBp === 0n ? 1n : unitsPerBp));
    const reverted = Math.trunc((deviation * 9) / 10);
    const shock = shockBps(random, 1, 3);
    const next = Math.max(-STABLE_MAX_DEVIATION_BPS, Math.min(STABLE_MAX_DEVIATION_BPS, reverted + shock));
    return one + BigInt(next) * unitsPerBp;
  }
  let bps = shockBps(random, sigmaBps);
  if (units > model.referenceUnits * DRIFT_BOUND_FACTOR && bps > 0) bps = -bps;
  if (units * DRIFT_BOUND_FACTOR < model.referenceUnits && bps < 0) bps = -bps;
  return applyMoveBps(units, bps);
}

/** A candle of one coin in USD, exact units at the coin's scales. */
export type UnitCandle = {
  openTimeMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  /** Base-currency volume at the coin's quantity scale. */
  volume: bigint;
};

/** Base-currency volume of a step: a random share (50-150 %) of the typical USD volume, at the price. */
export function stepVolumeUnits(model: CoinModel, priceUnits: bigint, stepMs: number, random: Random): bigint {
  const dailyUsd = DAILY_VOLUME_USD_BY_SYMBOL[model.symbol] ?? DAILY_VOLUME_USD[model.type];
  const percent = BigInt(random.integer(50, 150));
  // usd = dailyUsd × stepMs / day × percent / 100, then / price -> base units at quantityScale.
  const numerator = dailyUsd * BigInt(stepMs) * percent * 10n ** BigInt(model.scale + model.quantityScale);
  const denominator = priceUnits * BigInt(MS_PER_DAY) * 100n;
  return (numerator + denominator / 2n) / denominator;
}

/**
 * A walk of `count` candles of stepMs going back in time: the last candle closes at endUnits and
 * opens at `firstOpenTimeMs + (count - 1) × stepMs`. Returned oldest first. Each candle's close is
 * the next one's open, and the wicks stay around the body.
 */
export function walkBackward(
  model: CoinModel,
  options: { endUnits: bigint; count: number; stepMs: number; lastOpenTimeMs: number; random: Random },
): UnitCandle[] {
  const { count, stepMs, random } = options;
  const sigma = stepSigmaBps(model.type, stepMs);
  const candles: UnitCandle[] = new Array(count);
  let close = options.endUnits;
  for (let index = count - 1; index >= 0; index--) {
    const open = nextUnits(model, close, random, sigma);
    const top = open > close ? open : close;
    const bottom = open < close ? open : close;
    const wick = Math.abs(shockBps(random, model.type === 'stable' ? 0 : sigma / 2, MAX_STEP_BPS / 4));
    let high = applyMoveBps(top, wick);
    let low = applyMoveBps(
      bottom,
      -Math.abs(shockBps(random, model.type === 'stable' ? 0 : sigma / 2, MAX_STEP_BPS / 4)),
    );
    if (model.type === 'stable') {
      high = top;
      low = bottom;
    }
    candles[index] = {
      openTimeMs: options.lastOpenTimeMs - (count - 1 - index) * stepMs,
      open,
      high,
      low,
      close,
      volume: stepVolumeUnits(model, close, stepMs, random),
    };
    close = open;
  }
  return candles;
}

export const formatUnits = (units: bigint, scale: number): string => formatDecimal({ units, scale });

// ---------------------------------------------------------------------------------------------
// The live simulator
// ---------------------------------------------------------------------------------------------

/** setInterval and clearInterval, injectable so tests drive ticks by hand. */
export type Timer = {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
};

const realTimer: Timer = {
  setInterval: (callback, ms) => {
    const handle = setInterval(callback, ms);
    // A price feed never keeps a process (or a test run) alive by itself.
    handle.unref();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export type SimulatorOptions = {
  seed: string;
  tickMs: number;
  now: () => Date;
  timer?: Timer;
  /** Override of the reference prices (symbol -> USD decimal string); defaults to the catalogue's. */
  referencePrices?: Readonly<Record<string, string>>;
};

type MinuteBucket = { minute: number; open: bigint; high: bigint; low: bigint; volume: bigint; volumeUsd: bigint };

/** Volume in USD is kept in cents. */
const USD_VOLUME_SCALE = 2;

class CoinWalk {
  readonly random: Random;
  private readonly sigma: number;
  units: bigint;
  private readonly buckets: MinuteBucket[] = [];
  private volumeUsdSum = 0n;
  private high24h = 0n;
  private low24h = 0n;
  private updatedAt: Date;

  constructor(
    readonly model: CoinModel,
    seed: string,
    tickMs: number,
    now: Date,
  ) {
    this.random = new Random(hashSeed(`${seed}:${model.symbol}:live`));
    this.sigma = stepSigmaBps(model.type, tickMs);
    this.units = model.referenceUnits;
    this.updatedAt = now;
    // The last 24 h come from a backward walk ending at the start price, so the very first quote
    // already carries a day's change, range and volume.
    // Hour-long buckets are enough for the day's figures and cost a sixtieth of minute ones.
    const currentMinute = Math.floor(now.getTime() / MS_PER_MINUTE);
    const history = walkBackward(model, {
      endUnits: this.units,
      count: PREFILL_HOURS,
      stepMs: MS_PER_HOUR,
      lastOpenTimeMs: (currentMinute - 1) * MS_PER_MINUTE,
      random: new Random(hashSeed(`${seed}:${model.symbol}:day`)),
    });
    for (const candle of history) this.pushBucket({ minute: candle.openTimeMs / MS_PER_MINUTE, ...candle });
    this.recomputeRange();
  }

  /** High and low over the window, recomputed only when a bucket leaves it (once a minute). */
  private recomputeRange(): void {
    let high = this.units;
    let low = this.units;
    for (const bucket of this.buckets) {
      if (bucket.high > high) high = bucket.high;
      if (bucket.low < low) low = bucket.low;
    }
    this.high24h = high;
    this.low24h = low;
  }

  private usdOf(volume: bigint, price: bigint): bigint {
    const shift = this.model.quantityScale + this.model.scale - USD_VOLUME_SCALE;
    return (volume * price) / 10n ** BigInt(shift);
  }

  private pushBucket(bucket: Omit<MinuteBucket, 'volumeUsd'>): void {
    const volumeUsd = this.usdOf(bucket.volume, bucket.open);
    this.buckets.push({ ...bucket, volumeUsd });
    this.volumeUsdSum += volumeUsd;
  }

  private evictBefore(minute: number): boolean {
    let evicted = false;
    while (this.buckets.length > 0 && (this.buckets[0]?.minute ?? minute) <= minute - MINUTES_PER_DAY) {
      const dropped = this.buckets.shift();
      if (dropped) this.volumeUsdSum -= dropped.volumeUsd;
      evicted = true;
    }
    return evicted;
  }

  step(now: Date): void {
    this.moveTo(nextUnits(this.model, this.units, this.random, this.sigma), now);
  }

  /** An operator's shock: the price moves by bps at once, then walks on from there. */
  shock(now: Date, bps: number): void {
    this.moveTo(applyMoveBps(this.units, bps), now);
  }

  private moveTo(units: bigint, now: Date): void {
    this.units = units;
    this.updatedAt = now;
    const minute = Math.floor(now.getTime() / MS_PER_MINUTE);
    const last = this.buckets[this.buckets.length - 1];
    if (this.units > this.high24h) this.high24h = this.units;
    if (this.units < this.low24h) this.low24h = this.units;
    if (last && last.minute === minute) {
      if (this.units > last.high) last.high = this.units;
      if (this.units < last.low) last.low = this.units;
      return;
    }
    this.pushBucket({
      minute,
      open: this.units,
      high: this.units,
      low: this.units,
      volume: stepVolumeUnits(this.model, this.units, MS_PER_MINUTE, this.random),
    });
    if (this.evictBefore(minute)) this.recomputeRange();
  }

  quote(): PriceQuote {
    const { scale } = this.model;
    const open = this.buckets[0]?.open ?? this.units;
    const changePercent = div({ units: (this.units - open) * 100n, scale }, { units: open, scale }, 2, 'half_even');
    return {
      symbol: this.model.symbol,
      priceUsd: formatUnits(this.units, scale),
      changePercent24h: formatDecimal(changePercent),
      volume24hUsd: formatUnits(this.volumeUsdSum, USD_VOLUME_SCALE),
      high24hUsd: formatUnits(this.high24h, scale),
      low24hUsd: formatUnits(this.low24h, scale),
      marketCapUsd: marketCapUsd(this.model.symbol, { units: this.units, scale }),
      timestamp: this.updatedAt,
      source: SIMULATOR_SOURCE_NAME,
    };
  }
}

/** Price x circulating supply, in whole dollars; null for a coin with no supply on record. */
function marketCapUsd(symbol: string, price: { units: bigint; scale: number }): string | null {
  const supply = CIRCULATING_SUPPLY[symbol];
  return supply === undefined ? null : formatDecimal(mulToScale(price, decimal(supply), 0, 'half_even'));
}

export class SimulatorPriceSource implements PriceSource {
  readonly name = SIMULATOR_SOURCE_NAME;
  private readonly walks = new Map<string, CoinWalk>();
  private readonly listeners = new Set<{ symbols: Set<string>; onQuote: (quote: PriceQuote) => void }>();
  private readonly timer: Timer;
  private handle: unknown = null;
  private lastTickAt: Date | null = null;

  constructor(private readonly options: SimulatorOptions) {
    this.timer = options.timer ?? realTimer;
  }

  /** The coin's walk, created on first use (so unknown symbols cost nothing). */
  private walk(symbol: string): CoinWalk | undefined {
    const existing = this.walks.get(symbol);
    if (existing) return existing;
    const reference = (this.options.referencePrices ?? REFERENCE_PRICES_USD)[symbol];
    if (reference === undefined) return undefined;
    const walk = new CoinWalk(coinModel(symbol, reference), this.options.seed, this.options.tickMs, this.options.now());
    this.walks.set(symbol, walk);
    return walk;
  }

  async getQuotes(symbols: readonly string[]): Promise<Map<string, PriceQuote>> {
    return this.quotesNow(symbols);
  }

  /** Synchronous form of getQuotes. */
  quotesNow(symbols: readonly string[]): Map<string, PriceQuote> {
    const quotes = new Map<string, PriceQuote>();
    for (const symbol of symbols) {
      const walk = this.walk(symbol);
      if (walk) quotes.set(symbol, walk.quote());
    }
    return quotes;
  }

  subscribe(symbols: readonly string[], onQuote: (quote: PriceQuote) => void): () => void {
    for (const symbol of symbols) this.walk(symbol);
    const listener = { symbols: new Set(symbols), onQuote };
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Moves one coin's simulated price by `bps` basis points at once (an operator's stress test of a
   * sandbox venue: a crash or a squeeze), and tells subscribers. null for a coin it does not know.
   */
  shock(symbol: string, bps: number): PriceQuote | null {
    const walk = this.walk(symbol);
    if (walk === undefined) return null;
    walk.shock(this.options.now(), bps);
    const quote = walk.quote();
    for (const listener of this.listeners) if (listener.symbols.has(symbol)) listener.onQuote(quote);
    return quote;
  }

  /** One tick: every known coin moves one step, and subscribers get the new quotes. */
  tick(): void {
    const now = this.options.now();
    this.lastTickAt = now;
    for (const walk of this.walks.values()) walk.step(now);
    for (const listener of this.listeners) {
      for (const symbol of listener.symbols) {
        const walk = this.walks.get(symbol);
        if (walk) listener.onQuote(walk.quote());
      }
    }
  }

  start(): void {
    if (this.handle !== null) return;
    this.handle = this.timer.setInterval(() => this.tick(), this.options.tickMs);
  }

  stop(): void {
    if (this.handle === null) return;
    this.timer.clearInterval(this.handle);
    this.handle = null;
  }

  get running(): boolean {
    return this.handle !== null;
  }

  health(): PriceSourceHealth {
    return { name: this.name, ok: true, lastError: null, lastSuccessAt: this.lastTickAt ?? this.options.now() };
  }

  async close(): Promise<void> {
    this.stop();
    this.listeners.clear();
  }
}
