import type { FillEffect, PerpPosition, PerpSide, PerpSpec, PositionMetrics, PositionRisk } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

/**
 * One fill against a position (one-way mode): grows it (cost += lots x price), reduces it (realises
 * the closed part against the removed share of the cost basis), closes it, or flips it (closes all,
 * opens the rest at the fill price).
 */
export function applyFill(
  spec: PerpSpec,
  position: PerpPosition,
  side: PerpSide,
  lots: number,
  priceTicks: number,
): FillEffect {
  return todo();
}
/** cost / |size| as a decimal price string with priceDecimals + extraDecimals decimals (half up); null when flat. */
export function entryPriceDecimal(spec: PerpSpec, position: PerpPosition, extraDecimals?: number): string | null {
  return todo();
}
/** size x mark - signed cost, exact money. */
export function unrealisedPnl(spec: PerpSpec, position: PerpPosition, markTicks: number): bigint {
  return todo();
}
export function positionMetrics(risk: PositionRisk): PositionMetrics {
  return todo();
}
