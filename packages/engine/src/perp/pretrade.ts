import type { OpenOrderIntent, PerpPosition, PerpSide, PreTradeInput, PreTradeResult } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

/**
 * The pre-trade check of one new order (reduce-only refused when it would increase the position
 * once the other reduce-only orders are counted; leverage refused when the worst notional the
 * position could reach exceeds maxNotionalForLeverage; margin refused when orderMargin > available).
 */
export function preTradeCheck(input: PreTradeInput): PreTradeResult {
  return todo();
}
/** How many lots a reduce-only order on this side may still have: |size| on the closing side minus the lots other open reduce-only orders on that side already cover; 0 on the opening side. */
export function reduceOnlyLimit(
  position: PerpPosition,
  openOrders: readonly OpenOrderIntent[],
  side: PerpSide,
): number {
  return todo();
}
