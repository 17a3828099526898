import { type CrossAccount, type CrossState, MONEY_SCALE, type PositionRisk } from './api.ts';
import { positionMetrics } from './position.ts';
import { divCeil } from './rounding.ts';
import { moneyToDecimal } from './units.ts';

/**
 * A cross account at the mark: margin balance = wallet + Σ unrealised P&L; available = wallet +
 * min(0, Σ unrealised) - Σ IM - order margin (unrealised profit is not spent on new positions);
 * liquidatable when Σ MM > 0 and margin balance <= Σ MM (Binance's margin ratio MM / MB >= 100 %).
 */
export function crossState(account: CrossAccount): CrossState {
  let unrealisedPnl = 0n;
  let initialMargin = 0n;
  let maintenanceMargin = 0n;
  for (const risk of account.positions) {
    if (risk.position.sizeLots === 0) continue;
    const metrics = positionMetrics(risk);
    unrealisedPnl += metrics.unrealisedPnl;
    initialMargin += metrics.initialMargin;
    maintenanceMargin += metrics.maintenanceMargin;
  }
  const marginBalance = account.walletBalance + unrealisedPnl;
  const loss = unrealisedPnl < 0n ? unrealisedPnl : 0n;
  return {
    unrealisedPnl,
    marginBalance,
    initialMargin,
    maintenanceMargin,
    available: account.walletBalance + loss - initialMargin - account.orderMargin,
    liquidatable: maintenanceMargin > 0n && marginBalance <= maintenanceMargin,
  };
}

/** Isolated: isolatedMargin + unrealised P&L <= maintenance margin (with a position). */
export function isolatedLiquidatable(risk: PositionRisk): boolean {
  if (risk.position.sizeLots === 0) return false;
  const metrics = positionMetrics(risk);
  return risk.isolatedMargin + metrics.unrealisedPnl <= metrics.maintenanceMargin;
}

const RATIO_SCALE = 10_000n;

/** A fixed-point integer with 4 decimals as a canonical decimal string. */
function ratioToDecimal(scaled: bigint): string {
  return moneyToDecimal(scaled * (MONEY_SCALE / RATIO_SCALE));
}

/**
 * Binance's margin ratio maintenance / margin balance, as a decimal with at most 4 decimals, rounded
 * up (against the trader: the ratio never looks safer than it is). '0' without maintenance; at or
 * past liquidation it is '1' or more, and '1' when the margin balance is zero or negative (the ratio
 * is not defined there; the position is liquidatable).
 */
export function marginRatioDecimal(maintenanceMargin: bigint, marginBalance: bigint): string {
  if (maintenanceMargin <= 0n) return '0';
  if (marginBalance <= 0n) return '1';
  return ratioToDecimal(divCeil(maintenanceMargin * RATIO_SCALE, marginBalance)); // ceil: against the trader
}

/**
 * Return on equity: unrealised P&L / (entry notional / leverage), i.e. on the initial margin at the
 * entry price (what was posted at the opening fills), not Binance's margin re-valued at the mark.
 * A decimal fraction with at most 4 decimals, truncated towards zero (display only); '0' when flat.
 */
export function roeDecimal(unrealised: bigint, entryNotional: bigint, leverage: number): string {
  if (entryNotional <= 0n) return '0';
  return ratioToDecimal((unrealised * BigInt(leverage) * RATIO_SCALE) / entryNotional); // bigint `/` truncates towards zero
}
