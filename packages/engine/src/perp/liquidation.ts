import { type PerpPosition, type PerpSpec, RATE_SCALE, type RiskTier, type ScanEntry } from './api.ts';
import { divCeil, divFloor } from './rounding.ts';
import { maintenanceMargin, tierFor } from './tiers.ts';
import { unitsPerTickLot } from './units.ts';

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

const MAX_TICKS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The maintenance rule, exactly: collateral + P&L at the mark <= maintenance margin at the mark
 * (Binance's margin ratio MM / MB >= 100 %). Shared by every liquidation function here.
 */
export function liquidatableAt(
  spec: PerpSpec,
  tiers: readonly RiskTier[],
  position: PerpPosition,
  collateral: bigint,
  markTicks: number,
): boolean {
  const size = position.sizeLots;
  if (size === 0) return false;
  const units = unitsPerTickLot(spec);
  const value = BigInt(size) * BigInt(markTicks);
  const pnl = size > 0 ? value - position.costTickLots : value + position.costTickLots;
  const notional = (size > 0 ? value : -value) * units;
  return collateral + pnl * units <= maintenanceMargin(tiers, notional);
}

/** The ticks whose notional (lots x ticks x units) falls in a tier: [low, high], high null for the last tier. */
function tierTickRange(tier: RiskTier, last: boolean, perTick: bigint): { low: bigint; high: bigint | null } {
  // low: the first tick with notional >= floor (ceil); high: the last tick with notional < cap (ceil - 1).
  return { low: divCeil(tier.floor, perTick), high: last ? null : divCeil(tier.cap, perTick) - 1n };
}

/** Long: the largest tick in the tier's range at which the rule holds, or null. */
function longCandidate(tier: RiskTier, last: boolean, units: bigint, lots: bigint, cost: bigint, collateral: bigint) {
  // Liquidatable (tier fixed) <=> S(W + u(qP - C) + cum - 1) < u q P mmr  <=>  P B < A:
  const a = RATE_SCALE * (units * cost - collateral - tier.cum + 1n);
  const b = units * lots * (RATE_SCALE - tier.mmr);
  const range = tierTickRange(tier, last, units * lots);
  let price = divFloor(a - 1n, b); // the largest P with P B < A (floor: the last liquidatable tick)
  if (range.high !== null && price > range.high) price = range.high;
  return price >= range.low && price >= 1n ? price : null;
}

/** Short: the smallest tick in the tier's range at which the rule holds, or null. */
function shortCandidate(tier: RiskTier, last: boolean, units: bigint, lots: bigint, cost: bigint, collateral: bigint) {
  // Liquidatable (tier fixed) <=> S(W + u(C - qP) + cum - 1) < u q P mmr  <=>  P B > A:
  const a = RATE_SCALE * (collateral + units * cost + tier.cum - 1n);
  const b = units * lots * (RATE_SCALE + tier.mmr);
  const range = tierTickRange(tier, last, units * lots);
  let price = divFloor(a, b) + 1n; // the smallest P with P B > A (floor + 1: the first liquidatable tick)
  if (price < range.low) price = range.low;
  if (price < 1n) price = 1n;
  return range.high === null || price <= range.high ? price : null;
}

/**
 * The mark price (ticks) at which the position becomes liquidatable under the exact rule
 * (collateral + P&L <= maintenance margin, the MM of the notional at that price: the tier is
 * re-checked at the liquidation price, futures-maths.md §3): the first tick, coming from the safe
 * side, at which the rule holds. So at LP the position is liquidatable and one tick on the safe side
 * (long: LP + 1, short: LP - 1) it is not; versus the exact rational root this is rounded away from
 * the mark (long: down, short: up), because the trigger is the integer inequality, not the price.
 * Solved per tier in closed form (the rule is monotone in the price: MM grows slower than P&L).
 * null for a flat position, a long that no positive price liquidates, or a short whose LP is beyond
 * the largest safe integer. A short already liquidatable at every price returns 1, a long
 * liquidatable at every safe-integer price Number.MAX_SAFE_INTEGER (both: liquidatable now).
 */
export function liquidationPriceTicks(input: LiquidationPriceInput): number | null {
  const size = input.position.sizeLots;
  if (size === 0) return null;
  const solve: Solver = {
    tiers: input.tiers,
    units: unitsPerTickLot(input.spec),
    lots: BigInt(Math.abs(size)),
    cost: input.position.costTickLots,
    collateral: input.collateral,
  };
  const best = size > 0 ? (walkLong(solve) ?? scanAll(solve, true)) : (walkShort(solve) ?? scanAll(solve, false));
  if (best === null) return null;
  if (best > MAX_TICKS) return size > 0 ? Number.MAX_SAFE_INTEGER : null;
  return Number(best);
}

interface Solver {
  tiers: readonly RiskTier[];
  units: bigint;
  lots: bigint;
  cost: bigint;
  collateral: bigint;
}

function candidate(solve: Solver, index: number, long: boolean): bigint | null {
  const { tiers, units, lots, cost, collateral } = solve;
  const last = index === tiers.length - 1;
  return long
    ? longCandidate(tiers[index]!, last, units, lots, cost, collateral)
    : shortCandidate(tiers[index]!, last, units, lots, cost, collateral);
}

/** Every tier: the largest long candidate, the smallest short one. */
function scanAll(solve: Solver, long: boolean): bigint | null {
  let best: bigint | null = null;
  for (let index = 0; index < solve.tiers.length; index++) {
    const price = candidate(solve, index, long);
    if (price !== null && (best === null || (long ? price > best : price < best))) best = price;
  }
  return best;
}

/** The index of the tier holding the notional at this price (0 for a price <= 0). */
function tierIndexAt(solve: Solver, price: bigint): number {
  if (price <= 0n) return 0;
  return tierFor(solve.tiers, price * solve.units * solve.lots).tier - 1;
}

/** Whether no tick's notional falls in the tier (a tick step wider than the tier). */
function emptyTier(solve: Solver, index: number): boolean {
  if (index === solve.tiers.length - 1) return false;
  const range = tierTickRange(solve.tiers[index]!, false, solve.units * solve.lots);
  return range.high !== null && range.high < range.low;
}

/**
 * A shortcut for the usual case: the rule is monotone in the price, so the liquidatable ticks of a
 * long are those <= LP and every tier below LP's tier has a candidate, every tier above none. LP is
 * at or above the bankruptcy price (within a tick of rounding), so start one tier below BP's tier and
 * walk up while tiers have a candidate. null when the start tier has none (the full scan decides).
 */
function walkLong(solve: Solver): bigint | null {
  const bp = divCeil(solve.units * solve.cost - solve.collateral, solve.units * solve.lots);
  let best: bigint | null = null;
  for (let index = Math.max(0, tierIndexAt(solve, bp) - 1); index < solve.tiers.length; index++) {
    if (emptyTier(solve, index)) continue;
    const price = candidate(solve, index, true);
    if (price === null) return best;
    best = price;
  }
  return best;
}

/** The same for a short, whose liquidatable ticks are those >= LP, LP at or below BP: walk down from one tier above BP's. */
function walkShort(solve: Solver): bigint | null {
  const bp = divFloor(solve.collateral + solve.units * solve.cost, solve.units * solve.lots);
  let best: bigint | null = null;
  for (let index = Math.min(solve.tiers.length - 1, tierIndexAt(solve, bp) + 1); index >= 0; index--) {
    if (emptyTier(solve, index)) continue;
    const price = candidate(solve, index, false);
    if (price === null) return best;
    best = price;
  }
  return best;
}

/**
 * The price (ticks) at which collateral + P&L = 0: long rounded up, short rounded down, so closing
 * at it leaves collateral + P&L >= 0 and one tick worse < 0 (closing there never needs the insurance
 * fund). null when flat, when it is <= 0 (a long that no positive price bankrupts, a short already
 * bankrupt at every price) or beyond the largest safe integer.
 */
export function bankruptcyPriceTicks(spec: PerpSpec, position: PerpPosition, collateral: bigint): number | null {
  const size = position.sizeLots;
  if (size === 0) return null;
  const units = unitsPerTickLot(spec);
  const perTick = units * BigInt(Math.abs(size));
  const price =
    size > 0
      ? divCeil(units * position.costTickLots - collateral, perTick) // long: W + u(qP - C) >= 0, ceil
      : divFloor(collateral + units * position.costTickLots, perTick); // short: W + u(C - qP) >= 0, floor
  return price <= 0n || price > MAX_TICKS ? null : Number(price);
}

/**
 * Partial liquidation by tier: the lots to close (at the mark) so that the rest's notional is at
 * most the cap of a lower tier and the rest is safe: collateral + P&L > maintenance margin of the
 * rest at the mark (closing at the mark moves P&L from unrealised to realised, the sum is unchanged,
 * and the collateral is assumed to stay with the rest). Tries the next lower tier's cap first (the
 * smallest close), then lower ones; all of it when no smaller reduction suffices or the position is
 * in the first tier. A rest exactly at a cap belongs to the upper tier by tierFor, but its maintenance
 * margin is the same in both (continuity), so the safety test does not depend on the label.
 */
export function liquidationCloseLots(
  spec: PerpSpec,
  tiers: readonly RiskTier[],
  position: PerpPosition,
  collateral: bigint,
  markTicks: number,
): number {
  const held = Math.abs(position.sizeLots);
  if (held === 0) return 0;
  const units = unitsPerTickLot(spec);
  const perLot = units * BigInt(markTicks);
  const value = BigInt(position.sizeLots) * BigInt(markTicks);
  const pnl = position.sizeLots > 0 ? value - position.costTickLots : value + position.costTickLots;
  const equity = collateral + pnl * units;
  const current = tierFor(tiers, BigInt(held) * perLot).tier;
  for (let index = current - 2; index >= 0; index--) {
    const rest = divFloor(tiers[index]!.cap, perLot); // the most lots whose notional <= cap (floor)
    const restLots = rest < BigInt(held) ? Number(rest) : held - 1;
    if (restLots < 1) break;
    if (equity > maintenanceMargin(tiers, BigInt(restLots) * perLot)) return held - restLots;
  }
  return held;
}

/** A market's tiers prepared for scanning many positions at one mark: tier caps in tick-lot units, rates as bigint. */
export interface ScanTable {
  units: bigint;
  /** ceil(cap / units): a notional v x units (v whole tick-lots) is under the cap iff v < capTickLots. */
  capTickLots: bigint[];
  /** mmr x units, so that the rule compares with tick-lots x mmrUnits. */
  mmrUnits: bigint[];
  /** cum - 1, scaled by RATE_SCALE below. */
  cumMinusOne: bigint[];
}

export function scanTable(spec: PerpSpec, tiers: readonly RiskTier[]): ScanTable {
  const units = unitsPerTickLot(spec);
  return {
    units,
    capTickLots: tiers.map((tier) => divCeil(tier.cap, units)), // ceil: v x units < cap <=> v < ceil(cap / units)
    mmrUnits: tiers.map((tier) => tier.mmr * units),
    cumMinusOne: tiers.map((tier) => tier.cum - 1n),
  };
}

/**
 * The rule for one entry, without a division: with E = collateral + P&L, MM = max(0, ceil(N mmr / S)
 * - cum), E <= MM <=> E <= 0 or (E + cum - 1) x S < N x mmr (E, cum whole money amounts).
 */
export function entryLiquidatable(table: ScanTable, mark: bigint, entry: ScanEntry): boolean {
  const size = entry.sizeLots;
  if (size === 0) return false;
  const absValue = BigInt(size > 0 ? size : -size) * mark;
  const pnl = size > 0 ? absValue - entry.costTickLots : entry.costTickLots - absValue;
  const equity = entry.collateral + pnl * table.units;
  if (equity <= 0n) return true;
  const caps = table.capTickLots;
  const last = caps.length - 1;
  let tier = 0;
  while (tier < last && absValue >= caps[tier]!) tier++;
  return (equity + table.cumMinusOne[tier]!) * RATE_SCALE < absValue * table.mmrUnits[tier]!;
}

/**
 * Finds, among many positions of one market, those under maintenance at this mark: collateral +
 * P&L <= maintenance margin. Exact (the integer rule, not through liquidation prices), one pass, no
 * per-entry allocation besides the bigint arithmetic. Returns the entries' ids in input order.
 */
export function findLiquidatable(
  spec: PerpSpec,
  tiers: readonly RiskTier[],
  markTicks: number,
  entries: readonly ScanEntry[],
): number[] {
  const table = scanTable(spec, tiers);
  const mark = BigInt(markTicks);
  const found: number[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entryLiquidatable(table, mark, entry)) found.push(entry.id);
  }
  return found;
}
