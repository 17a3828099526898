import { beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { InProcessPubSub } from '../../realtime/pubsub.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { systemBalance } from '../ledger/service.ts';
import { futuresTrader, order, positions, setIndex, type Trader } from './test-support.ts';
import { storedUnits } from './units.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

async function cross(
  server: TestServer,
  maker: Trader,
  taker: Trader,
  side: 'buy' | 'sell',
  price: string,
  quantity: string,
) {
  const resting = await order(server, maker, { side: side === 'buy' ? 'sell' : 'buy', type: 'limit', price, quantity });
  expect(resting.status, JSON.stringify(resting.body)).toBe(201);
  const taken = await order(server, taker, { side, type: 'market', quantity });
  expect(taken.body.status, JSON.stringify(taken.body)).toBe('filled');
}

const fundingOf = async (server: TestServer, trader: Trader) => {
  const income = await server.request('GET', '/v1/futures/income?type=funding', { token: trader.token });
  return (income.body.income as { amount: string }[]).reduce((sum, row) => sum + storedUnits(row.amount, 8), 0n);
};

describeEachDatabase(
  'futures funding and restart',
  (server) => {
    // The funding timer pays a round as soon as a mark exists: these tests pay their own rounds.
    beforeAll(() => server().services.futures.workers.funding.stop());
    it('a funding round with unequal sides sums to zero, the residual to the insurance fund, once', async () => {
      setIndex(server(), 'BTC', '50000.1');
      const [g, h, i] = [
        await futuresTrader(server(), '1000'),
        await futuresTrader(server(), '1000'),
        await futuresTrader(server(), '1000'),
      ];
      await cross(server(), i, g, 'buy', '50000.1', '0.003');
      await cross(server(), i, h, 'buy', '50000.1', '0.007');
      const fundBefore = storedUnits((await systemBalance(server().db, 'insurance_fund', 'USD')).available, 8);
      const { exchange } = server().services.futures;
      // Rate 0.012345 % at mark 50,000.1: longs pay ceil(size x mark x rate), the short receives floor.
      const round = await exchange.settleFunding('BTC_USD_PERP', 12_345n, 500_001, 1_800_000_000_000);
      expect(round.ok).toBe(true);
      const [paidG, paidH, gotI] = [
        await fundingOf(server(), g),
        await fundingOf(server(), h),
        await fundingOf(server(), i),
      ];
      // 0.003 x 50,000.1 x 0.00012345 = 0.018517537... -> 0.01851754 paid; 0.007 x ... = 0.043207586... -> 0.04320759.
      expect([paidG, paidH]).toEqual([-1_851_754n, -4_320_759n]);
      // The short receives floor(0.01 x 50,000.1 x 0.00012345) = 0.06172512.
      expect(gotI).toBe(6_172_512n);
      const fundAfter = storedUnits((await systemBalance(server().db, 'insurance_fund', 'USD')).available, 8);
      expect(paidG + paidH + gotI + (fundAfter - fundBefore)).toBe(0n);
      expect(fundAfter - fundBefore).toBe(1n);
      const again = await exchange.settleFunding('BTC_USD_PERP', 12_345n, 500_001, 1_800_000_000_000);
      expect(again.ok).toBe(false);
      const history = await server().request('GET', '/v1/futures/markets/BTC_USD_PERP/funding');
      expect(history.body.rounds[0]).toMatchObject({ funding_rate: '0.00012345', total_paid: '0.06172513' });
    });

    it('a batch whose write fails changes nothing: its callers hear so, the memory is reloaded', async () => {
      setIndex(server(), 'XRP', '0.5');
      const a = await futuresTrader(server(), '100');
      const db = server().db;
      const original = db.transaction.bind(db);
      db.transaction = (async () => {
        db.transaction = original;
        throw new Error('disk full');
      }) as typeof db.transaction;
      const failed = await order(server(), a, {
        market: 'XRP_USD_PERP',
        side: 'buy',
        type: 'limit',
        price: '0.49',
        quantity: '100',
      });
      db.transaction = original;
      expect(failed.status).toBe(503);
      expect(failed.body.error.code).toBe('ORDER_PLACEMENT_FAILED');
      const account = (await server().request('GET', '/v1/futures/account', { token: a.token })).body;
      expect(account).toMatchObject({ wallet_balance: '100', order_margin: '0' });
      expect((await server().request('GET', '/v1/futures/markets/XRP_USD_PERP/orderbook')).body.bids).toEqual([]);
      const placed = await order(server(), a, {
        market: 'XRP_USD_PERP',
        side: 'buy',
        type: 'limit',
        price: '0.49',
        quantity: '100',
      });
      expect(placed.status).toBe(201);
      expect((await server().request('GET', '/v1/futures/markets/XRP_USD_PERP/orderbook')).body.bids).toEqual([
        ['0.49', '100'],
      ]);
    });

    it('keeps positions, open orders and their books across a restart on the same database', async () => {
      setIndex(server(), 'ETH', '3000');
      const j = await futuresTrader(server(), '5000');
      const k = await futuresTrader(server(), '5000');
      const resting = async (trader: Trader, side: string, price: string) => {
        const placed = await server().request('POST', '/v1/futures/orders', {
          token: trader.token,
          body: { market: 'ETH_USD_PERP', side, type: 'limit', price, quantity: '0.5' },
        });
        expect(placed.status).toBe(201);
        return placed.body.id as string;
      };
      await resting(k, 'sell', '3000');
      const taken = await server().request('POST', '/v1/futures/orders', {
        token: j.token,
        body: { market: 'ETH_USD_PERP', side: 'buy', type: 'market', quantity: '0.5' },
      });
      expect(taken.body.status).toBe('filled');
      const first = await resting(j, 'buy', '2990');
      const second = await resting(k, 'buy', '2990');
      const ask = await resting(k, 'sell', '3010');
      const bookBefore = (await server().request('GET', '/v1/futures/markets/ETH_USD_PERP/orderbook')).body;
      const positionsBefore = await positions(server(), j);
      const restarted = await restart(server());
      try {
        const book = await restarted.get('/v1/futures/markets/ETH_USD_PERP/orderbook');
        expect(book.bids).toEqual(bookBefore.bids);
        expect(book.asks).toEqual(bookBefore.asks);
        const after = await restarted.get('/v1/futures/positions', j.token);
        expect(after.positions).toEqual(positionsBefore);
        const open = await restarted.get('/v1/futures/orders?status=open', k.token);
        expect(open.orders.map((o: { id: string }) => o.id).sort()).toEqual([second, ask].sort());
        // Time priority survived: a sell of 0.5 at 2,990 fills j's bid (placed first), not k's.
        const hit = await restarted.post('/v1/futures/orders', k.token, {
          market: 'ETH_USD_PERP',
          side: 'sell',
          type: 'limit',
          price: '2990',
          quantity: '0.5',
          time_in_force: 'IOC',
        });
        expect(hit.status).toBe('filled');
        expect((await restarted.get(`/v1/futures/orders/${first}`, j.token)).status).toBe('filled');
        expect((await restarted.get(`/v1/futures/orders/${second}`, k.token)).status).toBe('pending');
      } finally {
        await restarted.close();
      }
    });
  },
  ENVIRONMENT,
);

/** Closes the test server's app and starts a new one on the same database (what a restart after kill -9 reads). */
async function restart(server: TestServer) {
  await server.app.close();
  const { app } = await buildApp({ ...server.context, pubsub: new InProcessPubSub() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return (await response.json()) as any;
  };
  return {
    get: (path: string, token?: string) => call('GET', path, token),
    post: (path: string, token: string, body: unknown) => call('POST', path, token, body),
    close: () => app.close(),
  };
}
