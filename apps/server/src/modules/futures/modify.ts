import type { FuturesOrder } from '@platform/contracts';
import type { MarketEvent } from '@platform/engine';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { DecideContext } from './context.ts';
import { applyEvents } from './engine-events.ts';
import { checkOrder } from './orders.ts';
import { orderView } from './rows.ts';
import type { FuturesOrderState } from './types.ts';
import { waitRejection, waits } from './waiting.ts';

export type ModifyCommand = {
  accountId: string;
  orderId: string;
  quantityLots: number | undefined;
  priceTicks: number | undefined;
  stopTicks: number | undefined;
};

/**
 * Changes an open order's quantity, price or stop price (the engine keeps its place when only the
 * quantity falls). The changed order passes the pre-trade check again, without its old self.
 */
export function modifyOrder(ctx: DecideContext, command: ModifyCommand): Result<FuturesOrder> {
  const { state } = ctx;
  const order = state.orders.get(command.orderId);
  if (!order || order.accountId !== command.accountId) return fail('ORDER_NOT_OPEN');
  if (order.origin === 'tpsl' || order.closePosition)
    return fail('VALIDATION_ERROR', { message: 'This order follows its position' });
  if (command.priceTicks !== undefined && order.priceTicks === null)
    return fail('VALIDATION_ERROR', { message: 'This order has no price' });
  if (command.stopTicks !== undefined && order.stopTicks === null)
    return fail('VALIDATION_ERROR', { message: 'This order has no stop price' });
  const quantity = command.quantityLots ?? order.quantityLots;
  if (quantity <= order.filledLots)
    return fail('VALIDATION_ERROR', { message: 'Quantity must exceed what has filled' });
  state.orders.delete(order.id);
  const checked = checkOrder(ctx, order.accountId, {
    ...order,
    quantityLots: quantity - order.filledLots,
    priceTicks: command.priceTicks ?? order.priceTicks,
    stopTicks: command.stopTicks ?? order.stopTicks,
  });
  state.orders.set(order.id, order);
  if (!checked.ok) return checked;
  const moved = waits(order)
    ? modifyWaiting(ctx, order, command, quantity)
    : modifyInBook(ctx, order, command, quantity);
  if (!moved.ok) return moved;
  order.quantityLots = quantity;
  order.priceTicks = command.priceTicks ?? order.priceTicks;
  order.stopTicks = command.stopTicks ?? order.stopTicks;
  order.orderMargin = checked.value.orderMargin;
  order.updatedAt = ctx.now;
  ctx.batch.touchOrder(order);
  applyEvents(ctx, order.marketId, moved.value);
  return ok(orderView(state.markets.get(order.marketId)!, order));
}

/**
 * The order's saved sequence follows the book's: a modify that loses the order its place (a new
 * price, a larger quantity) queues it under the modify's sequence, and a restart rebuilds the book
 * in saved-sequence order.
 */
export function keepPriority(ctx: DecideContext, order: FuturesOrderState): void {
  const held = ctx.state.engine(order.marketId).order(order.id);
  if (held) order.sequence = held.sequence;
}

/** The book's modify of a resting order: its events. */
function modifyInBook(
  ctx: DecideContext,
  order: FuturesOrderState,
  command: ModifyCommand,
  quantity: number,
): Result<readonly MarketEvent[]> {
  const engine = ctx.state.engine(order.marketId);
  const held = engine.order(order.id);
  if (!held) return fail('ORDER_NOT_OPEN');
  const result = engine.apply({
    kind: 'modify',
    sequence: ctx.nextSequence(),
    timestampMs: ctx.now.getTime(),
    orderId: order.id,
    accountId: order.accountId,
    quantityLots: command.quantityLots === undefined ? null : held.filledLots + (quantity - order.filledLots),
    priceTicks: command.priceTicks ?? null,
    stopPriceTicks: command.stopTicks ?? null,
    referencePriceTicks: ctx.markOf(order.marketId),
  });
  if (result.status === 'rejected') return fail('ORDER_REJECTED', { message: `Order not modified: ${result.reason}` });
  keepPriority(ctx, order);
  return ok(result.events);
}

/**
 * A waiting order (waiting.ts) changes in memory, checked as the book checked it: only what moved,
 * the stop not already reached. Only a lower quantity keeps its place among the waiting orders.
 */
function modifyWaiting(
  ctx: DecideContext,
  order: FuturesOrderState,
  command: ModifyCommand,
  quantity: number,
): Result<readonly MarketEvent[]> {
  const spec = ctx.state.markets.get(order.marketId)!;
  const next = {
    ...order,
    quantityLots: quantity,
    priceTicks: command.priceTicks ?? order.priceTicks,
    stopTicks: command.stopTicks ?? order.stopTicks,
  };
  const changes = {
    quantity: next.quantityLots !== order.quantityLots,
    price: next.priceTicks !== order.priceTicks,
    stop: next.stopTicks !== order.stopTicks,
  };
  const reason =
    changes.quantity || changes.price || changes.stop
      ? waitRejection(ctx.state.engine(order.marketId), spec, next, {
          markTicks: ctx.markOf(order.marketId),
          bandBps: ctx.bandBps,
          changes,
        })
      : 'invalid_modification';
  if (reason !== null) return fail('ORDER_REJECTED', { message: `Order not modified: ${reason}` });
  const keepsPlace = changes.quantity && quantity < order.quantityLots && !changes.price && !changes.stop;
  if (!keepsPlace) order.sequence = ctx.nextSequence();
  return ok([]);
}
