import { RATE_SCALE } from './api.ts';
import { assertPriceTicks } from './pricing-units.ts';

/**
 * The index: the median of the sources' prices (ticks); for an even count the mean of the two middle
 * ones rounded half up; null for none. A median ignores one wild source among three or more, which a
 * mean would not. Every price must be a positive integer number of ticks (a source without a price is
 * left out by the caller, not passed as 0).
 */
export function indexPriceTicks(sourcePrices: readonly number[]): number | null {
  if (sourcePrices.length === 0) return null;
  for (const price of sourcePrices) assertPriceTicks(price, 'source price');
  const sorted = [...sourcePrices].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle]!;
  if (sorted.length % 2 === 1) return upper;
  const lower = sorted[middle - 1]!;
  // lower + ceil((upper - lower) / 2) is (lower + upper) / 2 rounded half up, without an overflowing sum.
  return lower + Math.ceil((upper - lower) / 2);
}

export interface MarkPriceOptions {
  /** Basis samples kept for the moving average (one per sample() call). */
  window: number;
  /** The mark never strays more than this from the index (RATE_SCALE, e.g. 0.5 % = 500_000n). */
  maxBasisRate: bigint;
}

/** The largest basis (ticks) allowed at this index: floor(index x maxBasisRate), so the band never exceeds the rate. */
function basisBandTicks(indexTicks: number, maxBasisRate: bigint): bigint {
  return (BigInt(indexTicks) * maxBasisRate) / RATE_SCALE;
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value;
}

/** a / b (b > 0) to the nearest integer, halves towards zero: a tie leaves the mark nearer the index. */
function divRoundHalfTowardZero(a: bigint, b: bigint): bigint {
  const magnitude = (2n * (a < 0n ? -a : a) + b - 1n) / (2n * b);
  return a < 0n ? -magnitude : magnitude;
}

/**
 * Mark = index + moving average of (book mid - index), clamped to +/- maxBasisRate of the index.
 * A sample without a two-sided book counts a basis of 0, so an empty or one-sided book pulls the
 * mark to the index; one trade cannot move it (the book's mid, not the last price).
 *
 * Exactness: a basis is kept in half ticks (bid + ask - 2 x index), so a mid between two ticks is
 * exact, and the sum of the window is a bigint. Defences, each with its bound:
 * - each sample's basis is clamped to the band of its own index (floor(index x maxBasisRate) ticks)
 *   before it enters the average, so one sample, however far its mid, moves the unrounded average by
 *   at most (its basis - the basis it replaces) / window <= 2 x band / window ticks (band / window from
 *   a window at the index); the mark moves by that plus at most one tick of rounding;
 * - the average is rounded to the nearest tick, halves towards the index, and the result is clamped
 *   again to the band of the latest index (the index may have moved since the older samples).
 * A crossed or locked book (bid >= ask) is not a market and counts as no book (basis 0).
 * Before the window is full the average is over the samples so far. O(1) per sample.
 */
export class MarkPriceTracker {
  private readonly basisHalfTicks: bigint[] = [];
  private next = 0;
  private sumHalfTicks = 0n;
  private latestIndexTicks: number | null = null;

  constructor(readonly options: MarkPriceOptions) {
    if (!Number.isSafeInteger(options.window) || options.window < 1) {
      throw new RangeError(`mark price window must be a positive integer, got ${options.window}`);
    }
    // Below 100 %, so the band is under the index and the mark stays a positive price.
    if (options.maxBasisRate < 0n || options.maxBasisRate >= RATE_SCALE) {
      throw new RangeError('maxBasisRate must be in [0, RATE_SCALE)');
    }
  }

  sample(indexTicks: number, bestBidTicks: number | null, bestAskTicks: number | null): void {
    assertPriceTicks(indexTicks, 'index price');
    if (bestBidTicks !== null) assertPriceTicks(bestBidTicks, 'best bid');
    if (bestAskTicks !== null) assertPriceTicks(bestAskTicks, 'best ask');
    const twoSided = bestBidTicks !== null && bestAskTicks !== null && bestBidTicks < bestAskTicks;
    const raw = twoSided ? BigInt(bestBidTicks) + BigInt(bestAskTicks) - 2n * BigInt(indexTicks) : 0n;
    const bandHalfTicks = 2n * basisBandTicks(indexTicks, this.options.maxBasisRate);
    const basis = clamp(raw, -bandHalfTicks, bandHalfTicks);
    if (this.basisHalfTicks.length < this.options.window) {
      this.basisHalfTicks.push(basis);
    } else {
      this.sumHalfTicks -= this.basisHalfTicks[this.next]!;
      this.basisHalfTicks[this.next] = basis;
      this.next = (this.next + 1) % this.options.window;
    }
    this.sumHalfTicks += basis;
    this.latestIndexTicks = indexTicks;
  }

  /** null before the first sample. */
  markTicks(): number | null {
    if (this.latestIndexTicks === null) return null;
    const count = BigInt(this.basisHalfTicks.length);
    const average = divRoundHalfTowardZero(this.sumHalfTicks, 2n * count);
    const band = basisBandTicks(this.latestIndexTicks, this.options.maxBasisRate);
    return this.latestIndexTicks + Number(clamp(average, -band, band));
  }

  /** The index of the latest sample; null before the first. */
  indexTicks(): number | null {
    return this.latestIndexTicks;
  }

  /** Samples in the average (at most window). */
  sampleCount(): number {
    return this.basisHalfTicks.length;
  }
}
