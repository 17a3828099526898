import type { MarketEvent } from '@platform/engine';
import type { DecideContext } from './context.ts';
import { applyEvents } from './engine-events.ts';
import { keepPriority } from './modify.ts';
import { cancelInBook, enterOrder, newOrder } from './orders.ts';
import { type FuturesOrderState, followsPosition, type PositionState } from './types.ts';
import { waits } from './waiting.ts';

/** Bound on the follow-ups (reduce-only trims, TP/SL moves) one command may cause. */
const MAX_FOLLOW_ROUNDS = 8;

/** Reduce-only trims and TP/SL moves of every position moved so far (they may move others in turn). */
export function followMoved(ctx: DecideContext): void {
  for (let round = 0; round < MAX_FOLLOW_ROUNDS && ctx.moved.size > 0; round++) {
    const moved = [...ctx.moved];
    ctx.moved.clear();
    for (const key of moved) {
      const [accountId, marketId] = key.split('|') as [string, string];
      followPosition(ctx, accountId, marketId);
    }
  }
}

/**
 * After a position moved: close-position and TP/SL orders follow its size (cancelled when it is
 * flat or on the wrong side), other reduce-only orders are trimmed in time priority to what the
 * position still allows, and TP/SL set on the position get their orders.
 */
export function followPosition(ctx: DecideContext, accountId: string, marketId: string): void {
  const position = ctx.state.position(accountId, marketId);
  const closingSide = position.sizeLots > 0 ? 'sell' : 'buy';
  const size = Math.abs(position.sizeLots);
  if (size === 0) {
    position.takeProfitTicks = null;
    position.stopLossTicks = null;
    ctx.batch.touchPosition(position, 'fill');
  }
  let allowed = size;
  for (const order of ctx.state.openOrdersOf(accountId, marketId)) {
    if (!order.reduceOnly) continue;
    if (order.side !== closingSide || size === 0) cancelInBook(ctx, order);
    else if (followsPosition(order)) resize(ctx, order, size);
    else {
      const keep = Math.min(order.quantityLots - order.filledLots, allowed);
      allowed -= keep;
      if (keep === 0) cancelInBook(ctx, order);
      else resize(ctx, order, keep);
    }
  }
  syncTpsl(ctx, position);
}

/** Sets an order's open quantity (a lower one keeps its place in the book, or among the waiting orders). */
function resize(ctx: DecideContext, order: FuturesOrderState, openLots: number): void {
  const before = order.quantityLots - order.filledLots;
  if (before === openLots) return;
  const events = waits(order) ? resizeWaiting(ctx, order, openLots) : resizeInBook(ctx, order, openLots);
  if (events === null) {
    cancelInBook(ctx, order);
    return;
  }
  order.quantityLots = order.filledLots + openLots;
  if (before > 0 && order.orderMargin > 0n) order.orderMargin = (order.orderMargin * BigInt(openLots)) / BigInt(before);
  order.updatedAt = ctx.now;
  ctx.batch.touchOrder(order);
  applyEvents(ctx, order.marketId, events);
}

/** The book's modify of a resting order's quantity: its events, or null when the book refuses (or lost it). */
function resizeInBook(ctx: DecideContext, order: FuturesOrderState, openLots: number): readonly MarketEvent[] | null {
  const engine = ctx.state.engine(order.marketId);
  const held = engine.order(order.id);
  if (!held) return null;
  const result = engine.apply({
    kind: 'modify',
    sequence: ctx.nextSequence(),
    timestampMs: ctx.now.getTime(),
    orderId: order.id,
    accountId: order.accountId,
    quantityLots: held.filledLots + openLots,
    priceTicks: null,
    stopPriceTicks: null,
    referencePriceTicks: ctx.markOf(order.marketId),
  });
  if (result.status === 'rejected') return null;
  keepPriority(ctx, order);
  return result.events;
}

/** A waiting order's new size, checked as the book would; a larger one goes last among the waiting orders, as the book's modify does. */
function resizeWaiting(ctx: DecideContext, order: FuturesOrderState, openLots: number): readonly MarketEvent[] | null {
  const spec = ctx.state.markets.get(order.marketId)!;
  if (order.filledLots + openLots > spec.maxLots) return null;
  if (openLots > order.quantityLots - order.filledLots) order.sequence = ctx.nextSequence();
  return [];
}

/** The position's TP and SL as reduce-only trigger orders sized to it (placed when missing, moved when changed). */
export function syncTpsl(ctx: DecideContext, position: PositionState): void {
  const orders = ctx.state.openOrdersOf(position.accountId, position.marketId).filter((o) => o.origin === 'tpsl');
  const wanted: [FuturesOrderState['type'], number | null][] = [
    ['take_profit_market', position.takeProfitTicks],
    ['stop_market', position.stopLossTicks],
  ];
  for (const [type, ticks] of wanted) {
    const existing = orders.find((o) => o.type === type);
    if (existing && existing.stopTicks === ticks && position.sizeLots !== 0) continue;
    if (existing) cancelInBook(ctx, existing);
    if (ticks === null || position.sizeLots === 0) continue;
    placeTpsl(ctx, position, type, ticks);
  }
}

function placeTpsl(ctx: DecideContext, position: PositionState, type: FuturesOrderState['type'], ticks: number): void {
  const spec = ctx.state.markets.get(position.marketId)!;
  const order = newOrder(
    ctx,
    position.accountId,
    {
      order: {
        marketId: position.marketId,
        side: position.sizeLots > 0 ? 'sell' : 'buy',
        type,
        timeInForce: 'GTC',
        postOnly: false,
        reduceOnly: true,
        closePosition: false,
        priceTicks: null,
        stopTicks: ticks,
        takeProfitTicks: null,
        stopLossTicks: null,
        clientOrderId: null,
        quantityLots: Math.abs(position.sizeLots),
      },
      orderMargin: 0n,
    },
    'tpsl',
  );
  const placed = enterOrder(ctx, spec, order);
  if (placed.ok) return;
  // A trigger the market has already passed cannot wait: the position keeps no such TP/SL.
  if (type === 'take_profit_market') position.takeProfitTicks = null;
  else position.stopLossTicks = null;
  ctx.batch.touchPosition(position, 'fill');
}
