import { expect, it } from 'vitest';
import type { KeysetCursor, TimeWindow } from '../../lib/keyset.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { convert, newUser, quickTrade, quote, setReferencePrices, type User } from '../conversions/test-support.ts';
import { fund, placeOrder } from '../trading/test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };
const TRADES_HEADER =
  'Date,Product,Market,Side,Role,Price,Amount,Total,Fee,Fee Currency,Realised P&L,Order ID,Trade ID';

const second = (time: number | string) => `${new Date(time).toISOString().slice(0, 19)}Z`;
const lines = (body: string) => body.slice(0, -2).split('\r\n');
/** Each step a second apart: the export's order by time is the order of the steps. */
const tick = (server: TestServer) => server.clock.advance(1_000);

async function spotBuy(server: TestServer, maker: User, taker: User) {
  const order = (user: User, side: string) =>
    placeOrder(server, user.token, {
      trading_pair: 'BTC_USD',
      type: 'limit',
      side,
      price: '50000.00',
      quantity: '0.01',
    });
  expect((await order(maker, 'sell')).status).toBe(201);
  const taken = await order(taker, 'buy');
  expect(taken.body.status, JSON.stringify(taken.body)).toBe('filled');
  tick(server);
  const fills = await server.request('GET', `/v1/accounts/${taker.id}/trades?limit=100`, { token: taker.token });
  const trades = fills.body.trades as { id: string; order_id: string; timestamp: number }[];
  return [...trades].sort((a, b) => a.timestamp - b.timestamp).at(-1)!;
}

/** Alice: a spot buy, a conversion of 100 USD to BTC, a second spot buy, a quick trade of 0.002 BTC to USD. */
async function drive(server: TestServer) {
  setReferencePrices(server);
  const [alice, bob] = [await newUser(server), await newUser(server)];
  await fund(server, alice.id, 'USD', '10000');
  await fund(server, bob.id, 'BTC', '1');
  const fill1 = await spotBuy(server, bob, alice);
  const offer = await quote(server, alice, 'USD', 'BTC', '100');
  const converted = await convert(server, alice, {
    from_currency: 'USD',
    to_currency: 'BTC',
    from_amount: '100',
    quote_id: offer.quote_id,
  });
  expect(converted.status, JSON.stringify(converted.body)).toBe(201);
  tick(server);
  const fill2 = await spotBuy(server, bob, alice);
  const traded = await quickTrade(server, alice, { sell_currency: 'btc', buy_currency: 'usd', sell_amount: '0.002' });
  expect(traded.status, JSON.stringify(traded.body)).toBe(201);
  return { alice, bob, fill1, fill2, converted: converted.body, traded: traded.body.trade };
}

describeEachDatabase(
  'exports: conversions in trades.csv',
  (server) => {
    it('conversions and quick trades are trade rows in time order between the fills; nobody else sees them', async () => {
      const { alice, bob, fill1, fill2, converted, traded } = await drive(server());
      const response = await server().request<string>('GET', '/v1/exports/trades.csv', { token: alice.token });
      expect(response.status).toBe(200);
      const spot = (fill: { id: string; order_id: string; timestamp: number }) =>
        `${second(fill.timestamp)},spot,BTC/USD,buy,taker,50000,0.01,500,0.5,USD,,${fill.order_id},${fill.id}`;
      expect(lines(response.body)).toEqual([
        TRADES_HEADER,
        spot(fill1),
        // 100 USD / 50,000 = 0.002 BTC gross, the 0.5 % spread 0.00001 BTC kept: 0.00199 at 0.0000199.
        `${second(converted.created_at)},conversion,USD/BTC,sell,,0.0000199,100,0.00199,0.00001,BTC,,,${converted.id}`,
        spot(fill2),
        // 0.002 BTC at 50,000 = 100 USD gross, spread 0.5: 99.5 USD at 49,750.
        `${second(traded.created_at)},conversion,BTC/USD,sell,,49750,0.002,99.5,0.5,USD,,,${traded.id}`,
      ]);
      const bobs = lines((await server().request<string>('GET', '/v1/exports/trades.csv', { token: bob.token })).body);
      expect(bobs.filter((line) => line.includes(',conversion,'))).toEqual([]);
      expect(bobs).toHaveLength(3);
    });

    it('a period leaves out the conversions outside it', async () => {
      const { alice } = await drive(server());
      const tomorrow = new Date(server().clock.now.getTime() + 86_400_000).toISOString().slice(0, 10);
      const later = await server().request<string>('GET', `/v1/exports/trades.csv?from=${tomorrow}`, {
        token: alice.token,
      });
      expect(lines(later.body)).toEqual([TRADES_HEADER]);
    });

    it("the conversions module's keyset pages of 1 and 2 read what one page does; a window bounds them", async () => {
      const { alice } = await drive(server());
      const page = server().services.conversions.conversionsPage;
      const everything: TimeWindow = { from: null, until: null };
      const whole = await page(alice.id, everything, null, 1_000);
      expect(whole.map((row) => row.kind)).toEqual(['conversion', 'trade']);
      for (const size of [1, 2]) {
        const read = [];
        let after: KeysetCursor | null = null;
        for (;;) {
          const rows = await page(alice.id, everything, after, size);
          read.push(...rows);
          if (rows.length < size) break;
          after = rows.at(-1)!.cursor;
        }
        expect(read).toEqual(whole);
      }
      const first = whole[0]!;
      const before = await page(alice.id, { from: null, until: first.cursor.at }, null, 10);
      expect(before).toEqual([]);
      await expect(page(alice.id, everything, null, 0)).rejects.toThrow(RangeError);
      await expect(page(alice.id, everything, null, 10_001)).rejects.toThrow(RangeError);
    });
  },
  ENVIRONMENT,
);
