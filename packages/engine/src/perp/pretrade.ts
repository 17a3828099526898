import {
  type OpenOrderIntent,
  type PerpPosition,
  type PerpSide,
  type PreTradeInput,
  type PreTradeResult,
  RATE_SCALE,
} from './api.ts';
import { divCeil } from './rounding.ts';
import { maxNotionalForLeverage } from './tiers.ts';
import { unitsPerTickLot } from './units.ts';

/** How many lots a reduce-only order on this side may still have: |size| on the closing side minus the lots other open reduce-only orders on that side already cover; 0 on the opening side. */
export function reduceOnlyLimit(
  position: PerpPosition,
  openOrders: readonly OpenOrderIntent[],
  side: PerpSide,
): number {
  const size = position.sizeLots;
  if (size === 0 || size > 0 === (side === 'buy')) return 0;
  let covered = 0;
  for (let index = 0; index < openOrders.length; index++) {
    const order = openOrders[index]!;
    if (order.reduceOnly && order.side === side) covered += order.remainingLots;
  }
  const limit = Math.abs(size) - covered;
  return limit > 0 ? limit : 0;
}

/** The open orders summed per side (lots, value in tick-lots while it is a safe integer, highest price). */
interface SideTotals {
  lots: number;
  reduceOnlyLots: number;
  value: number;
  topPrice: number;
}

function addOrder(totals: SideTotals, lots: number, priceTicks: number, reduceOnly: boolean): void {
  if (reduceOnly) {
    totals.reduceOnlyLots += lots;
    return;
  }
  totals.lots += lots;
  totals.value += lots * priceTicks;
  if (priceTicks > totals.topPrice) totals.topPrice = priceTicks;
}

/**
 * The largest notional (tick-lots) the position reaches on one side with every order on that side
 * filled. Position on that side (or flat): its cost + Σ lots x price of the non-reduce-only orders
 * (exact). Position on the other side: the orders first close it (reduce-only ones at most the
 * position), the lots beyond zero are valued at the highest order price (an upper bound).
 */
function sideExtent(held: number, sameSide: boolean, cost: bigint, totals: SideTotals): bigint {
  if (totals.lots === 0) return sameSide ? cost : 0n;
  const value = Number.isSafeInteger(totals.value) ? BigInt(totals.value) : null;
  if (sameSide && value !== null) return cost + value;
  if (sameSide) return cost + BigInt(totals.lots) * BigInt(totals.topPrice);
  const beyond = totals.lots + Math.min(totals.reduceOnlyLots, held) - held;
  return beyond > 0 ? BigInt(beyond) * BigInt(totals.topPrice) : 0n;
}

/** Lots of an order that would open or grow the position once the other orders on its side have used up the position's closing room. */
function openingLotsOf(held: number, closing: boolean, lots: number, totals: SideTotals): number {
  if (!closing) return lots;
  const room = held - totals.lots - totals.reduceOnlyLots;
  return room >= lots ? 0 : room > 0 ? lots - room : lots;
}

/**
 * The pre-trade check of one new order, in this order:
 * 1. reduce-only: refused (`reduce_only_would_increase`) when its lots exceed reduceOnlyLimit;
 * 2. leverage: the worst notional the position could reach on the side this order pushes towards,
 *    with every open order on that side and this one filled (sideExtent), must not exceed
 *    maxNotionalForLeverage (`leverage_too_high`); so an order that only reduces (reduce-only, or
 *    closing no further than zero) is never refused for leverage, even when the position itself is
 *    above the cap. worstNotional reports the larger of both sides;
 * 3. margin: the order reserves ceil(opening notional / leverage) (ceil: against the trader) plus the
 *    taker fee of the whole order, ceil(notional x feeRate / S) (ceil: against the trader); refused
 *    (`insufficient_margin`) when that exceeds available. An order that only reduces the position
 *    (no opening lots) is never refused for margin: what it closes frees more than its fee needs.
 * Opening lots count the other open orders on the same side as closing first (against the trader).
 * Two passes over openOrders, no allocation beyond two small accumulators and a few bigints.
 */
export function preTradeCheck(input: PreTradeInput): PreTradeResult {
  const { order, position } = input;
  const size = position.sizeLots;
  if (!Number.isSafeInteger(order.lots) || order.lots <= 0)
    throw new Error('an order has a whole positive number of lots');
  if (!Number.isInteger(input.leverage) || input.leverage < 1) throw new Error('leverage is a whole number >= 1');
  if (order.reduceOnly && order.lots > reduceOnlyLimit(position, input.openOrders, order.side)) {
    return { ok: false, reason: 'reduce_only_would_increase' };
  }
  const buys: SideTotals = { lots: 0, reduceOnlyLots: 0, value: 0, topPrice: 0 };
  const sells: SideTotals = { lots: 0, reduceOnlyLots: 0, value: 0, topPrice: 0 };
  for (let index = 0; index < input.openOrders.length; index++) {
    const open = input.openOrders[index]!;
    addOrder(open.side === 'buy' ? buys : sells, open.remainingLots, open.priceTicks, open.reduceOnly);
  }
  const held = Math.abs(size);
  const isBuy = order.side === 'buy';
  const closing = size !== 0 && size > 0 !== isBuy;
  const openingLots = order.reduceOnly ? 0 : openingLotsOf(held, closing, order.lots, isBuy ? buys : sells);
  addOrder(isBuy ? buys : sells, order.lots, order.priceTicks, order.reduceOnly);
  const units = unitsPerTickLot(input.spec);
  const longExtent = sideExtent(held, size > 0, size > 0 ? position.costTickLots : 0n, buys);
  const shortExtent = sideExtent(held, size < 0, size < 0 ? position.costTickLots : 0n, sells);
  const worstNotional = (longExtent > shortExtent ? longExtent : shortExtent) * units;
  // Only the side this order pushes towards is held to the cap: an order that reduces is never refused for leverage.
  const pushed = (isBuy ? longExtent : shortExtent) * units;
  if (!order.reduceOnly && pushed > maxNotionalForLeverage(input.tiers, input.leverage)) {
    return { ok: false, reason: 'leverage_too_high' };
  }
  const orderNotional = BigInt(order.lots) * BigInt(order.priceTicks) * units;
  const fee = divCeil(orderNotional * order.feeRate, RATE_SCALE); // ceil: against the trader
  const openingNotional = BigInt(openingLots) * BigInt(order.priceTicks) * units;
  const orderMargin = divCeil(openingNotional, BigInt(input.leverage)) + fee; // ceil: against the trader
  if (openingLots > 0 && orderMargin > input.available) return { ok: false, reason: 'insufficient_margin' };
  return { ok: true, openingLots, orderMargin, worstNotional };
}
