import type { PerpPosition, PerpSpec, RiskTier, ScanEntry } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

export interface LiquidationPriceInput {
  spec: PerpSpec;
  tiers: readonly RiskTier[];
  position: PerpPosition;
  /**
   * The collateral backing the position (money): its isolated margin, or for cross
   * WB' = cross wallet - other positions' maintenance + other positions' unrealised P&L.
   */
  collateral: bigint;
}
/**
 * The mark price (ticks) at which collateral + P&L = maintenance margin, with the tier re-checked
 * at that price (futures-maths.md §3), rounded towards the position's entry side (long: up, short:
 * down). null for a flat position or a long that the price cannot liquidate (LP <= 0).
 */
export function liquidationPriceTicks(input: LiquidationPriceInput): number | null {
  return todo();
}
/** The price (ticks) at which collateral + P&L = 0: long rounded up, short rounded down; null when flat or <= 0. */
export function bankruptcyPriceTicks(spec: PerpSpec, position: PerpPosition, collateral: bigint): number | null {
  return todo();
}
/**
 * Partial liquidation by tier: the lots to close so that the rest falls in a lower tier and is safe
 * (collateral + P&L > maintenance at the mark, after the close at mark); all of it when no smaller
 * reduction suffices or the position is in the first tier.
 */
export function liquidationCloseLots(
  spec: PerpSpec,
  tiers: readonly RiskTier[],
  position: PerpPosition,
  collateral: bigint,
  markTicks: number,
): number {
  return todo();
}
/**
 * Finds, among many positions of one market, those under maintenance at this mark: collateral +
 * P&L <= maintenance margin. Exact (not through liquidation prices). Returns the entries' ids.
 */
export function findLiquidatable(
  spec: PerpSpec,
  tiers: readonly RiskTier[],
  markTicks: number,
  entries: readonly ScanEntry[],
): number[] {
  return todo();
}
