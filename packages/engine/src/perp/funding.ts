import { type FundingPayment, type PerpPosition, type PerpSpec, RATE_SCALE } from './api.ts';
import { assertLots, assertPriceTicks, divRoundHalfAwayFromZero } from './pricing-units.ts';
import { divCeil, divFloor } from './rounding.ts';
import { unitsPerTickLot } from './units.ts';

/** The interest-minus-premium clamp of the funding formula: +/- 0.05 % (futures-maths.md §6). */
export const FUNDING_INTEREST_CLAMP_RATE = 50_000n;

interface BookLevel {
  priceTicks: number;
  lots: number;
}

/**
 * Average fill price (ticks, rounded against the taker) of a market order of this notional on one side of the book; null when the book is too thin.
 *
 * levels: one side of the book, best first (asks ascending for a buy, bids descending for a sell);
 * impactNotional: money units, > 0. The order takes whole levels while it can and the notional it
 * still needs from the next one (a fraction of a lot if need be, as the notional is the quantity),
 * so the exact average is impactNotional / (Σ full lots x u + remaining / p_last) with u the money of
 * a tick x lot. It is rounded against the taker: up when the levels ascend (a buy walking the asks),
 * down when they descend (a sell walking the bids); when every level taken has one price the
 * average is that price exactly. Levels in mixed order are a bug and throw.
 */
export function impactPriceTicks(spec: PerpSpec, levels: readonly BookLevel[], impactNotional: bigint): number | null {
  if (impactNotional <= 0n) throw new RangeError('impact notional must be positive');
  const unit = unitsPerTickLot(spec);
  let remaining = impactNotional;
  let filledLots = 0n;
  let direction = 0;
  let previous: number | null = null;
  for (const level of levels) {
    assertPriceTicks(level.priceTicks, 'level price');
    assertLots(level.lots, 'level lots');
    if (level.lots <= 0) throw new RangeError('a book level must hold a positive number of lots');
    if (previous !== null && level.priceTicks !== previous) {
      const step = Math.sign(level.priceTicks - previous);
      if (direction !== 0 && step !== direction) throw new RangeError('book levels must be sorted best first');
      direction = step;
    }
    previous = level.priceTicks;
    const price = BigInt(level.priceTicks);
    const levelNotional = BigInt(level.lots) * price * unit;
    if (levelNotional >= remaining) {
      const numerator = impactNotional * price;
      const denominator = filledLots * price * unit + remaining;
      const average = direction > 0 ? divCeil(numerator, denominator) : divFloor(numerator, denominator);
      return Number(average);
    }
    filledLots += BigInt(level.lots);
    remaining -= levelNotional;
  }
  return null;
}

/**
 * Premium (RATE_SCALE) = [max(0, impactBid - index) - max(0, index - impactAsk)] / index; 0 when a side is missing.
 * Rounded to the nearest 10^-8, halves away from zero (symmetric for longs and shorts).
 */
export function premiumRate(indexTicks: number, impactBidTicks: number | null, impactAskTicks: number | null): bigint {
  assertPriceTicks(indexTicks, 'index price');
  if (impactBidTicks === null || impactAskTicks === null) return 0n;
  assertPriceTicks(impactBidTicks, 'impact bid');
  assertPriceTicks(impactAskTicks, 'impact ask');
  const above = Math.max(0, impactBidTicks - indexTicks);
  const below = Math.max(0, indexTicks - impactAskTicks);
  return divRoundHalfAwayFromZero(BigInt(above - below) * RATE_SCALE, BigInt(indexTicks));
}

/**
 * Time-weighted premium average over a funding interval: Σ i·P_i / Σ i (linearly increasing weights).
 * The numerator is a bigint sum, Σ i = n(n+1)/2 is exact, and the one rounding is at the end. O(1) per add.
 */
export class PremiumAverage {
  private samples = 0;
  private weightedSum = 0n;

  add(premium: bigint): void {
    this.samples += 1;
    this.weightedSum += BigInt(this.samples) * premium;
  }
  /** Rounded half away from zero, RATE_SCALE; 0 without samples. */
  average(): bigint {
    if (this.samples === 0) return 0n;
    const n = BigInt(this.samples);
    return divRoundHalfAwayFromZero(this.weightedSum, (n * (n + 1n)) / 2n);
  }
  count(): number {
    return this.samples;
  }
  reset(): void {
    this.samples = 0;
    this.weightedSum = 0n;
  }
}

function clampRate(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value;
}

/**
 * F = P + clamp(I - P, -0.05 %, +0.05 %), then clamped to +/- cap (all RATE_SCALE). Exact (no division).
 * The interest rate and the cap are per funding interval: for an interval other than 8 h the caller
 * scales them (Binance divides the 8 h rate by 8/N for an N-hour interval).
 */
