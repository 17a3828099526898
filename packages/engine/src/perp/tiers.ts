import type { RiskTier } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

/** Tier rows as configured (cap in money, mmr in RATE_SCALE), ascending caps; floors and cum derived. Throws on a malformed table. */
export function buildTiers(rows: readonly { cap: bigint; maxLeverage: number; mmr: bigint }[]): RiskTier[] {
  return todo();
}
/** The tier a notional falls in (floor <= N < cap; the last tier takes N up to and including its cap; beyond: the last tier). */
export function tierFor(tiers: readonly RiskTier[], notional: bigint): RiskTier {
  return todo();
}
/** ceil(N x mmr / RATE_SCALE) - cum of N's tier, never below 0; 0 for N = 0. */
export function maintenanceMargin(tiers: readonly RiskTier[], notional: bigint): bigint {
  return todo();
}
/** ceil(N / leverage). */
export function initialMargin(notional: bigint, leverage: number): bigint {
  return todo();
}
/** The highest leverage a position of this notional may use (its tier's max leverage). */
export function maxLeverageForNotional(tiers: readonly RiskTier[], notional: bigint): number {
  return todo();
}
/** The largest notional a position may reach at this leverage: the cap of the highest tier whose max leverage >= leverage. 0n if none. */
export function maxNotionalForLeverage(tiers: readonly RiskTier[], leverage: number): bigint {
  return todo();
}
