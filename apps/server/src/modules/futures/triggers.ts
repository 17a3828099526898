import { errorCatalogue } from '@platform/contracts';
import type { Batch } from './batch.ts';
import type { DecideContext } from './context.ts';
import { applyEvents } from './engine-events.ts';
import { isMarketLike, placeCommand } from './engine-orders.ts';
import { bookRejection, checkOrder, endOrder } from './orders.ts';
import type { ParsedOrder } from './parse.ts';
import type { FuturesOrderState } from './types.ts';
import { followMoved } from './upkeep.ts';
import { triggerHolds, waits } from './waiting.ts';

/**
 * Bound on the trigger rounds of one command. Each round triggers at least one waiting order (it
 * leaves the waiting set whatever its check says), so the loop ends by itself; the bound only caps
 * the work one command may do. Orders still due then trigger after the market's next trade.
 */
export const MAX_TRIGGER_ROUNDS = 1_000;

/** How many of a batch's trades the triggers have looked at (the trades of earlier commands are done). */
const examined = new WeakMap<Batch, number>();

/**
 * Stop and take-profit triggers, run after each command (and its follow-ups). On every market that
 * traded since the last look, the waiting orders whose stop the last trade price has reached (the
 * book's rule, waiting.ts) trigger in placement order; each is checked and entered like a new
 * order at that moment: a stop-market or take-profit-market as a market order, a stop-limit or
 * take-profit-limit as a GTC limit at its price, through the same pre-trade check and price guards
 * (reduce-only, margin, open loss, the bankruptcy bound). One that fails is rejected ("Order
 * rejected at trigger: ...") and nothing else changes. After each, the positions it moved follow
 * (upkeep.ts), as after any command. What the triggered orders traded moves the last price again:
 * the next round looks at it, until a round finds nothing.
 */
export function triggerOrders(ctx: DecideContext): void {
  for (let round = 0; round < MAX_TRIGGER_ROUNDS; round++) {
    const due = dueOrders(ctx);
    if (due.length === 0) return;
    for (const order of due) {
      // The follow-up of an earlier trigger may have trimmed it or ended it (a reduce-only order
      // whose position is gone).
      if (ctx.state.orders.get(order.id) !== order || !waits(order)) continue;
      trigger(ctx, order);
      // As after any command: the next trigger's check sees reduce-only orders trimmed and TP/SL resized.
      followMoved(ctx);
    }
  }
}

/** The waiting orders the last trade price of each market that traded since the last look has reached, in sequence order. */
function dueOrders(ctx: DecideContext): FuturesOrderState[] {
  const trades = ctx.batch.trades;
  const from = examined.get(ctx.batch) ?? 0;
  examined.set(ctx.batch, trades.length);
  const markets = [...new Set(trades.slice(from).map((trade) => trade.marketId))].sort();
  const due: FuturesOrderState[] = [];
  for (const marketId of markets) {
    const last = ctx.state.engine(marketId).lastTradePrice();
    if (last === null) continue;
    const reached = [...ctx.state.orders.values()].filter(
      (o) => o.marketId === marketId && waits(o) && triggerHolds(o.type, o.side, o.stopTicks!, last),
    );
    due.push(...reached.sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0)));
  }
  return due;
}

/** The order a triggered one becomes: a market order (IOC) or a GTC limit at its price, for what it has open. */
function asNewOrder(order: FuturesOrderState): ParsedOrder {
  const market = isMarketLike(order.type);
  return {
    marketId: order.marketId,
    side: order.side,
    type: market ? 'market' : 'limit',
    timeInForce: market ? 'IOC' : 'GTC',
    postOnly: false,
    reduceOnly: order.reduceOnly,
    closePosition: order.closePosition,
    priceTicks: market ? null : order.priceTicks,
    stopTicks: null,
    takeProfitTicks: order.takeProfitTicks,
    stopLossTicks: order.stopLossTicks,
    clientOrderId: order.clientOrderId,
    quantityLots: order.closePosition ? null : order.quantityLots - order.filledLots,
  };
}

/** Triggers one waiting order: checked without its old reservation, then entered into the book, or rejected. */
function trigger(ctx: DecideContext, order: FuturesOrderState): void {
  const { state } = ctx;
  // The check sees the account as it is without this order (its reservation is replaced, not added).
  state.orders.delete(order.id);
  const checked = checkOrder(ctx, order.accountId, asNewOrder(order));
  state.orders.set(order.id, order);
  if (!checked.ok) {
    reject(ctx, order, checked.message ?? errorCatalogue[checked.code].message);
    return;
  }
  const entered = checked.value.order;
  const sequence = ctx.nextSequence();
  const placed = { ...order, ...entered, stopTicks: null, quantityLots: entered.quantityLots };
  const result = state
    .engine(order.marketId)
    .apply(placeCommand(placed, sequence, ctx.markOf(order.marketId), ctx.now));
  if (result.status === 'rejected') {
    reject(ctx, order, bookRejection(result.reason).message ?? result.reason);
    return;
  }
  order.triggered = true;
  // It takes its place in time from the command that triggered it, as a new order would.
  order.sequence = sequence;
  // A market order shows its protection (the bankruptcy bound or the open-loss cap), as a new one does.
  order.priceTicks = entered.priceTicks;
  order.quantityLots = order.filledLots + entered.quantityLots;
  order.orderMargin = checked.value.orderMargin;
  order.updatedAt = ctx.now;
  ctx.batch.touchOrder(order);
  applyEvents(ctx, order.marketId, result.events);
}

function reject(ctx: DecideContext, order: FuturesOrderState, message: string): void {
  order.triggered = true;
  endOrder(ctx, order, 'rejected', `Order rejected at trigger: ${message}`);
}
