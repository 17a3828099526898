import type { FuturesOrderType } from '@platform/contracts';
import { type MarketEngine, stopTriggered, withinPriceBand } from '@platform/engine';
import type { FuturesMarketSpec } from './markets.ts';
import type { FuturesOrderState } from './types.ts';

/**
 * Stop and take-profit orders wait for their trigger in the exchange's memory, not in the book:
 * when one triggers (triggers.ts) it is checked and entered like a new order at that moment, so
 * that it passes the same guards (reduce-only, margin, open loss, the bankruptcy bound). These are
 * the checks the book used to make when such an order was placed or modified.
 */
export const hasTrigger = (type: FuturesOrderType) => type !== 'market' && type !== 'limit';

/** An open order that still waits for its trigger (kept in state.orders only, never in the book). */
export const waits = (order: Pick<FuturesOrderState, 'type' | 'triggered'>) =>
  hasTrigger(order.type) && !order.triggered;

const isTakeProfit = (type: FuturesOrderType) => type === 'take_profit_market' || type === 'take_profit_limit';

/** The book's rule (packages/engine price-rules.ts), with the futures order types' names. */
export function triggerHolds(
  type: FuturesOrderType,
  side: 'buy' | 'sell',
  stopTicks: number,
  lastTradeTicks: number,
): boolean {
  return stopTriggered(isTakeProfit(type), side, stopTicks, lastTradeTicks);
}

export type WaitRejection =
  | 'invalid_time_in_force'
  | 'quantity_below_minimum'
  | 'quantity_above_maximum'
  | 'price_outside_band'
  | 'stop_would_trigger_immediately';

type Waiting = Pick<FuturesOrderState, 'type' | 'side' | 'timeInForce' | 'quantityLots' | 'priceTicks' | 'stopTicks'>;

/** What changes of a waiting order to check: all of it for a new one, only what moved for a modify. */
export type WaitChanges = { quantity: boolean; price: boolean; stop: boolean };
const ALL: WaitChanges = { quantity: true, price: true, stop: true };

/**
 * Why a waiting order may not wait as it is (null: it may): the book's rules for a stop order. Only
 * GTC; a size within the market's limits; its price and stop within the band around the mark; its
 * stop not already reached at the last trade price (the mark before the book's first trade).
 */
export function waitRejection(
  engine: MarketEngine,
  spec: FuturesMarketSpec,
  order: Waiting,
  input: { markTicks: number | null; bandBps: number; changes?: WaitChanges },
): WaitRejection | null {
  const changes = input.changes ?? ALL;
  if (order.timeInForce !== 'GTC') return 'invalid_time_in_force';
  if (changes.quantity && order.quantityLots < 1) return 'quantity_below_minimum';
  if (changes.quantity && order.quantityLots > spec.maxLots) return 'quantity_above_maximum';
  const moved = [changes.price ? order.priceTicks : null, changes.stop ? order.stopTicks : null];
  for (const price of moved) {
    if (price !== null && !withinPriceBand(price, input.markTicks, input.bandBps)) return 'price_outside_band';
  }
  const market = engine.lastTradePrice() ?? input.markTicks;
  if (changes.stop && order.stopTicks !== null && market !== null) {
    if (triggerHolds(order.type, order.side, order.stopTicks, market)) return 'stop_would_trigger_immediately';
  }
  return null;
}
