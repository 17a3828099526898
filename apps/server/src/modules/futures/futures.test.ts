import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { balance } from '../trading/test-support.ts';
import { account, futuresTrader, order, positions, setIndex, type Trader } from './test-support.ts';
import { storedUnits } from './units.ts';

/** A USD amount as exact money units (10^-8 USD). */
const usd = (text: string) => storedUnits(text, 8);
const total = (...amounts: string[]) => amounts.reduce((sum, amount) => sum + usd(amount), 0n);

/** The price feed off: the tests set the index themselves; no rate limit on the bursts. */
const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

describeEachDatabase(
  'futures transfers',
  (server) => {
    // The funding timer pays a round as soon as a mark exists: these tests pay their own rounds.
    beforeAll(() => server().services.futures.workers.funding.stop());
    it('moves USD both ways, refuses what is not transferable, and repeats a client id', async () => {
      const a = await futuresTrader(server(), '1000');
      expect((await account(server(), a)).wallet_balance).toBe('1000');
      expect((await balance(server(), a.id, 'USD')).available).toBe('0');
      const tooMuch = await server().request('POST', '/v1/futures/transfers', {
        token: a.token,
        body: { direction: 'to_spot', amount: '1000.01' },
      });
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.body.error.code).toBe('TRANSFER_EXCEEDS_AVAILABLE');
      const body = { direction: 'to_spot', amount: '100', client_transfer_id: 'back-1' };
      const first = await server().request('POST', '/v1/futures/transfers', { token: a.token, body });
      const again = await server().request('POST', '/v1/futures/transfers', { token: a.token, body });
      expect([first.status, again.status]).toEqual([201, 200]);
      expect(again.body.id).toBe(first.body.id);
      expect((await balance(server(), a.id, 'USD')).available).toBe('100');
      const spotShort = await server().request('POST', '/v1/futures/transfers', {
        token: a.token,
        body: { direction: 'to_futures', amount: '100.01' },
      });
      expect(spotShort.body.error.code).toBe('INSUFFICIENT_BALANCE');
    });

    it('answers VALIDATION_ERROR to malformed amounts and changes nothing', async () => {
      const a = await futuresTrader(server(), '50');
      for (const amount of ['-1', '0', '1e3', '0.000000001', '12\u00003', '99999999999999999999', 'abc', 1e300]) {
        const response = await server().request('POST', '/v1/futures/transfers', {
          token: a.token,
          body: { direction: 'to_spot', amount },
        });
        expect(response.status, String(amount)).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
      }
      expect((await account(server(), a)).wallet_balance).toBe('50');
    });

    it('300 concurrent transfers to spot never take more than is transferable', async () => {
      const a = await futuresTrader(server(), '1000');
      const responses = await Promise.all(
        Array.from({ length: 300 }, () =>
          server().request('POST', '/v1/futures/transfers', {
            token: a.token,
            body: { direction: 'to_spot', amount: '7' },
          }),
        ),
      );
      const done = responses.filter((r) => r.status === 201).length;
      expect(done).toBe(142);
      expect(
        responses.filter((r) => r.status === 422).every((r) => r.body.error.code === 'TRANSFER_EXCEEDS_AVAILABLE'),
      ).toBe(true);
      expect((await account(server(), a)).wallet_balance).toBe(String(1000 - 7 * 142));
      expect((await balance(server(), a.id, 'USD')).available).toBe(String(7 * 142));
    });
  },
  ENVIRONMENT,
);

async function trade(
  s: ReturnType<Parameters<Parameters<typeof describeEachDatabase>[1]>[0]>,
  maker: Trader,
  taker: Trader,
  side: 'buy' | 'sell',
  price: string,
  quantity: string,
  takerBody: Record<string, unknown> = {},
) {
  const resting = await order(s, maker, { side: side === 'buy' ? 'sell' : 'buy', type: 'limit', price, quantity });
  expect(resting.status, JSON.stringify(resting.body)).toBe(201);
  const taken = await order(s, taker, { side, type: 'market', quantity, ...takerBody });
  expect(taken.status, JSON.stringify(taken.body)).toBe(201);
  expect(taken.body.status).toBe('filled');
  return taken.body;
}

