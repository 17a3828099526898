import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { setAccountRole } from '../kyc/grant-role-command.ts';
import { tradeView } from '../trading/service.ts';
import { fund, placeOrder, setReferencePrice } from '../trading/test-support.ts';

type Pair = { id: string; current_price: string | null; volume_24h: string | null; is_enabled_by_admin: boolean };
type Trade = { id: string; price: string; quantity: string; total: string; side: string; timestamp: number };

/** The public reads this file checks, each with the ETag it came with. */
async function read(server: TestServer, path: string, etag?: string) {
  const response = await server.request('GET', path, etag ? { headers: { 'if-none-match': etag } } : {});
  return { status: response.status, body: response.body, etag: response.headers.get('etag') ?? '' };
}

/** The market trades as the trades table lists them (what the route answered before it had a tape). */
async function tradesFromTable(server: TestServer, pairId: string, limit: number): Promise<Trade[]> {
  const trim = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
  const rows = await server.db.query<{
    id: string;
    price: string;
    quantity: string;
    total: string;
    taker_side: string;
    executed_at: Date;
  }>(
    `SELECT id, price::text, quantity::text, total::text, taker_side, executed_at FROM trades WHERE pair_id = $1
     ORDER BY executed_at DESC, sequence DESC, id DESC LIMIT $2`,
    [pairId, limit],
  );
  return rows.rows.map((row) => ({
    id: row.id,
    price: trim(row.price),
    quantity: trim(row.quantity),
    total: trim(row.total),
    side: row.taker_side,
    timestamp: new Date(row.executed_at).getTime(),
  }));
}

