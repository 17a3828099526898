import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { account, futuresTrader, order, positions, setIndex, type Trader } from './test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

/**
 * Trading with oneself at a price far from the mark to move money out of the house: the loser's
 * account cannot pay, the insurance fund would make it good, and the other account keeps the gain.
 */
describeEachDatabase(
  'futures: trades far from the mark cannot draw on the insurance fund',
  (server) => {
    let victim: Trader;
    let accomplice: Trader;
    let maker: Trader;
    const fund = async () => (await server().request('GET', '/v1/futures/insurance-fund')).body.balance as string;
    const leverage = (trader: Trader, value: number) =>
      server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/leverage', {
        token: trader.token,
        body: { leverage: value },
      });

    beforeAll(async () => {
      await server().services.futures.workers.funding.stop();
      setIndex(server(), 'BTC', '50000');
      victim = await futuresTrader(server(), '1000');
      accomplice = await futuresTrader(server(), '100000');
      maker = await futuresTrader(server(), '100000');
      expect((await leverage(victim, 100)).status).toBe(200);
    });

    it('refuses an opening order priced through the mark when its loss is not covered (open loss)', async () => {
      expect(
        (await order(server(), accomplice, { side: 'sell', type: 'limit', price: '54900', quantity: '0.5' })).status,
      ).toBe(201);
      // 0.5 BTC at 54,900 with the mark at 50,000: 2,450 lost at once, far beyond the 1,000 wallet.
      const limit = await order(server(), victim, { side: 'buy', type: 'limit', price: '54900', quantity: '0.5' });
      expect(limit.status).toBe(422);
      expect(limit.body.error.code).toBe('INSUFFICIENT_MARGIN');
      // A market buy may lose at once only what is left after its margin: its protection stops it
      // 1,428 above the mark (714 of room / 0.5 BTC), so the accomplice's ask is out of its reach.
      const market = await order(server(), victim, { side: 'buy', type: 'market', quantity: '0.5' });
      expect(market.body).toMatchObject({ type: 'market', price: '51428', filled_quantity: '0', status: 'expired' });
      expect(await positions(server(), victim)).toEqual([]);
      await server().request('DELETE', '/v1/futures/orders?market=BTC_USD_PERP', { token: accomplice.token });
    });

    it("never closes beyond the position's bankruptcy price: a limit there is refused, a market close stops at it", async () => {
      expect(
        (await order(server(), maker, { side: 'sell', type: 'limit', price: '50000', quantity: '0.5' })).status,
      ).toBe(201);
      expect((await order(server(), victim, { side: 'buy', type: 'market', quantity: '0.5' })).body.status).toBe(
        'filled',
      );
      // Cross: 1,000 - 10 fee behind 0.5 BTC bought at 50,000: bankrupt at 48,020 (rounded up to the tick).
      expect(
        (await order(server(), accomplice, { side: 'buy', type: 'limit', price: '45100', quantity: '0.5' })).status,
      ).toBe(201);
      const limit = await order(server(), victim, { side: 'sell', type: 'limit', price: '45100', quantity: '0.5' });
      expect(limit.status).toBe(422);
      expect(limit.body.error).toMatchObject({
        code: 'INSUFFICIENT_MARGIN',
        message: "This price is beyond your position's bankruptcy price",
      });
      const before = await fund();
      const close = await order(server(), victim, { side: 'sell', type: 'market', quantity: '0.5', reduce_only: true });
      expect(close.status).toBe(201);
      // Its protection is the bankruptcy price: no bid there (only the accomplice's, 6 % lower): it expires.
      expect(close.body).toMatchObject({ type: 'market', price: '48020', filled_quantity: '0', status: 'expired' });
      expect(await fund()).toBe(before);
      expect(await positions(server(), accomplice)).toEqual([]);
      expect(await positions(server(), victim)).toMatchObject([{ side: 'long', size: '0.5' }]);
      expect((await account(server(), victim)).wallet_balance).toBe('990');
    });
  },
  ENVIRONMENT,
);