export function fundingRate(averagePremium: bigint, interestRate: bigint, cap: bigint): bigint {
  if (cap < 0n) throw new RangeError('funding rate cap must not be negative');
  const interestTerm = clampRate(
    interestRate - averagePremium,
    -FUNDING_INTEREST_CLAMP_RATE,
    FUNDING_INTEREST_CLAMP_RATE,
  );
  return clampRate(averagePremium + interestTerm, -cap, cap);
}

/**
 * One funding round: each position pays size x mark x rate (positive rate: longs pay, shorts
 * receive). Payers are charged ceil, receivers credited floor; the residual (>= 0, paid - received)
 * goes to the insurance fund, so the round's postings sum to exactly zero.
 *
 * The exact value of a position is v = size x mark x u x rate / RATE_SCALE money units (u = money
 * per tick x lot); its amount is ceil(v), which is ceil(v) for a payer and -floor(|v|) for a
 * receiver. positions must be every open position of the market, so their sizes sum to zero (an
 * invariant: a non-zero sum throws); then Σ v = 0 and residual = Σ amounts = Σ (ceil(v) - v) lies in
 * [0, number of positions whose v is not whole). One payment per input, in input order; an amount
 * is 0n for a flat position or a zero rate (the caller posts nothing for those). Trader wallets move by
 * -amount and the insurance fund by +residual: Σ(-amount) + residual = 0.
 */
export function fundingPayments(
  spec: PerpSpec,
  markTicks: number,
  rate: bigint,
  positions: readonly { id: string; position: PerpPosition }[],
): { payments: FundingPayment[]; residual: bigint } {
  assertPriceTicks(markTicks, 'mark price');
  const perLot = BigInt(markTicks) * unitsPerTickLot(spec) * rate;
  const payments: FundingPayment[] = [];
  let sizeSum = 0n;
  let residual = 0n;
  for (const { id, position } of positions) {
    assertLots(position.sizeLots, 'position size');
    const size = BigInt(position.sizeLots);
    sizeSum += size;
    const amount = divCeil(size * perLot, RATE_SCALE);
    payments.push({ id, amount });
    residual += amount;
  }
  if (sizeSum !== 0n) throw new RangeError(`funding positions must sum to zero lots, got ${sizeSum}`);
  return { payments, residual };
}

function assertInterval(intervalMs: number): void {
  if (!Number.isSafeInteger(intervalMs) || intervalMs <= 0) {
    throw new RangeError(`funding interval must be a positive integer of ms, got ${intervalMs}`);
  }
}

function assertTime(timeMs: number, what: string): void {
  if (!Number.isSafeInteger(timeMs) || timeMs < 0) throw new RangeError(`${what} must be a non-negative integer ms`);
}

/**
 * The next funding time strictly after nowMs: the next multiple of the interval since the epoch
 * (00:00, 08:00 and 16:00 UTC for 8 h). At an exact multiple it is the following one: the round at
 * nowMs itself is due now (fundingRoundsDue), not pending.
 */
export function nextFundingTime(nowMs: number, intervalMs: number): number {
  assertInterval(intervalMs);
  assertTime(nowMs, 'now');
  return (Math.floor(nowMs / intervalMs) + 1) * intervalMs;
}

/** How many skipped round times fundingRoundsDue lists (the count is always exact): a log line, not a backlog. */
export const MAX_LISTED_SKIPPED_ROUNDS = 100;

export interface FundingRoundsDue {
  /** The round to pay now: the latest funding time in (lastRoundMs, nowMs]; null when none is due. */
  payMs: number | null;
  /** Earlier due round times that are not paid, oldest first, at most MAX_LISTED_SKIPPED_ROUNDS. */
  skippedMs: number[];
  skippedCount: number;
}

/**
 * The funding times in (lastRoundMs, nowMs], for catching up after downtime. Only the latest due
 * round is paid; the earlier ones that were missed are skipped (and should be logged with
 * skippedMs/skippedCount), never back-charged: exchanges do not charge funding for rounds in which
 * positions could not trade or be managed, and charging several rounds at once at today's mark
 * would not be the funding those rounds would have had. lastRoundMs is the time of the last round
 * paid, or the time the market opened when none has been.
 */
export function fundingRoundsDue(lastRoundMs: number, nowMs: number, intervalMs: number): FundingRoundsDue {
  assertTime(lastRoundMs, 'last round');
  const first = nextFundingTime(lastRoundMs, intervalMs);
  assertTime(nowMs, 'now');
  if (first > nowMs) return { payMs: null, skippedMs: [], skippedCount: 0 };
  const latest = Math.floor(nowMs / intervalMs) * intervalMs;
  const skippedCount = (latest - first) / intervalMs;
  const skippedMs: number[] = [];
  for (let index = 0; index < Math.min(skippedCount, MAX_LISTED_SKIPPED_ROUNDS); index += 1) {
    skippedMs.push(first + index * intervalMs);
  }
  return { payMs: latest, skippedMs, skippedCount };
}
