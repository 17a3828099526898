import type { FuturesOrder, MarginMode, PlaceFuturesOrderRequest } from '@platform/contracts';
import type { Database } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { PlacePayload } from './commands.ts';
import type { FuturesCore } from './exchange.ts';
import type { FuturesMarketSpec } from './markets.ts';
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
    const payload: PlacePayload = { accountId, request: body, origin };
    return this.core.command<Placed>('place', payload, {
      accounts: [accountId],
      prepare: () => this.existing(accountId, spec.value, request),
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
    return this.core.command<FuturesOrder>(
      'cancel',
      { accountId, orderId },
      {
        accounts: [accountId],
        prepare: async () =>
          this.core.state.orders.get(orderId)?.accountId === accountId
            ? null
            : this.closedOrMissing(accountId, orderId),
      },
    );
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
    return this.core.command<FuturesOrder[]>('cancel_all', { accountId, marketId }, { accounts: [accountId] });
  }

  /** The open orders of an account in a market, as the API shows them (from memory). */
  openOrders(accountId: string, marketId: string): FuturesOrder[] {
    const spec = this.markets.get(marketId);
    if (!spec) return [];
    return this.core.state.openOrdersOf(accountId, marketId).map((order) => orderView(spec, order));
  }
}

export type { MarginMode };
