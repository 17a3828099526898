/**
 * Perpetual futures risk maths (USD-margined linear contracts): the contract between the engine's
 * perp modules and the server's futures module. Pure and deterministic, integers only.
 *
 * Units (docs/futures.md):
 * - price: integer ticks (10^-priceDecimals USD), number; size: integer lots (10^-quantityDecimals
 *   base), number; a position's size is signed (+ long, - short);
 * - money: bigint units of 10^-8 USD (MONEY_SCALE per dollar). priceDecimals + quantityDecimals <= 8,
 *   so a notional ticks x lots is an exact money amount (x unitsPerTickLot);
 * - rates (fees, maintenance rates, funding): bigint units of 10^-8 (RATE_SCALE = 1); 0.04 % = 40_000n.
 *
 * Rounding, always against the trader and never creating money (futures-maths.md §11): initial
 * margin, maintenance margin and fees up; realised P&L exact (a partial close removes
 * ceil/floor(cost x closed / size) of the cost basis, against the trader, and keeps the rest);
 * unrealised P&L is exact at the mark; the liquidation price is the first tick, coming from the
 * safe side, at which the exact rule (collateral + P&L <= maintenance) holds, so a position is
 * liquidatable at its displayed price and not one tick before (long: the exact root rounded down,
 * short: up); bankruptcy price long up, short down (closing there never needs the insurance fund);
 * funding payers ceil, receivers floor.
 */

export const MONEY_SCALE = 100_000_000n;
export const RATE_SCALE = 100_000_000n;

export type PerpSide = 'buy' | 'sell';
export type MarginMode = 'cross' | 'isolated';

/** A perpetual market's units. priceDecimals + quantityDecimals <= 8. */
export interface PerpSpec {
  priceDecimals: number;
  quantityDecimals: number;
}

/** One risk-limit tier. floor and cum are derived (buildTiers): cum_n = floor_n x (mmr_n - mmr_n-1) + cum_n-1. */
export interface RiskTier {
  tier: number;
  /** Notional floor and cap, money units; a notional N is in the tier when floor <= N < cap (the last tier: N <= cap). */
  floor: bigint;
  cap: bigint;
  maxLeverage: number;
  /** Maintenance margin rate, RATE_SCALE. */
  mmr: bigint;
  /** Maintenance amount ("cum"), money units. */
  cum: bigint;
}

/** A position: signed size in lots and its cost basis Σ lots x ticks (tick-lot units, always >= 0). */
export interface PerpPosition {
  sizeLots: number;
  costTickLots: bigint;
}

export const FLAT: PerpPosition = { sizeLots: 0, costTickLots: 0n };

/** What one fill did to a position. */
export interface FillEffect {
  position: PerpPosition;
  /** Realised P&L of the closed part, money units, signed (exact: closed lots x price - removed cost). */
  realisedPnl: bigint;
  /** Lots that reduced the old position, and lots that opened (or flipped into) the new one. */
  closedLots: number;
  openedLots: number;
}

/** One position as the risk maths needs it, with its market's spec and tiers and the mark. */
export interface PositionRisk {
  spec: PerpSpec;
  tiers: readonly RiskTier[];
  position: PerpPosition;
  markTicks: number;
  mode: MarginMode;
  leverage: number;
  /** Isolated: the margin posted to the position (its wallet), money units. 0 for cross. */
  isolatedMargin: bigint;
}

export interface PositionMetrics {
  /** |size| x mark, money. */
  notional: bigint;
  /** ceil(notional / leverage). */
  initialMargin: bigint;
  /** maintenanceMargin(tiers, notional). */
  maintenanceMargin: bigint;
  /** size x (mark - entry), exact money. */
  unrealisedPnl: bigint;
}

/** A cross account: its wallet (the futures wallet's available balance) and its cross positions. */
export interface CrossAccount {
  walletBalance: bigint;
  positions: readonly PositionRisk[];
  /** Margin reserved by open orders that would open or grow cross positions (money). */
  orderMargin: bigint;
}

export interface CrossState {
  unrealisedPnl: bigint;
  /** walletBalance + unrealisedPnl. */
  marginBalance: bigint;
  initialMargin: bigint;
  maintenanceMargin: bigint;
  /** walletBalance + min(0, unrealisedPnl) - initialMargin - orderMargin (may be negative). */
  available: bigint;
  /** marginBalance <= maintenanceMargin with maintenanceMargin > 0. */
  liquidatable: boolean;
}

/** An order as the pre-trade check sees it. */
export interface OrderIntent {
  side: PerpSide;
  lots: number;
  /** The worst price it may fill at: its limit price, or a market order's protection price. */
  priceTicks: number;
  reduceOnly: boolean;
  /** Taker fee rate (RATE_SCALE): the check reserves the fee of a full taker fill. */
  feeRate: bigint;
}

/** Open orders of the same account and market, as the check needs them. */
export interface OpenOrderIntent {
  side: PerpSide;
  remainingLots: number;
  priceTicks: number;
  reduceOnly: boolean;
}

export type PreTradeRejection = 'leverage_too_high' | 'reduce_only_would_increase' | 'insufficient_margin';

export interface PreTradeInput {
  spec: PerpSpec;
  tiers: readonly RiskTier[];
  leverage: number;
  mode: MarginMode;
  position: PerpPosition;
  openOrders: readonly OpenOrderIntent[];
  order: OrderIntent;
  /** What the account can still commit: CrossState.available for cross, the futures wallet's available for isolated. */
  available: bigint;
}

export type PreTradeResult =
  | {
      ok: true;
      /** Lots of this order that would open or grow the position (the rest reduces it). */
      openingLots: number;
      /** Margin this order reserves while open: ceil(opening notional / leverage) + fee of the whole order. */
      orderMargin: bigint;
      /** The largest notional the position could reach with every open order filled (this one included). */
      worstNotional: bigint;
    }
  | { ok: false; reason: PreTradeRejection };

/** An account with a position, as the liquidation scan sees it (server keeps these in arrays). */
export interface ScanEntry {
  /** Index into the caller's own arrays. */
  id: number;
  sizeLots: number;
  costTickLots: bigint;
  /** The collateral backing it: isolated margin, or for cross the account's wallet + other positions' P&L - other MM (recomputed by the caller). */
  collateral: bigint;
}

/** ADL ranking input of one position (BitMEX ranking: profit % x effective leverage). */
export interface AdlCandidate {
  id: string;
  position: PerpPosition;
  /** Collateral backing the position (isolated margin, or the cross wallet share), money. */
  collateral: bigint;
}

/** Funding payment of one position in a round: positive pays, negative receives. */
export interface FundingPayment {
  id: string;
  amount: bigint;
}