describeEachDatabase(
  'futures positions through the book',
  (server) => {
    // The funding timer pays a round as soon as a mark exists: these tests pay their own rounds.
    beforeAll(() => server().services.futures.workers.funding.stop());
    it('opens, adds, reduces, flips and closes with exact entry, P&L and fees', async () => {
      setIndex(server(), 'BTC', '50000');
      const a = await futuresTrader(server(), '10000');
      const b = await futuresTrader(server(), '10000');
      // Open: A buys 0.1 at 50,000 from B's ask. Fees: taker 5,000 x 0.04 % = 2, maker 5,000 x 0.02 % = 1.
      await trade(server(), b, a, 'buy', '50000', '0.1');
      let [long] = await positions(server(), a);
      expect(long).toMatchObject({ side: 'long', size: '0.1', entry_price: '50000', unrealised_pnl: '0' });
      // Add: 0.1 more at 51,000 -> entry (5,000 + 5,100) / 0.2 = 50,500. Fees 2.04 and 1.02.
      await trade(server(), b, a, 'buy', '51000', '0.1');
      [long] = await positions(server(), a);
      expect(long).toMatchObject({ size: '0.2', entry_price: '50500' });
      // Reduce: A's ask of 0.05 at 52,000 taken by B: A realises 0.05 x 1,500 = 75, B loses 75. Fees A 0.52, B 1.04.
      await trade(server(), a, b, 'buy', '52000', '0.05');
      [long] = await positions(server(), a);
      expect(long).toMatchObject({ size: '0.15', entry_price: '50500', realised_pnl: '75' });
      // Flip: A sells 0.3 at 52,000 into B's bid: closes 0.15 (+225) and opens a 0.15 short at 52,000. Fees A 6.24, B 3.12.
      await trade(server(), b, a, 'sell', '52000', '0.3');
      const [short] = await positions(server(), a);
      expect(short).toMatchObject({ side: 'short', size: '0.15', entry_price: '52000' });
      // Close: A's close-position buy at 50,000 from B's ask: +300 for A, -300 for B. Fees A 3, B 1.5.
      await trade(server(), b, a, 'buy', '50000', '0.15', { quantity: undefined, close_position: true });
      expect(await positions(server(), a)).toEqual([]);
      expect(await positions(server(), b)).toEqual([]);
      const aFees = total('2', '2.04', '0.52', '6.24', '3');
      const bFees = total('1', '1.02', '1.04', '3.12', '1.5');
      const aWallet = total('10000', '75', '225', '300') - aFees;
      const bWallet = usd('10000') - total('75', '225', '300') - bFees;
      // 10,586.2 and 9,393.32: with the 20.48 of fees, the 20,000 paid in.
      expect(aWallet + bWallet + aFees + bFees).toBe(usd('20000'));
      expect(usd((await account(server(), a)).wallet_balance)).toBe(aWallet);
      expect(usd((await account(server(), b)).wallet_balance)).toBe(bWallet);
      const fills = await server().request('GET', '/v1/futures/fills?limit=100', { token: a.token });
      expect(fills.body.fills).toHaveLength(5);
      const income = await server().request('GET', '/v1/futures/income?type=realised_pnl', { token: a.token });
      expect(income.body.income.map((row: { amount: string }) => row.amount).sort()).toEqual(['225', '300', '75']);
    });

    it('refuses reduce-only that would increase, leverage above the tier, and orders beyond the margin', async () => {
      setIndex(server(), 'BTC', '50000');
      const c = await futuresTrader(server(), '10000');
      const reduce = await order(server(), c, {
        side: 'sell',
        type: 'limit',
        price: '50000',
        quantity: '0.01',
        reduce_only: true,
      });
      expect(reduce.body.error.code).toBe('REDUCE_ONLY_WOULD_INCREASE');
      // 1.1 BTC at 50,000 is 55,000 of notional: above the 100x tier's cap of 50,000.
      const resting = await order(server(), c, { side: 'buy', type: 'limit', price: '50000', quantity: '1.1' });
      expect(resting.status).toBe(201);
      const tooHigh = await server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/leverage', {
        token: c.token,
        body: { leverage: 100 },
      });
      expect(tooHigh.status).toBe(422);
      expect(tooHigh.body.error).toMatchObject({
        code: 'LEVERAGE_TOO_HIGH',
        message: 'Leverage exceeds the maximum for this position size',
      });
      const fine = await server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/leverage', {
        token: c.token,
        body: { leverage: 50 },
      });
      expect(fine.body).toMatchObject({ leverage: 50, margin_mode: 'cross' });
      const poor = await futuresTrader(server(), '100');
      const big = await order(server(), poor, { side: 'buy', type: 'limit', price: '50000', quantity: '1' });
      expect(big.body.error).toMatchObject({ code: 'INSUFFICIENT_MARGIN', message: 'Insufficient margin' });
      const locked = await server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/margin-mode', {
        token: c.token,
        body: { margin_mode: 'isolated' },
      });
      expect(locked.body.error.code).toBe('MARGIN_MODE_LOCKED');
      const all = await server().request('DELETE', '/v1/futures/orders?market=BTC_USD_PERP', { token: c.token });
      expect(all.body.cancelled.map((o: { id: string }) => o.id)).toEqual([resting.body.id]);
      expect((await account(server(), c)).order_margin).toBe('0');
    });

    it('adds and removes isolated margin within the initial margin', async () => {
      setIndex(server(), 'BTC', '50000');
      const e = await futuresTrader(server(), '1000');
      const f = await futuresTrader(server(), '1000');
      const mode = await server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/margin-mode', {
        token: e.token,
        body: { margin_mode: 'isolated' },
      });
      expect(mode.body.margin_mode).toBe('isolated');
      await trade(server(), f, e, 'buy', '50000', '0.1');
      // Isolated 20x: 5,000 / 20 = 250 posted at the fill.
      expect((await account(server(), e)).isolated_margin).toBe('250');
      const margin = (action: string, amount: string) =>
        server().request('POST', '/v1/futures/positions/BTC_USD_PERP/margin', {
          token: e.token,
          body: { action, amount },
        });
      expect((await margin('add', '100')).body.margin).toBe('350');
      expect((await margin('remove', '100.01')).body.error.code).toBe('INSUFFICIENT_MARGIN');
      expect((await margin('remove', '100')).body.margin).toBe('250');
      expect((await account(server(), e)).wallet_balance).toBe('998');
    });

    it('cancels, repeats client ids, and hides other accounts orders', async () => {
      setIndex(server(), 'BTC', '50000');
      const g = await futuresTrader(server(), '1000');
      const h = await futuresTrader(server(), '1000');
      const body = { side: 'buy', type: 'limit', price: '49000', quantity: '0.01', client_order_id: 'mine-1' };
      const first = await order(server(), g, body);
      const again = await order(server(), g, body);
      expect([first.status, again.status]).toEqual([201, 200]);
      expect(again.body.id).toBe(first.body.id);
      const foreign = await server().request('DELETE', `/v1/futures/orders/${first.body.id}`, { token: h.token });
      expect(foreign.status).toBe(404);
      expect((await server().request('GET', `/v1/futures/orders/${first.body.id}`, { token: h.token })).status).toBe(
        404,
      );
      const cancelled = await server().request('DELETE', `/v1/futures/orders/${first.body.id}`, { token: g.token });
      expect(cancelled.body.status).toBe('cancelled');
      const twice = await server().request('DELETE', `/v1/futures/orders/${first.body.id}`, { token: g.token });
      expect(twice.body.error.code).toBe('ORDER_NOT_OPEN');
      expect((await account(server(), g)).order_margin).toBe('0');
    });
  },
  ENVIRONMENT,
);
