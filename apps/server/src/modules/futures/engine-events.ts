import type { MarketEvent } from '@platform/engine';
import type { DecideContext } from './context.ts';
import { settleFill } from './settle.ts';
import { type FuturesOrderState, futuresKey } from './types.ts';

/** Applies an engine command's events to the orders, positions and ledger of the batch. */
export function applyEvents(ctx: DecideContext, marketId: string, events: readonly MarketEvent[]): void {
  const { state, batch } = ctx;
  if (events.length > 0) batch.books.add(marketId);
  for (const event of events) {
    const order = state.orders.get(event.type === 'trade' ? event.takerOrderId : event.orderId);
    switch (event.type) {
      case 'trade':
        settleTrade(ctx, marketId, event);
        break;
      case 'triggered':
        if (order) order.triggered = true;
        break;
      case 'filled':
        if (order) closeOrder(ctx, order.id, 'filled');
        break;
      case 'ended':
        if (order) closeOrder(ctx, order.id, event.reason === 'expired' ? 'expired' : 'cancelled');
        break;
      default:
        break;
    }
    if (order) {
      order.updatedAt = ctx.now;
      batch.touchOrder(order);
    }
  }
}

function settleTrade(ctx: DecideContext, marketId: string, event: Extract<MarketEvent, { type: 'trade' }>): void {
  const maker = ctx.state.orders.get(event.makerOrderId);
  const taker = ctx.state.orders.get(event.takerOrderId);
  if (!maker || !taker) throw new Error(`trade ${event.tradeId} of ${marketId} names an unknown order`);
  const common = { tradeId: event.tradeId, priceTicks: event.priceTicks, lots: event.quantityLots, now: ctx.now };
  settleFill(ctx.state, ctx.batch, { ...common, order: maker, role: 'maker' });
  settleFill(ctx.state, ctx.batch, { ...common, order: taker, role: 'taker' });
  for (const order of [maker, taker]) {
    ctx.moved.add(futuresKey(order.accountId, marketId));
    attachTpsl(ctx, order);
  }
  ctx.batch.trades.push({
    id: `${marketId}:${event.tradeId}`,
    marketId,
    priceTicks: event.priceTicks,
    lots: event.quantityLots,
    takerSide: taker.side,
    at: ctx.now,
  });
}

function closeOrder(ctx: DecideContext, orderId: string, status: 'filled' | 'cancelled' | 'expired'): void {
  const order = ctx.state.orders.get(orderId);
  if (!order) return;
  order.status = status;
  order.orderMargin = 0n;
  order.updatedAt = ctx.now;
  ctx.batch.touchOrder(order);
  ctx.state.orders.delete(orderId);
}

/** An order's TP/SL go onto its position once it fills (their orders follow in the command's follow-up). */
function attachTpsl(ctx: DecideContext, order: FuturesOrderState): void {
  if (order.takeProfitTicks === null && order.stopLossTicks === null) return;
  const position = ctx.state.position(order.accountId, order.marketId);
  if (position.sizeLots === 0) return;
  if (order.takeProfitTicks !== null) position.takeProfitTicks = order.takeProfitTicks;
  if (order.stopLossTicks !== null) position.stopLossTicks = order.stopLossTicks;
  ctx.batch.touchPosition(position, 'fill');
}
