import { type MarketEvent, perp } from '@platform/engine';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { type DecideContext, protectionTicks } from './context.ts';
import { applyEvents } from './engine-events.ts';
import { isMarketLike, placeCommand } from './engine-orders.ts';
import type { FuturesMarketSpec } from './markets.ts';
import type { ParsedOrder } from './parse.ts';
import { beyond, closingBound, openLoss } from './price-guards.ts';
import { crossOf } from './risk.ts';
import { type FuturesOrderState, type FuturesOrigin, followsPosition } from './types.ts';
import { waitRejection, waits } from './waiting.ts';

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
  const bounded = boundClose(ctx, accountId, { ...order, quantityLots: lots! }, price);
  if (!bounded.ok) return bounded;
  const sized = bounded.value;
  if (order.closePosition) return ok({ order: sized, orderMargin: 0n });
  const available = crossOf(state, accountId, ctx.markOf).available;
  const setting = state.setting(accountId, order.marketId);
  const result = perp.preTradeCheck({
    spec,
    tiers: spec.tiers,
    leverage: setting.leverage,
    mode: setting.mode,
    position: { sizeLots: position.sizeLots, costTickLots: position.costTickLots },
    openOrders: othersCounted(ctx, accountId, order).map((o) => ({
      side: o.side,
      remainingLots: o.quantityLots - o.filledLots,
      priceTicks: o.priceTicks ?? o.stopTicks ?? price,
      reduceOnly: o.reduceOnly,
    })),
    order: { side: order.side, lots: lots!, priceTicks: price, reduceOnly: order.reduceOnly, feeRate: spec.takerFee },
    available,
  });
  if (!result.ok) return fail(REJECTIONS[result.reason]);
  return capOpenLoss(spec, sized, { price, mark: mark ?? price, available, check: result });
}

/**
 * The account's open orders the check counts. TP/SL and close-position orders close whatever the
 * position is when they trade (they follow it, upkeep.ts), so they leave the reduce-only room to a
 * reduce-only order, as Binance's do (else a TP could never trigger beside its SL). A reduce-only
 * order's room is all its check looks at (it opens nothing and is never refused for leverage).
 */
function othersCounted(ctx: DecideContext, accountId: string, order: ParsedOrder) {
  const open = ctx.state.openOrdersOf(accountId, order.marketId);
  return order.reduceOnly ? open.filter((o) => !followsPosition(o)) : open;
}

type OpenLossInput = {
  price: number;
  mark: number;
  available: bigint;
  check: { openingLots: number; orderMargin: bigint };
};

/**
 * Open loss (price-guards.ts): a limit priced through the mark must have its loss covered; a market
 * order's protection is tightened so that the most it can lose at once stays within what is
 * available after its margin (it fills through the book up to that price and no further).
 */
function capOpenLoss(spec: FuturesMarketSpec, order: Sized, input: OpenLossInput): Result<Checked> {
  const { price, mark, available, check } = input;
  const budget = available - check.orderMargin;
  if (order.type === 'market' && check.openingLots > 0) {
    const perTick = perp.notionalMoney(spec, 1, check.openingLots);
    const through = Number(budget / perTick);
    const cap = order.side === 'buy' ? mark + through : Math.max(1, mark - through);
    const protection = order.side === 'buy' ? Math.min(price, cap) : Math.max(price, cap);
    const bounded = {
      ...order,
      priceTicks:
        order.priceTicks === null
          ? protection
          : order.side === 'buy'
            ? Math.min(order.priceTicks, protection)
            : Math.max(order.priceTicks, protection),
    };
    const extra = openLoss(spec, order.side, check.openingLots, bounded.priceTicks, mark);
    return ok({ order: bounded, orderMargin: check.orderMargin + extra });
  }
  const extra = openLoss(spec, order.side, check.openingLots, price, mark);
  if (extra > 0n && extra > budget) return fail('INSUFFICIENT_MARGIN');
  return ok({ order, orderMargin: check.orderMargin + extra });
}

type Sized = ParsedOrder & { quantityLots: number };

/** The bankruptcy bound of a closing order (price-guards.ts): a limit beyond it refused, a market close capped at it. */
function boundClose(ctx: DecideContext, accountId: string, order: Sized, price: number): Result<Sized> {
  const position = ctx.state.position(accountId, order.marketId);
  const bound = closingBound(ctx.state, position, order.side, ctx.markOf);
  if (bound === null || !beyond(order.side, price, bound)) return ok(order);
  // A market order's price is its protection: the engine trades it as an IOC limit there.
  if (order.type === 'market') return ok({ ...order, priceTicks: bound });
  if (isMarketLike(order.type)) return ok(order);
  return fail('INSUFFICIENT_MARGIN', { message: "This price is beyond your position's bankruptcy price" });
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
    id: ctx.newId(),
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
  invalid_time_in_force: 'Stop and take-profit orders are GTC only',
};

/** The book's refusal (or a waiting order's, waiting.ts) as the API answers it. */
export function bookRejection(reason: string) {
  const message = ENGINE_REJECTIONS[reason] ?? `Order rejected: ${reason}`;
  const code = reason.includes('price') ? 'INVALID_PRICE' : 'ORDER_REJECTED';
  return fail(code, { message, details: { reason } });
}

/**
 * Puts a checked order into its book and settles what it traded. A stop or take-profit order
 * waits for its trigger in memory instead (waiting.ts), never in the book.
 */
export function enterOrder(
  ctx: DecideContext,
  spec: FuturesMarketSpec,
  order: FuturesOrderState,
): Result<FuturesOrderState> {
  const sequence = ctx.nextSequence();
  const engine = ctx.state.engine(spec.id);
  if (waits(order)) {
    const reason = waitRejection(engine, spec, order, { markTicks: ctx.markOf(spec.id), bandBps: ctx.bandBps });
    if (reason !== null) return bookRejection(reason);
    applyBook(ctx, spec, order, sequence, []);
    return ok(order);
  }
  const result = engine.apply(placeCommand(order, sequence, ctx.markOf(spec.id), ctx.now));
  if (result.status === 'rejected') return bookRejection(result.reason);
  applyBook(ctx, spec, order, sequence, result.events);
  return ok(order);
}

function applyBook(
  ctx: DecideContext,
  spec: FuturesMarketSpec,
  order: FuturesOrderState,
  sequence: number,
  events: readonly MarketEvent[],
): void {
  order.sequence = sequence;
  ctx.state.orders.set(order.id, order);
  ctx.batch.touchOrder(order);
  applyEvents(ctx, spec.id, events);
}

/** Cancels an open order in its book (its events settle as usual); a waiting order is only in memory. */
export function cancelInBook(ctx: DecideContext, order: FuturesOrderState): void {
  if (!waits(order)) {
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
  }
  // A waiting order, or one the book no longer holds: it ends here all the same.
  endOrder(ctx, order, 'cancelled', null);
}

/** Ends an open order that the book does not hold (it leaves the memory; its row keeps the outcome). */
export function endOrder(
  ctx: DecideContext,
  order: FuturesOrderState,
  status: 'cancelled' | 'expired' | 'rejected',
  reason: string | null,
): void {
  order.status = status;
  if (reason !== null) order.rejectReason = reason;
  order.orderMargin = 0n;
  order.updatedAt = ctx.now;
  ctx.batch.touchOrder(order);
  ctx.state.orders.delete(order.id);
}
