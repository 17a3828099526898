import { perp } from '@platform/engine';
import type { FuturesMarketSpec } from './markets.ts';
import { bankruptcyCollateral, type MarkOf } from './risk.ts';
import type { FuturesState } from './state.ts';
import type { PositionState } from './types.ts';

/**
 * Two guards against trading at a price far from the mark to move money out of the house (an
 * account trading with another of the same owner at the band's edge):
 * - Open loss (Binance's rule): the opening part of an order priced through the mark (a buy above
 *   it, a sell below it) loses that difference the moment it fills; it is reserved on top of the
 *   initial margin, so an opening fill can never leave the account with less than nothing.
 * - Bankruptcy bound: the closing part of a user's order may not trade beyond the position's
 *   bankruptcy price, where its collateral is gone and the insurance fund would pay the
 *   counterparty. A limit beyond it is refused; a market close becomes an IOC limit at it (it fills
 *   through the book down to that price, and no further).
 */
export function openLoss(
  spec: FuturesMarketSpec,
  side: 'buy' | 'sell',
  openingLots: number,
  priceTicks: number,
  markTicks: number,
): bigint {
  const through = side === 'buy' ? priceTicks - markTicks : markTicks - priceTicks;
  return through > 0 && openingLots > 0 ? perp.notionalMoney(spec, through, openingLots) : 0n;
}

/** The bankruptcy price (ticks) the closing part of an order on this side may not pass; null when it does not close or none exists. */
export function closingBound(
  state: FuturesState,
  position: PositionState,
  side: 'buy' | 'sell',
  markOf: MarkOf,
): number | null {
  if (position.sizeLots === 0 || position.sizeLots > 0 !== (side === 'sell')) return null;
  const spec = state.markets.get(position.marketId)!;
  const collateral = bankruptcyCollateral(state, position, markOf);
  return perp.bankruptcyPriceTicks(
    spec,
    { sizeLots: position.sizeLots, costTickLots: position.costTickLots },
    collateral,
  );
}

/** Whether a fill at `priceTicks` would pass the bound (a sell below it, a buy above it). */
export const beyond = (side: 'buy' | 'sell', priceTicks: number, bound: number) =>
  side === 'sell' ? priceTicks < bound : priceTicks > bound;
