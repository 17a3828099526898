import { randomUUID } from 'node:crypto';
import { perp } from '@platform/engine';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { type DecideContext, protectionTicks } from './context.ts';
import { applyEvents } from './engine-events.ts';
import { isMarketLike, placeCommand } from './engine-orders.ts';
import type { FuturesMarketSpec } from './markets.ts';
import type { ParsedOrder } from './parse.ts';
import { crossOf } from './risk.ts';
import type { FuturesOrderState, FuturesOrigin } from './types.ts';

const REJECTIONS: Record<
  perp.PreTradeRejection,
  'LEVERAGE_TOO_HIGH' | 'REDUCE_ONLY_WOULD_INCREASE' | 'INSUFFICIENT_MARGIN'
> = {
  leverage_too_high: 'LEVERAGE_TOO_HIGH',
  reduce_only_would_increase: 'REDUCE_ONLY_WOULD_INCREASE',
  insufficient_margin: 'INSUFFICIENT_MARGIN',
};

/** The worst price an order may fill at: its limit, or the band's edge around the mark (or its stop). */
export function worstPrice(ctx: DecideContext, order: ParsedOrder, mark: number | null): number | null {
  if (!isMarketLike(order.type)) return order.priceTicks;
  const reference = order.type === 'market' ? mark : order.stopTicks;
  return reference === null ? null : protectionTicks(reference, order.side, ctx.bandBps);
}

export type Checked = { order: ParsedOrder & { quantityLots: number }; orderMargin: bigint };

/** The pre-trade check of a new order against the account's state (nothing changes). */
export function checkOrder(ctx: DecideContext, accountId: string, order: ParsedOrder): Result<Checked> {
  const { state } = ctx;
  const spec = state.markets.get(order.marketId)!;
  const position = state.position(accountId, order.marketId);
  let lots = order.quantityLots;
  if (order.closePosition) {
    if (position.sizeLots === 0) return fail('POSITION_NOT_FOUND');
    if (position.sizeLots > 0 === (order.side === 'buy')) return fail('REDUCE_ONLY_WOULD_INCREASE');
    lots = Math.abs(position.sizeLots);
  }
  const mark = ctx.markOf(order.marketId);
  const price = worstPrice(ctx, order, mark);
  if (price === null) return fail('FUTURES_MARKET_HALTED', { message: 'No mark price for this market yet' });
  const sized = { ...order, quantityLots: lots! };
  if (order.closePosition) return ok({ order: sized, orderMargin: 0n });
  const setting = state.setting(accountId, order.marketId);
  const result = perp.preTradeCheck({
    spec,
    tiers: spec.tiers,
    leverage: setting.leverage,
    mode: setting.mode,
    position: { sizeLots: position.sizeLots, costTickLots: position.costTickLots },
    openOrders: state.openOrdersOf(accountId, order.marketId).map((o) => ({
      side: o.side,
      remainingLots: o.quantityLots - o.filledLots,
      priceTicks: o.priceTicks ?? o.stopTicks ?? price,
      reduceOnly: o.reduceOnly,
    })),
    order: { side: order.side, lots: lots!, priceTicks: price, reduceOnly: order.reduceOnly, feeRate: spec.takerFee },
    available: crossOf(state, accountId, ctx.markOf).available,
  });
  if (!result.ok) return fail(REJECTIONS[result.reason]);
  return ok({ order: sized, orderMargin: result.orderMargin });
}

export function newOrder(
  ctx: DecideContext,
  accountId: string,
  checked: Checked,
  origin: FuturesOrigin,
): FuturesOrderState {
  const { order } = checked;
  return {
    ...order,
    id: randomUUID(),
    accountId,
    origin,
    filledLots: 0,
    filledCost: 0n,
    fee: 0n,
    realisedPnl: 0n,
    orderMargin: checked.orderMargin,
    status: 'pending',
    triggered: false,
    rejectReason: null,
    sequence: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

const ENGINE_REJECTIONS: Record<string, string> = {
  post_only_would_cross: 'Post-only order would trade at once',
  price_outside_band: 'Price is too far from the mark price',
  stop_would_trigger_immediately: 'Stop price would trigger at once',
  fok_not_fillable: 'Fill-or-kill order cannot be filled in full',
  quantity_below_minimum: 'Quantity is below the minimum',
  quantity_above_maximum: 'Quantity is above the maximum',
};

/** Puts a checked order into its book and settles what it traded. */
export function enterOrder(
  ctx: DecideContext,
  spec: FuturesMarketSpec,
  order: FuturesOrderState,
): Result<FuturesOrderState> {
  const sequence = ctx.nextSequence();
  const engine = ctx.state.engine(spec.id);
  const result = engine.apply(placeCommand(order, sequence, ctx.markOf(spec.id), ctx.now));
  if (result.status === 'rejected') {
    const message = ENGINE_REJECTIONS[result.reason] ?? `Order rejected: ${result.reason}`;
    const code = result.reason.includes('price') ? 'INVALID_PRICE' : 'ORDER_REJECTED';
    return fail(code, { message, details: { reason: result.reason } });
  }
  order.sequence = sequence;
  ctx.state.orders.set(order.id, order);
  ctx.batch.touchOrder(order);
  applyEvents(ctx, spec.id, result.events);
  return ok(order);
}

/** Cancels an open order in its book (its events settle as usual). */
export function cancelInBook(ctx: DecideContext, order: FuturesOrderState): void {
  const result = ctx.state.engine(order.marketId).apply({
    kind: 'cancel',
    sequence: ctx.nextSequence(),
    timestampMs: ctx.now.getTime(),
    orderId: order.id,
    accountId: order.accountId,
  });
  if (result.status === 'accepted') {
    applyEvents(ctx, order.marketId, result.events);
    return;
  }
  // The book no longer holds it: it ends here all the same.
  order.status = 'cancelled';
  order.orderMargin = 0n;
  order.updatedAt = ctx.now;
  ctx.batch.touchOrder(order);
  ctx.state.orders.delete(order.id);
}