// The feed's timers are off (as in the trading tests): every change below is one the test makes.
describeEachDatabase(
  'public market reads from memory',
  (server) => {
    let alice: SignedUp;
    let bob: SignedUp;
    let admin: SignedUp;
    const token = (user: SignedUp) => user.session.token;
    const id = (user: SignedUp) => user.session.account_id;

    beforeAll(async () => {
      alice = await signUp(server());
      bob = await signUp(server());
      admin = await signUp(server());
      await setAccountRole(server().db, admin.email, 'admin');
    });

    beforeEach(() => {
      setReferencePrice(server(), 'BTC_USD', '50000.00');
    });

    it('shows a trade in the very next ticker, statistics, pair list, trades and depth read', async () => {
      await fund(server(), id(alice), 'BTC', '1');
      await fund(server(), id(bob), 'USD', '30000');
      const before = {
        ticker: await read(server(), '/v1/ticker/BTC_USD'),
        statistics: await read(server(), '/v1/market/BTC_USD/statistics'),
        pairs: await read(server(), '/v1/trading-pairs'),
        trades: await read(server(), '/v1/market/BTC_USD/trades'),
        depth: await read(server(), '/v1/orderbook/BTC_USD/depth?depth=5'),
      };
      expect(before.ticker.body.price).not.toBe('50000.00');

      const sell = { trading_pair: 'BTC_USD', side: 'sell', type: 'limit', price: '50000.00', quantity: '0.25' };
      expect((await placeOrder(server(), token(alice), sell)).status).toBe(201);
      const resting = await read(server(), '/v1/orderbook/BTC_USD/depth?depth=5', before.depth.etag);
      expect(resting.status).toBe(200);
      expect(resting.etag).not.toBe(before.depth.etag);
      expect(resting.body.asks).toContainEqual(['50000.00', '0.2500000']);

      const buy = { trading_pair: 'BTC_USD', side: 'buy', type: 'limit', price: '50000.00', quantity: '0.25' };
      expect((await placeOrder(server(), token(bob), buy)).body.status).toBe('filled');

      const ticker = await read(server(), '/v1/ticker/BTC_USD', before.ticker.etag);
      expect(ticker).toMatchObject({ status: 200, body: { price: '50000.00' } });
      expect(Number(ticker.body.volume24h)).toBe(0.25);
      const statistics = await read(server(), '/v1/market/BTC_USD/statistics', before.statistics.etag);
      expect(statistics).toMatchObject({ status: 200, body: { price: '50000.00', pair_id: 'BTC_USD' } });
      const pairs = await read(server(), '/v1/trading-pairs', before.pairs.etag);
      expect(pairs.status).toBe(200);
      const btc = pairs.body.find((pair: Pair) => pair.id === 'BTC_USD');
      expect(btc.current_price).toBe('50000.00');
      expect(Number(btc.volume_24h)).toBe(0.25);
      const trades = await read(server(), '/v1/market/BTC_USD/trades', before.trades.etag);
      expect(trades.status).toBe(200);
      expect(trades.body[0]).toMatchObject({ price: '50000', quantity: '0.25', total: '12500', side: 'buy' });
      const depth = await read(server(), '/v1/orderbook/BTC_USD/depth?depth=5', resting.etag);
      expect(depth.status).toBe(200);
      expect(depth.body.asks).not.toContainEqual(['50000.00', '0.2500000']);
      const stats = await read(server(), '/v1/orderbook/BTC_USD/stats');
      expect(stats.body).toMatchObject({ last_price: '50000.00', sequence: depth.body.sequence });
    });

    it('lists recent trades exactly as the trades table does, newest first, to any limit', async () => {
      await fund(server(), id(alice), 'BTC', '1');
      await fund(server(), id(bob), 'USD', '60000');
      // Three makers at two prices, one taker: three trades of one command (one sequence, one instant).
      for (const [price, quantity] of [
        ['50010.00', '0.1'],
        ['50010.00', '0.05'],
        ['50020.00', '0.1'],
      ]) {
        const sell = { trading_pair: 'BTC_USD', side: 'sell', type: 'limit', price, quantity };
        expect((await placeOrder(server(), token(alice), sell)).status).toBe(201);
      }
      const buy = { trading_pair: 'BTC_USD', side: 'buy', type: 'limit', price: '50020.00', quantity: '0.25' };
      expect((await placeOrder(server(), token(bob), buy)).body.status).toBe('filled');
      for (const limit of [1, 3, 50, 500]) {
        const tape = await read(server(), `/v1/market/BTC_USD/trades?limit=${limit}`);
        const table = await tradesFromTable(server(), 'BTC_USD', limit);
        expect(tape.body.map(({ symbol, trading_pair, ...rest }: Trade & Record<string, unknown>) => rest)).toEqual(
          table,
        );
      }
      expect((await read(server(), '/v1/market/NOPE_USD/trades')).status).toBe(404);
      // A restart reads the tape back from the table: the same trades, in the same order.
      const before = await read(server(), '/v1/market/BTC_USD/trades?limit=500');
      const { exchange, marketReads } = server().services.trading;
      await marketReads.trades.load(server().db, (row) => tradeView({ exchange }, row));
      const reloaded = await read(server(), '/v1/market/BTC_USD/trades?limit=500');
      expect(reloaded.body).toEqual(before.body);
      expect(reloaded.etag).toBe(before.etag);
    });

    it('shows a new price tick in the next read, and answers 304 while nothing changed', async () => {
      const first = await read(server(), '/v1/ticker/ETH_USD');
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^"[\w-]+"$/);
      const unchanged = await read(server(), '/v1/ticker/ETH_USD', first.etag);
      expect(unchanged).toMatchObject({ status: 304, etag: first.etag });
      const pairs = await read(server(), '/v1/trading-pairs');
      expect((await read(server(), '/v1/trading-pairs', pairs.etag)).status).toBe(304);
      const prices = await read(server(), '/v1/triple-a/prices');

      server().services.markets.feed.onQuote({
        symbol: 'ETH',
        priceUsd: '4321.5',
        changePercent24h: '0',
        volume24hUsd: '0',
        high24hUsd: null,
        low24hUsd: null,
        marketCapUsd: null,
        timestamp: server().clock.now,
        source: 'simulator',
      });

      const ticker = await read(server(), '/v1/ticker/ETH_USD', first.etag);
      expect(ticker.status).toBe(200);
      expect(ticker.etag).not.toBe(first.etag);
      expect(ticker.body.price).toBe('4321.50');
      const statistics = await read(server(), '/v1/market/ETH_USD/statistics');
      expect(statistics.body.price).toBe('4321.50');
      const list = await read(server(), '/v1/trading-pairs', pairs.etag);
      expect(list.status).toBe(200);
      expect(list.body.find((pair: Pair) => pair.id === 'ETH_USD').current_price).toBe('4321.50');
      const quotes = await read(server(), '/v1/triple-a/prices', prices.etag);
      expect(quotes.status).toBe(200);
      expect(quotes.body.find((quote: { base_currency: string }) => quote.base_currency === 'ETH').price).toBe(
        '4321.50',
      );
      expect((await read(server(), '/v1/triple-a/price/eth/usd')).body.price).toBe('4321.50');
    });

    it('sends the static currency list with a cacheable ETag', async () => {
      const first = await read(server(), '/v1/triple-a/currencies/supported');
      expect(first.status).toBe(200);
      const again = await server().request('GET', '/v1/triple-a/currencies/supported', {
        headers: { 'if-none-match': first.etag },
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('cache-control')).toBe('public, max-age=10');
    });

    it('keeps the 404s of unknown pairs and of pairs without a price', async () => {
      for (const path of [
        '/v1/ticker/NOPE_USD',
        '/v1/market/NOPE_USD/statistics',
        '/v1/trading-pairs/NOPE_USD',
        '/v1/triple-a/price/NOPE/USD',
      ]) {
        const response = await read(server(), path);
        expect(response.status, path).toBe(404);
        expect(response.body.error.message, path).toBe('Trading pair not found');
      }
      expect((await read(server(), '/v1/orderbook/NOPE_USD')).status).toBe(404);
    });

    describe('an admin closes and opens a pair', () => {
      const patch = (user: SignedUp, pairId: string, body: unknown) =>
        server().request('PATCH', `/v1/admin/trading-pairs/${pairId}`, { token: token(user), body });
      const listed = async (path: string) => (await read(server(), path)).body as Pair[];

      it('refuses everyone but an admin', async () => {
        const response = await patch(alice, 'SOL_USD', { is_enabled_by_admin: false });
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('FORBIDDEN');
        const anonymous = await server().request('PATCH', '/v1/admin/trading-pairs/SOL_USD', {
          body: { is_enabled_by_admin: false },
        });
        expect(anonymous.status).toBe(401);
        expect((await patch(admin, 'NOPE_USD', { is_enabled_by_admin: false })).status).toBe(404);
        expect((await patch(admin, 'SOL_USD', { is_enabled_by_admin: 'no' })).status).toBe(400);
      });

      it('shows the change in the next read of every list, and refuses orders until it is opened again', async () => {
        await fund(server(), id(alice), 'SOL', '10');
        const before = await read(server(), '/v1/trading-pairs');
        const closed = await patch(admin, 'SOL_USD', { is_enabled_by_admin: false });
        expect(closed.status).toBe(200);
        expect(closed.body).toMatchObject({ id: 'SOL_USD', is_enabled_by_admin: false, is_active: true });

        const after = await read(server(), '/v1/trading-pairs', before.etag);
        expect(after.status).toBe(200);
        expect(after.body.find((pair: Pair) => pair.id === 'SOL_USD').is_enabled_by_admin).toBe(false);
        expect((await listed('/v1/triple-a/trading-pairs/active')).map((pair) => pair.id)).not.toContain('SOL_USD');
        expect((await listed('/v1/triple-a/trading-pairs/supported')).map((pair) => pair.id)).toContain('SOL_USD');
        expect((await read(server(), '/v1/trading-pairs/sol-usd')).body.is_enabled_by_admin).toBe(false);
        const row = await server().db.query<{ is_enabled_by_admin: boolean; updated_at: Date; created_at: Date }>(
          'SELECT is_enabled_by_admin, updated_at, created_at FROM trading_pairs WHERE id = $1',
          ['SOL_USD'],
        );
        expect(row.rows[0]?.is_enabled_by_admin).toBe(false);
        expect(new Date(row.rows[0]!.updated_at).getTime()).toBeGreaterThan(
          new Date(row.rows[0]!.created_at).getTime(),
        );

        const sell = { trading_pair: 'SOL_USD', side: 'sell', type: 'limit', price: '150.00', quantity: '1' };
        const refused = await placeOrder(server(), token(alice), sell);
        expect(refused.status).toBe(409);
        expect(refused.body.error?.code).toBe('TRADING_PAIR_INACTIVE');

        expect((await patch(admin, 'SOL_USD', { is_enabled_by_admin: true })).status).toBe(200);
        expect((await listed('/v1/triple-a/trading-pairs/active')).map((pair) => pair.id)).toContain('SOL_USD');
        expect((await listed('/v1/trading-pairs')).find((pair) => pair.id === 'SOL_USD')?.is_enabled_by_admin).toBe(
          true,
        );
        setReferencePrice(server(), 'SOL_USD', '150.00');
        expect((await placeOrder(server(), token(alice), sell)).status).toBe(201);
      });
    });
  },
  { PRICE_FEED_ENABLED: 'false' },
);
