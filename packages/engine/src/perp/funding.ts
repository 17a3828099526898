import type { FundingPayment, PerpPosition, PerpSpec } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

/** Average fill price (ticks, rounded against the taker) of a market order of this notional on one side of the book; null when the book is too thin. */
export function impactPriceTicks(
  spec: PerpSpec,
  levels: readonly { priceTicks: number; lots: number }[],
  impactNotional: bigint,
): number | null {
  return todo();
}
/** Premium (RATE_SCALE) = [max(0, impactBid - index) - max(0, index - impactAsk)] / index; 0 when a side is missing. */
export function premiumRate(indexTicks: number, impactBidTicks: number | null, impactAskTicks: number | null): bigint {
  return todo();
}
/** Time-weighted premium average over a funding interval: Σ i·P_i / Σ i (linearly increasing weights). */
export class PremiumAverage {
  add(premium: bigint): void {
    todo();
  }
  /** Rounded half away from zero, RATE_SCALE; 0 without samples. */
  average(): bigint {
    return todo();
  }
  count(): number {
    return todo();
  }
  reset(): void {
    todo();
  }
}
/** F = P + clamp(I - P, -0.05 %, +0.05 %), then clamped to +/- cap (all RATE_SCALE). */
export function fundingRate(averagePremium: bigint, interestRate: bigint, cap: bigint): bigint {
  return todo();
}
/**
 * One funding round: each position pays size x mark x rate (positive rate: longs pay, shorts
 * receive). Payers are charged ceil, receivers credited floor; the residual (>= 0, paid - received)
 * goes to the insurance fund, so the round's postings sum to exactly zero.
 */
export function fundingPayments(
  spec: PerpSpec,
  markTicks: number,
  rate: bigint,
  positions: readonly { id: string; position: PerpPosition }[],
): { payments: FundingPayment[]; residual: bigint } {
  return todo();
}
