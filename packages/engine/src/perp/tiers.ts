import { RATE_SCALE, type RiskTier } from './api.ts';
import { divCeil } from './rounding.ts';

export interface TierRow {
  cap: bigint;
  maxLeverage: number;
  mmr: bigint;
}

function checkRow(row: TierRow, previous: TierRow | undefined): void {
  if (row.cap <= (previous?.cap ?? 0n)) throw new Error('tier caps must be positive and strictly ascending');
  if (!Number.isInteger(row.maxLeverage) || row.maxLeverage < 1)
    throw new Error('a tier max leverage is a whole number >= 1');
  if (previous !== undefined && row.maxLeverage > previous.maxLeverage) {
    throw new Error('a larger tier cannot allow a higher leverage');
  }
  if (row.mmr <= 0n || row.mmr >= RATE_SCALE)
    throw new Error('a maintenance margin rate is between 0 and 1 (exclusive)');
  if (previous !== undefined && row.mmr < previous.mmr)
    throw new Error('a larger tier cannot have a lower maintenance rate');
}

/**
 * Tier rows as configured (cap in money, mmr in RATE_SCALE), ascending caps; floors and cum derived:
 * floor_n = cap_n-1 (0 for the first), cum_n = floor_n x (mmr_n - mmr_n-1) + cum_n-1. Throws on a
 * malformed table (caps not ascending, leverage rising or mmr falling with size, mmr outside (0, 1)),
 * and when a floor x mmr step is not a whole money amount: cum is then exact and the maintenance
 * margin is continuous at every boundary, so a boundary notional has the same MM in either tier.
 */
export function buildTiers(rows: readonly TierRow[]): RiskTier[] {
  if (rows.length === 0) throw new Error('a tier table needs at least one tier');
  const tiers: RiskTier[] = [];
  let previous: TierRow | undefined;
  let cum = 0n;
  for (const [index, row] of rows.entries()) {
    checkRow(row, previous);
    const floor = previous?.cap ?? 0n;
    const step = floor * (row.mmr - (previous?.mmr ?? row.mmr));
    if (step % RATE_SCALE !== 0n) throw new Error(`tier ${index + 1}: floor x mmr step is finer than the money unit`);
    cum += step / RATE_SCALE; // exact (checked just above)
    tiers.push({ tier: index + 1, floor, cap: row.cap, maxLeverage: row.maxLeverage, mmr: row.mmr, cum });
    previous = row;
  }
  return tiers;
}

/** The tier a notional falls in (floor <= N < cap; the last tier takes N up to and including its cap; beyond: the last tier). */
export function tierFor(tiers: readonly RiskTier[], notional: bigint): RiskTier {
  const last = tiers.length - 1;
  for (let index = 0; index < last; index++) {
    const tier = tiers[index]!;
    if (notional < tier.cap) return tier;
  }
  return tiers[last]!;
}

/** ceil(N x mmr / RATE_SCALE) - cum of N's tier, never below 0; 0 for N = 0. Rounded up: against the trader. */
export function maintenanceMargin(tiers: readonly RiskTier[], notional: bigint): bigint {
  if (notional <= 0n) return 0n;
  const tier = tierFor(tiers, notional);
  const margin = divCeil(notional * tier.mmr, RATE_SCALE) - tier.cum; // ceil: against the trader
  return margin > 0n ? margin : 0n;
}

/** ceil(N / leverage), leverage a whole number >= 1. Rounded up: against the trader. */
export function initialMargin(notional: bigint, leverage: number): bigint {
  if (!Number.isInteger(leverage) || leverage < 1) throw new Error('leverage is a whole number >= 1');
  return divCeil(notional, BigInt(leverage)); // ceil: against the trader
}

/** The highest leverage a position of this notional may use (its tier's max leverage). */
export function maxLeverageForNotional(tiers: readonly RiskTier[], notional: bigint): number {
  return tierFor(tiers, notional).maxLeverage;
}

/** The largest notional a position may reach at this leverage: the cap of the highest tier whose max leverage >= leverage. 0n if none. */
export function maxNotionalForLeverage(tiers: readonly RiskTier[], leverage: number): bigint {
  let cap = 0n;
  for (const tier of tiers) if (tier.maxLeverage >= leverage) cap = tier.cap;
  return cap;
}
