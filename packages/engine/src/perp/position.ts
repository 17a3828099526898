import {
  type FillEffect,
  FLAT,
  type PerpPosition,
  type PerpSide,
  type PerpSpec,
  type PositionMetrics,
  type PositionRisk,
} from './api.ts';
import { divCeil, divFloor, divHalfUp } from './rounding.ts';
import { maintenanceMargin } from './tiers.ts';
import { notionalMoney, unitsPerTickLot } from './units.ts';

function checkFill(lots: number, priceTicks: number): void {
  if (!Number.isSafeInteger(lots) || lots <= 0) throw new Error('a fill has a whole positive number of lots');
  if (!Number.isSafeInteger(priceTicks) || priceTicks <= 0)
    throw new Error('a fill has a whole positive price in ticks');
}

/**
 * One fill against a position (one-way mode): grows it (cost += lots x price), reduces it (realises
 * the closed part against the removed share of the cost basis), closes it, or flips it (closes all,
 * opens the rest at the fill price).
 *
 * A partial reduction removes cost x closed / |size| of the cost basis, rounded against the trader:
 * up for a long (it sells: realised = closed x price - removed), down for a short (it buys back:
 * realised = removed - closed x price). The rest of the cost basis stays with the position, so the
 * cost removed plus the cost kept is the cost before, and Σ realised P&L of every account equals
 * Σ signed cost basis of the open positions exactly (each trade's cash is zero-sum).
 */
export function applyFill(
  spec: PerpSpec,
  position: PerpPosition,
  side: PerpSide,
  lots: number,
  priceTicks: number,
): FillEffect {
  checkFill(lots, priceTicks);
  const direction = side === 'buy' ? 1 : -1;
  const size = position.sizeLots;
  if (size === 0 || Math.sign(size) === direction) {
    const grown = {
      sizeLots: size + direction * lots,
      costTickLots: position.costTickLots + BigInt(lots) * BigInt(priceTicks),
    };
    return { position: grown, realisedPnl: 0n, closedLots: 0, openedLots: lots };
  }
  const held = Math.abs(size);
  const closedLots = Math.min(lots, held);
  const openedLots = lots - closedLots;
  const closedValue = BigInt(closedLots) * BigInt(priceTicks);
  let removed = position.costTickLots;
  if (closedLots < held) {
    const share = position.costTickLots * BigInt(closedLots);
    // Against the trader: a long's removed cost rounds up (less profit), a short's rounds down.
    removed = size > 0 ? divCeil(share, BigInt(held)) : divFloor(share, BigInt(held));
  }
  const realisedTickLots = size > 0 ? closedValue - removed : removed - closedValue;
  const realisedPnl = realisedTickLots * unitsPerTickLot(spec);
  let next: PerpPosition;
  if (openedLots > 0)
    next = { sizeLots: direction * openedLots, costTickLots: BigInt(openedLots) * BigInt(priceTicks) };
  else if (closedLots === held) next = FLAT;
  else next = { sizeLots: size + direction * closedLots, costTickLots: position.costTickLots - removed };
  return { position: next, realisedPnl, closedLots, openedLots };
}

/**
 * cost / |size| as a decimal price string with priceDecimals + extraDecimals decimals (default 2),
 * rounded half up (display only: margin and P&L use the exact cost basis); null when flat.
 */
export function entryPriceDecimal(spec: PerpSpec, position: PerpPosition, extraDecimals = 2): string | null {
  if (position.sizeLots === 0) return null;
  const decimals = spec.priceDecimals + extraDecimals;
  const scaled = divHalfUp(position.costTickLots * 10n ** BigInt(extraDecimals), BigInt(Math.abs(position.sizeLots)));
  if (decimals === 0) return scaled.toString();
  const digits = scaled.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** size x mark - signed cost, exact money (no rounding: a tick-lot amount is a whole money amount). */
export function unrealisedPnl(spec: PerpSpec, position: PerpPosition, markTicks: number): bigint {
  const size = position.sizeLots;
  if (size === 0) return 0n;
  const value = BigInt(size) * BigInt(markTicks);
  const pnl = size > 0 ? value - position.costTickLots : value + position.costTickLots;
  return pnl * unitsPerTickLot(spec);
}

/** Notional at mark, IM at mark (ceil), MM (ceil, by tier) and unrealised P&L (exact). */
export function positionMetrics(risk: PositionRisk): PositionMetrics {
  const notional = notionalMoney(risk.spec, risk.markTicks, risk.position.sizeLots);
  const leverage = BigInt(risk.leverage);
  return {
    notional,
    initialMargin: divCeil(notional, leverage), // ceil: against the trader
    maintenanceMargin: maintenanceMargin(risk.tiers, notional),
    unrealisedPnl: unrealisedPnl(risk.spec, risk.position, risk.markTicks),
  };
}
