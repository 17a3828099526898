import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { setAccountRole } from '../kyc/grant-role-command.ts';
import { decodeJournal, encodeJournal } from './journal.ts';
import { futuresTrader, order, setIndex } from './test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

describe('journal codec', () => {
  it('keeps bigints as bigints and leaves look-alike text alone', () => {
    const value = { amount: 123_456_789_012_345_678_901n, negative: -5n, text: '{"$bigint":"1"}', list: [1n, 'x'] };
    expect(decodeJournal(encodeJournal(value))).toEqual(value);
    // An object with more keys than $bigint is not a bigint.
    expect(decodeJournal('{"a":{"$bigint":"1","b":2}}')).toEqual({ a: { $bigint: '1', b: 2 } });
    expect(decodeJournal('{"a":{"$bigint":"1.5"}}')).toEqual({ a: { $bigint: '1.5' } });
  });
});

describeEachDatabase(
  'futures journal replay',
  (server) => {
    let admin: SignedUp;
    const check = () => server().request('GET', '/v1/admin/futures/state-check', { token: admin.session.token });
    beforeAll(async () => {
      await server().services.futures.workers.funding.stop();
      server().services.futures.workers.marks.stop();
      setIndex(server(), 'BTC', '60000');
      server().services.futures.workers.marks.sampleAll();
      admin = await signUp(server());
      await setAccountRole(server().db, admin.email, 'admin');
      const maker = await futuresTrader(server(), '20000');
      const taker = await futuresTrader(server(), '20000');
      const put = (path: string, body: unknown) => server().request('PUT', path, { token: taker.token, body });
      expect((await put('/v1/futures/markets/BTC_USD_PERP/leverage', { leverage: 50 })).status).toBe(200);
      for (const price of ['60010', '60020', '60030']) {
        expect((await order(server(), maker, { side: 'sell', type: 'limit', price, quantity: '0.2' })).status).toBe(
          201,
        );
      }
      expect((await order(server(), taker, { side: 'buy', type: 'market', quantity: '0.3' })).status).toBe(201);
      expect(
        (await order(server(), maker, { side: 'buy', type: 'limit', price: '59000', quantity: '0.1' })).status,
      ).toBe(201);
      setIndex(server(), 'BTC', '61000');
      server().services.futures.workers.marks.sampleAll();
      const tpsl = await put('/v1/futures/positions/BTC_USD_PERP/tpsl', { take_profit: '65000', stop_loss: '58000' });
      expect(tpsl.status, JSON.stringify(tpsl.body)).toBe(200);
    });

    it('finds the memory, the rows and a clean replay of the journal equal', async () => {
      const response = await check();
      expect(response.status).toBe(200);
      expect(response.body.differences).toEqual([]);
      expect(response.body.equal).toBe(true);
      expect(response.body.memory).toMatch(/^[0-9a-f]{64}$/);
    });

    it('keeps the time priority a modify gives (a restart queues the order where the book did)', async () => {
      const [first, second] = [await futuresTrader(server(), '5000'), await futuresTrader(server(), '5000')];
      const sell = (trader: typeof first) =>
        order(server(), trader, { side: 'sell', type: 'limit', price: '62500', quantity: '0.01' });
      const a = await sell(first);
      expect((await sell(second)).status).toBe(201);
      const modify = (body: unknown) =>
        server().request('PUT', `/v1/futures/orders/${a.body.id}`, { token: first.token, body });
      // A larger quantity sends the first order behind the second at the same price.
      expect((await modify({ quantity: '0.02' })).status).toBe(200);
      const response = await check();
      expect(response.body.differences).toEqual([]);
      expect(response.body.equal).toBe(true);
    });

    it('names the difference when a row no longer matches the journal', async () => {
      await server().db.query(
        `UPDATE futures_orders SET price = price + 1 WHERE status IN ('pending', 'partial') AND type = 'limit'`,
      );
      const tampered = await check();
      expect(tampered.body.equal).toBe(false);
      expect(tampered.body.differences.some((line: string) => line.startsWith('- order|'))).toBe(true);
      await server().db.query(
        `UPDATE futures_orders SET price = price - 1 WHERE status IN ('pending', 'partial') AND type = 'limit'`,
      );
      expect((await check()).body.equal).toBe(true);
    });

    it('reports a journal the code does not decide alike', async () => {
      const last = await server().db.query<{ sequence: string }>(
        `SELECT sequence::text AS sequence FROM futures_journal WHERE kind = 'place' ORDER BY futures_journal.sequence LIMIT 1`,
      );
      const sequence = last.rows[0]!.sequence;
      await server().db.query(
        `UPDATE futures_journal SET payload = jsonb_set(payload, '{request,quantity}', '"99999"') WHERE sequence = $1`,
        [sequence],
      );
      const diverged = await check();
      expect(diverged.body.equal).toBe(false);
      expect(diverged.body.differences.join(' ')).toMatch(/accepted live but refused in the replay|differ|order/);
    });

    it('is for admins only', async () => {
      const user = await signUp(server());
      const refused = await server().request('GET', '/v1/admin/futures/state-check', { token: user.session.token });
      expect(refused.status).toBe(403);
      expect((await server().request('GET', '/v1/admin/futures/state-check')).status).toBe(401);
    });
  },
  ENVIRONMENT,
);
