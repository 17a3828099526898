import type { Order } from '@platform/contracts';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { fund, placeOrder, setReferencePrice } from './test-support.ts';

type OrderList = { orders: Order[]; pagination: { page: number; limit: number; total: number } };

describeEachDatabase(
  'order reads: open orders and an order by id, from memory, never stale',
  (server) => {
    let seller: SignedUp;
    let buyer: SignedUp;

    async function openOrders(user: SignedUp, query = ''): Promise<OrderList> {
      const response = await server().request(
        'GET',
        `/v1/accounts/${user.session.account_id}/orders?status=open${query}`,
        {
          token: user.session.token,
        },
      );
      expect(response.status).toBe(200);
      return response.body as OrderList;
    }
    async function providerOpenOrders(user: SignedUp): Promise<Order[]> {
      const response = await server().request('GET', '/v1/triple-a/trade/orders/open', { token: user.session.token });
      expect(response.status).toBe(200);
      return response.body as Order[];
    }
    async function orderById(user: SignedUp, id: string) {
      return server().request('GET', `/v1/orders/${id}`, { token: user.session.token }) as Promise<{
        status: number;
        body: Order;
      }>;
    }
    async function providerOrderById(user: SignedUp, id: string): Promise<Order> {
      const response = await server().request('GET', `/v1/triple-a/trade/order/${id}`, { token: user.session.token });
      expect(response.status).toBe(200);
      return response.body as Order;
    }
    /** Every read of the order agrees with `expected`, and the open lists hold it exactly when it is open. */
    async function expectOrder(user: SignedUp, id: string, expected: Partial<Order>, open: boolean) {
      expect((await orderById(user, id)).body).toMatchObject(expected);
      expect(await providerOrderById(user, id)).toMatchObject(expected);
      const listed = (await openOrders(user)).orders.find((order) => order.id === id);
      const listedByProvider = (await providerOpenOrders(user)).find((order) => order.id === id);
      if (open) {
        expect(listed).toMatchObject(expected);
        expect(listedByProvider).toMatchObject(expected);
      } else {
        expect(listed).toBeUndefined();
        expect(listedByProvider).toBeUndefined();
      }
    }
    const sell = (price: string, quantity: string) =>
      placeOrder(server(), seller.session.token, {
        trading_pair: 'BTC_USD',
        side: 'sell',
        type: 'limit',
        price,
        quantity,
      });
    const buy = (price: string, quantity: string) =>
      placeOrder(server(), buyer.session.token, {
        trading_pair: 'BTC_USD',
        side: 'buy',
        type: 'limit',
        price,
        quantity,
      });

    beforeEach(async () => {
      setReferencePrice(server(), 'BTC_USD', '50000.00');
      seller = await signUp(server());
      buyer = await signUp(server());
      await fund(server(), seller.session.account_id, 'BTC', '2');
      await fund(server(), buyer.session.account_id, 'USD', '100000');
      // Read before anything happens, so that every change below has cached reads to leave behind.
      expect((await openOrders(seller)).orders).toEqual([]);
      expect((await openOrders(buyer)).orders).toEqual([]);
    });

    it('shows an order right after it is placed, partly filled and filled', async () => {
      const placed = await sell('50000.00', '0.5');
      expect(placed.status).toBe(201);
      await expectOrder(seller, placed.body.id, { status: 'pending', filled_quantity: '0.0000000' }, true);

      expect((await buy('50000.00', '0.2')).body.status).toBe('filled');
      await expectOrder(seller, placed.body.id, { status: 'partial', filled_quantity: '0.2000000' }, true);

      expect((await buy('50000.00', '0.3')).body.status).toBe('filled');
      await expectOrder(seller, placed.body.id, { status: 'filled', filled_quantity: '0.5000000' }, false);
      expect((await openOrders(buyer)).orders).toEqual([]);
    });

    it('shows an order right after it is modified and cancelled', async () => {
      const placed = await sell('51000.00', '0.5');
      await expectOrder(seller, placed.body.id, { status: 'pending', price: '51000.00' }, true);

      const modified = await server().request('PUT', `/v1/orders/${placed.body.id}/modify`, {
        token: seller.session.token,
        body: { price: '51500.00', quantity: '0.4' },
      });
      expect(modified.status).toBe(200);
      await expectOrder(seller, placed.body.id, { status: 'pending', price: '51500.00', quantity: '0.4000000' }, true);

      const cancelled = await server().request('POST', `/v1/orders/${placed.body.id}/cancel`, {
        token: seller.session.token,
      });
      expect(cancelled.status).toBe(200);
      await expectOrder(seller, placed.body.id, { status: 'cancelled' }, false);
    });

    it('filters and pages the open orders as the database would, and hides them from other accounts', async () => {
      await fund(server(), seller.session.account_id, 'USD', '1000');
      const first = await sell('51000.00', '0.1');
      const second = await sell('52000.00', '0.1');
      const bid = await placeOrder(server(), seller.session.token, {
        trading_pair: 'BTC_USD',
        side: 'buy',
        type: 'limit',
        price: '49000.00',
        quantity: '0.01',
      });
      expect(bid.status).toBe(201);
      const all = await openOrders(seller);
      expect(all.orders.map((order) => order.id)).toEqual([bid.body.id, second.body.id, first.body.id]);
      expect(all.pagination).toEqual({ page: 1, limit: expect.any(Number), total: 3 });
      const sells = await openOrders(seller, '&side=sell&limit=1&page=2');
      expect(sells.orders.map((order) => order.id)).toEqual([first.body.id]);
      expect(sells.pagination).toEqual({ page: 2, limit: 1, total: 2 });
      expect((await openOrders(seller, '&trading_pair=ETH_USD')).pagination.total).toBe(0);

      // The order is cached now; its id read by someone else still answers "not found".
      expect((await orderById(seller, first.body.id)).status).toBe(200);
      expect((await orderById(buyer, first.body.id)).status).toBe(404);
    });
  },
  // The feed is off so that the reference price is whatever a test sets.
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
