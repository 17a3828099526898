import type { FuturesOrder, MarginMode, PlaceFuturesOrderRequest } from '@platform/contracts';
import type { Database } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { DecideContext } from './context.ts';
import type { FuturesCore } from './exchange.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { cancelInBook, checkOrder, enterOrder, newOrder } from './orders.ts';
import { type ParsedOrder, parseOrder } from './parse.ts';
import { type OrderRow, orderFromRow, orderView } from './rows.ts';
import type { FuturesOrderState } from './types.ts';

export type Placed = { order: FuturesOrder; created: boolean };

/** Order entry over the exchange's queue: place, cancel, cancel all (the routes and the house's bots use these). */
export class FuturesOrders {
  constructor(
    private readonly db: Database,
    private readonly core: FuturesCore,
    private readonly markets: ReadonlyMap<string, FuturesMarketSpec>,
  ) {}

  market(marketId: string): Result<FuturesMarketSpec> {
    const spec = this.markets.get(marketId.toUpperCase());
    return spec ? ok(spec) : fail('FUTURES_MARKET_NOT_FOUND');
  }

  async placeOrder(accountId: string, body: PlaceFuturesOrderRequest, origin: FuturesOrderState['origin'] = 'user') {
    const spec = this.market(body.market);
    if (!spec.ok) return spec;
    const parsed = parseOrder(spec.value, body);
    if (!parsed.ok) return parsed;
    const request = parsed.value;
    return this.core.submit<Placed>({
      kind: 'place',
      payload: { accountId, request: body, origin },
      accounts: [accountId],
      prepare: () => this.existing(accountId, spec.value, request),
      decide: (ctx) => place(ctx, accountId, spec.value, request, origin),
    });
  }

  /** A repeated client order id answers the first order. */
  private async existing(
    accountId: string,
    spec: FuturesMarketSpec,
    request: ParsedOrder,
  ): Promise<Result<Placed> | null> {
    if (request.clientOrderId === null) return null;
    const row = await this.db.query<OrderRow>(
      'SELECT * FROM futures_orders WHERE account_id = $1 AND client_order_id = $2',
      [accountId, request.clientOrderId],
    );
    const found = row.rows[0];
    if (!found) return null;
    const first = this.markets.get(found.market_id) ?? spec;
    if (found.market_id !== request.marketId || found.side !== request.side || found.type !== request.type) {
      return fail('IDEMPOTENCY_CONFLICT');
    }
    return ok({ order: orderView(first, orderFromRow(first, found)), created: false });
  }

  cancelOrder(accountId: string, orderId: string): Promise<Result<FuturesOrder>> {
    return this.core.submit<FuturesOrder>({
      kind: 'cancel',
      payload: { accountId, orderId },
      accounts: [accountId],
      prepare: async () =>
        this.core.state.orders.get(orderId)?.accountId === accountId ? null : this.closedOrMissing(accountId, orderId),
      decide: (ctx) => {
        const order = ctx.state.orders.get(orderId);
        if (!order || order.accountId !== accountId) return fail('ORDER_NOT_OPEN');
        cancelInBook(ctx, order);
        return ok(orderView(ctx.state.markets.get(order.marketId)!, order));
      },
    });
  }

  private async closedOrMissing(accountId: string, orderId: string): Promise<Result<FuturesOrder>> {
    if (!/^[0-9a-f-]{36}$/i.test(orderId)) return fail('ORDER_NOT_FOUND');
    const row = await this.db.query<{ id: string }>('SELECT id FROM futures_orders WHERE id = $1 AND account_id = $2', [
      orderId,
      accountId,
    ]);
    return fail(row.rows.length > 0 ? 'ORDER_NOT_OPEN' : 'ORDER_NOT_FOUND');
  }

  cancelAll(accountId: string, marketId: string | null): Promise<Result<FuturesOrder[]>> {
    return this.core.submit<FuturesOrder[]>({
      kind: 'cancel_all',
      payload: { accountId, marketId },
      accounts: [accountId],
      decide: (ctx) => {
        const cancelled: FuturesOrder[] = [];
        for (const order of ctx.state.openOrdersOf(accountId, marketId ?? undefined)) {
          if (order.origin === 'tpsl') continue;
          cancelInBook(ctx, order);
          cancelled.push(orderView(ctx.state.markets.get(order.marketId)!, order));
        }
        return ok(cancelled);
      },
    });
  }

  /** The open orders of an account in a market, as the API shows them (from memory). */
  openOrders(accountId: string, marketId: string): FuturesOrder[] {
    const spec = this.markets.get(marketId);
    if (!spec) return [];
    return this.core.state.openOrdersOf(accountId, marketId).map((order) => orderView(spec, order));
  }
}

/** Checks, enters and settles one new order; a repeat of a client id within the batch answers the first. */
function place(
  ctx: DecideContext,
  accountId: string,
  spec: FuturesMarketSpec,
  request: ParsedOrder,
  origin: FuturesOrderState['origin'],
): Result<Placed> {
  if (request.clientOrderId !== null) {
    for (const order of ctx.batch.orders.values()) {
      if (order.accountId === accountId && order.clientOrderId === request.clientOrderId) {
        return ok({ order: orderView(spec, order), created: false });
      }
    }
  }
  const checked = checkOrder(ctx, accountId, request);
  if (!checked.ok) return checked;
  const order = newOrder(ctx, accountId, checked.value, origin);
  const entered = enterOrder(ctx, spec, order);
  if (!entered.ok) return entered;
  return ok({ order: orderView(spec, order), created: true });
}

export type { MarginMode };
