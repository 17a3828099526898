import type { Analytics } from '@platform/contracts';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { convert, quote, setReferencePrices } from '../conversions/test-support.ts';
import type { Trader } from '../futures/test-support.ts';
import { fund, placeOrder } from '../trading/test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

async function user(server: TestServer): Promise<Trader> {
  const signed = await signUp(server);
  return { id: signed.session.account_id, token: signed.session.token };
}

async function trade(server: TestServer, maker: Trader, taker: Trader, side: 'buy' | 'sell', quantity: string) {
  const body = { trading_pair: 'BTC_USD', type: 'limit', price: '50000.00', quantity };
  expect((await placeOrder(server, maker.token, { ...body, side: side === 'buy' ? 'sell' : 'buy' })).status).toBe(201);
  const taken = await placeOrder(server, taker.token, { ...body, side });
  expect(taken.body.status, JSON.stringify(taken.body)).toBe('filled');
}

const closedTrades = async (server: TestServer, trader: Trader, method = 'fifo') => {
  const response = await server.request('GET', `/v1/analytics?method=${method}`, { token: trader.token });
  expect(response.status).toBe(200);
  return (response.body as Analytics).closed_trades;
};

describeEachDatabase(
  'analytics: the kept lot results never hide a new trade',
  (server) => {
    it('each sale and conversion is in the very next read; reads in between agree', async () => {
      setReferencePrices(server());
      const [alice, bob, carol] = [await user(server()), await user(server()), await user(server())];
      await fund(server(), alice.id, 'USD', '100000');
      await fund(server(), bob.id, 'BTC', '1');
      await fund(server(), carol.id, 'USD', '100000');
      await trade(server(), bob, alice, 'buy', '0.1');
      expect(await closedTrades(server(), alice)).toBe(0);
      expect(await closedTrades(server(), alice)).toBe(0);
      for (let sale = 1; sale <= 5; sale++) {
        await trade(server(), carol, alice, 'sell', '0.01');
        const [fifo, hifo, again] = await Promise.all([
          closedTrades(server(), alice),
          closedTrades(server(), alice, 'hifo'),
          closedTrades(server(), alice),
        ]);
        expect([fifo, hifo, again], `after sale ${sale}`).toEqual([sale, sale, sale]);
      }
      const offer = await quote(server(), alice, 'BTC', 'USD', '0.01');
      const converted = await convert(server(), alice, {
        from_currency: 'BTC',
        to_currency: 'USD',
        from_amount: '0.01',
        quote_id: offer.quote_id,
      });
      expect(converted.status).toBe(201);
      expect(await closedTrades(server(), alice)).toBe(6);
      // Bob's reads are his own: Alice's memo never answers for him.
      expect(await closedTrades(server(), bob)).toBe(1);
    });
  },
  ENVIRONMENT,
);
