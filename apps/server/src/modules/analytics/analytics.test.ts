import type { Analytics } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { futuresTrader, order, setIndex, type Trader } from '../futures/test-support.ts';
import { fund, placeOrder, setReferencePrice } from '../trading/test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };
const DAY_MS = 86_400_000;

async function user(server: TestServer): Promise<Trader> {
  const signed = await signUp(server);
  return { id: signed.session.account_id, token: signed.session.token };
}

async function spot(server: TestServer, trader: Trader, body: Record<string, unknown>, status: string) {
  const placed = await placeOrder(server, trader.token, { trading_pair: 'BTC_USD', type: 'limit', ...body });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  expect(placed.body.status).toBe(status);
}

async function perp(server: TestServer, trader: Trader, body: Record<string, unknown>, status: string) {
  const placed = await order(server, trader, body);
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  expect(placed.body.status, JSON.stringify(placed.body)).toBe(status);
}

/**
 * Alice (always the taker, spot fee 0.1 % in USD):
 * - buys 0.1 BTC at 50,000 (costs 5,005) and 0.1 at 54,000 (5,405.4);
 * - sells 0.05 at 52,000: receives 2,597.4; FIFO cost 2,502.5: +94.9 (a win);
 * - sells 0.1 at 48,000: receives 4,795.2; cost 2,502.5 + 2,702.7 = 5,205.2: −410 (a loss);
 * - futures (taker fee 0.04 %): buys 0.01 BTC_USD_PERP at 50,000 (fee 0.2), pays funding at rate
 *   0.00012345 on mark 50,000 (0.061725), sells 0.01 at 51,000 (fee 0.204, realised +10: a win of 9.796).
 */
async function drive(server: TestServer) {
  setReferencePrice(server, 'BTC_USD', '50000.00');
  setIndex(server, 'BTC', '50000');
  const [alice, bob, carol] = [await user(server), await user(server), await user(server)];
  const dave = await futuresTrader(server, '10000');
  await fund(server, alice.id, 'USD', '100000');
  await fund(server, bob.id, 'BTC', '1');
  await fund(server, carol.id, 'USD', '10000');
  await spot(server, bob, { side: 'sell', price: '50000.00', quantity: '0.1' }, 'pending');
  await spot(server, alice, { side: 'buy', price: '50000.00', quantity: '0.1' }, 'filled');
  await spot(server, bob, { side: 'sell', price: '54000.00', quantity: '0.1' }, 'pending');
  await spot(server, alice, { side: 'buy', price: '54000.00', quantity: '0.1' }, 'filled');
  await spot(server, carol, { side: 'buy', price: '52000.00', quantity: '0.05' }, 'pending');
  await spot(server, alice, { side: 'sell', price: '52000.00', quantity: '0.05' }, 'filled');
  await spot(server, carol, { side: 'buy', price: '48000.00', quantity: '0.1' }, 'pending');
  await spot(server, alice, { side: 'sell', price: '48000.00', quantity: '0.1' }, 'filled');
  const moved = await server.request('POST', '/v1/futures/transfers', {
    token: alice.token,
    body: { direction: 'to_futures', amount: '10000' },
  });
  expect(moved.status).toBe(201);
  await perp(server, dave, { side: 'sell', type: 'limit', price: '50000', quantity: '0.01' }, 'pending');
  await perp(server, alice, { side: 'buy', type: 'market', quantity: '0.01' }, 'filled');
  const round = await server.services.futures.exchange.settleFunding('BTC_USD_PERP', 12_345n, 500_000, Date.now());
  expect(round.ok).toBe(true);
  await perp(server, dave, { side: 'buy', type: 'limit', price: '51000', quantity: '0.01' }, 'pending');
  await perp(server, alice, { side: 'sell', type: 'market', quantity: '0.01' }, 'filled');
  return { alice, bob, carol, dave };
}

const today = (server: TestServer) => server.clock.now.toISOString().slice(0, 10);
const dayBefore = (server: TestServer, days: number) =>
  new Date(server.clock.now.getTime() - days * DAY_MS).toISOString().slice(0, 10);

/** Daily snapshots: 1,000 (40 days ago, before the period) → 1,100 (+10 %) → 6,100 with 5,000 paid in (flat) → 5,490 (−10 %). */
async function snapshots(server: TestServer, accountId: string, otherId: string) {
  const rows: [string, string, string, string][] = [
    [accountId, dayBefore(server, 50), '999999', '0'],
    [accountId, dayBefore(server, 40), '1000', '0'],
    [accountId, dayBefore(server, 2), '1100', '0'],
    [accountId, dayBefore(server, 1), '6100', '5000'],
    [accountId, today(server), '5490', '0'],
    [otherId, today(server), '1', '0'],
  ];
  for (const [id, date, value, flow] of rows) {
    await server.db.query(
      `INSERT INTO portfolio_snapshots (account_id, granularity, at, total_value, spot_value, futures_equity, net_flow)
       VALUES ($1, 'day', $2, $3, $3, 0, $4)`,
      [id, `${date}T00:00:00Z`, value, flow],
    );
  }
  // An hourly row is not a day: it never counts.
  await server.db.query(
    `INSERT INTO portfolio_snapshots (account_id, granularity, at, total_value, spot_value, futures_equity, net_flow)
     VALUES ($1, 'hour', $2, 1, 1, 0, 0)`,
    [accountId, `${today(server)}T01:00:00Z`],
  );
}

describeEachDatabase(
  'trading analytics',
  (server) => {
    let people: Awaited<ReturnType<typeof drive>>;
    beforeAll(async () => {
      // The funding timer pays a round as soon as a mark exists: this test pays its own.
      server().services.futures.workers.funding.stop();
      people = await drive(server());
      await snapshots(server(), people.alice.id, people.bob.id);
    });

    const get = (trader: Trader, path: string) => server().request('GET', path, { token: trader.token });

    it('every figure equals the arithmetic of the trades', async () => {
      const response = await get(people.alice, '/v1/analytics');
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const body = response.body as Analytics;
      expect(body.period).toEqual({ from: dayBefore(server(), 29), to: today(server()), days: 30 });
      expect([body.method, body.source]).toEqual(['fifo', 'all']);
      // 5,000 + 5,400 + 2,600 + 4,800 spot; 500 + 510 futures notional.
      expect(body.volume).toBe('18810');
      expect([body.trades, body.closed_trades, body.winning_trades, body.losing_trades]).toEqual([6, 3, 2, 1]);
      expect(body.win_rate_percent).toBe('66.67');
      // (94.9 + 9.796) / 2; −410 / 1; 104.696 / 410 = 0.2553...
      expect([body.average_win, body.average_loss, body.profit_factor]).toEqual(['52.348', '-410', '0.26']);
      expect([body.gross_wins, body.gross_losses]).toEqual(['104.696', '410']);
      // 5 + 5.4 + 2.6 + 4.8 spot; 0.2 + 0.204 futures.
      expect(body.fees_paid).toBe('18.204');
      expect([body.funding_paid, body.funding_received]).toEqual(['0.061725', '0']);
      // Spot 94.9 − 410; futures 10 − 0.2 − 0.204 − 0.061725.
      expect(body.realised_pnl).toBe('-305.565725');
      expect(body.pnl_by_asset).toEqual([
        { product: 'futures', asset: 'BTC_USD_PERP', pnl: '9.534275' },
        { product: 'spot', asset: 'BTC', pnl: '-315.1' },
      ]);
      expect(body.pnl_by_day).toEqual([{ date: today(server()), pnl: '-305.565725', closed_trades: 3 }]);
      expect(body.best_trade).toMatchObject({ product: 'spot', asset: 'BTC', pnl: '94.9' });
      expect(body.worst_trade).toMatchObject({ product: 'spot', asset: 'BTC', pnl: '-410' });
      expect(body.by_source).toEqual([
        { source: 'manual', trades: 6, closed_trades: 3, volume: '18810', realised_pnl: '-305.565725' },
      ]);
    });

    it('TWR and drawdown from the daily snapshots: the deposit is not a gain', async () => {
      const body = (await get(people.alice, '/v1/analytics')).body as Analytics;
      // 1.1 × (6,100 − 5,000) / 1,100 × 5,490 / 6,100 = 1.1 × 1 × 0.9 = 0.99.
      expect(body.time_weighted_return_percent).toBe('-1');
      expect(body.max_drawdown_percent).toBe('10');
      expect(body.equity.map((point) => [point.total_value, point.twr_percent, point.drawdown_percent])).toEqual([
        ['1100', '10', '0'],
        ['6100', '10', '0'],
        ['5490', '-1', '10'],
      ]);
      const none = (await get(people.carol, '/v1/analytics')).body as Analytics;
      expect([none.time_weighted_return_percent, none.max_drawdown_percent, none.equity]).toEqual([null, null, []]);
    });

    it('a period before the trades is empty; HIFO changes the spot P&L', async () => {
      const before = (
        await get(people.alice, `/v1/analytics?from=${dayBefore(server(), 45)}&to=${dayBefore(server(), 31)}`)
      ).body as Analytics;
      expect([before.trades, before.closed_trades, before.volume, before.realised_pnl]).toEqual([0, 0, '0', '0']);
      expect([before.win_rate_percent, before.profit_factor, before.best_trade]).toEqual([null, null, null]);
      // The base is the row of 50 days ago (999,999), the last before the period; 40 days ago is in it.
      expect(before.equity.map((point) => point.total_value)).toEqual(['1000']);
      // 1,000 / 999,999 − 1 = −99.9000999...%.
      expect([before.time_weighted_return_percent, before.max_drawdown_percent]).toEqual(['-99.9', '99.9']);
      const hifo = (await get(people.alice, '/v1/analytics?method=hifo&source=manual')).body as Analytics;
      // HIFO: the first sale takes the 54,000 lot (2,597.4 − 2,702.7 = −105.3), the second 0.05 of it
      // and 0.05 of the 50,000 lot (4,795.2 − 2,702.7 − 2,502.5 = −410).
      expect(hifo.pnl_by_asset.find((row) => row.asset === 'BTC')?.pnl).toBe('-515.3');
      expect([hifo.winning_trades, hifo.losing_trades]).toEqual([1, 2]);
    });

    it('the counterparties see their own trades only', async () => {
      const carol = (await get(people.carol, '/v1/analytics')).body as Analytics;
      // Carol's two resting buys filled: two fills, nothing sold.
      expect(carol.trades).toBe(2);
      expect(carol.closed_trades).toBe(0);
      const dave = (await get(people.dave, `/v1/accounts/${people.dave.id}/analytics`)).body as Analytics;
      expect(dave.trades).toBe(2);
      expect([dave.funding_paid, dave.funding_received]).toEqual(['0', '0.061725']);
      const newcomer = await user(server());
      const empty = (await get(newcomer, '/v1/analytics')).body as Analytics;
      expect([empty.trades, empty.pnl_by_asset, empty.pnl_by_day, empty.realised_pnl]).toEqual([0, [], [], '0']);
    });

    it("another account's id answers 404 exactly as an unknown id; no token 401", async () => {
      const other = await get(people.alice, `/v1/accounts/${people.bob.id}/analytics`);
      const unknown = await get(people.alice, `/v1/accounts/${crypto.randomUUID()}/analytics`);
      expect(other.status).toBe(404);
      expect(other.body).toEqual(unknown.body);
      const own = await get(people.alice, `/v1/accounts/${people.alice.id.toUpperCase()}/analytics`);
      expect((own.body as Analytics).volume).toBe('18810');
      expect((await server().request('GET', '/v1/analytics')).status).toBe(401);
      expect((await server().request('GET', `/v1/accounts/${people.alice.id}/analytics`)).status).toBe(401);
    });

    it('bad periods and filters: 400 VALIDATION_ERROR', async () => {
      for (const query of [
        'from=2026-02-30',
        'to=2026-13-01',
        `from=${today(server())}&to=${dayBefore(server(), 1)}`,
        `from=${dayBefore(server(), 400)}`,
        'from=1969-12-31&to=1970-01-05',
        'from=99999-01-01',
        'to=%2B275760-09-13',
        'from=2026-01-01%00',
        'from=2026-01-01T00:00:00Z',
        'from=',
        'source=strategy',
        'method=average',
        `from=${'9'.repeat(5000)}`,
      ]) {
        const response = await get(people.alice, `/v1/analytics?${query}`);
        expect(response.status, query).toBe(400);
        expect((response.body as { error: { code: string } }).error.code, query).toBe('VALIDATION_ERROR');
      }
    });

    it('trading and order statistics take an optional period, all time without one', async () => {
      const stats = (query: string) =>
        get(people.alice, `/v1/accounts/${people.alice.id}/trading/statistics${query}`).then(
          (response) => response.body,
        );
      expect((await stats('')).total_trades).toBe(4);
      expect((await stats(`?from=${today(server())}&to=${today(server())}`)).total_trades).toBe(4);
      expect((await stats(`?from=${today(server())}`)).volume_by_quote).toEqual({ USD: '17800' });
      expect((await stats(`?to=${dayBefore(server(), 1)}`)).total_trades).toBe(0);
      const orders = (query: string) =>
        get(people.alice, `/v1/accounts/${people.alice.id}/orders/statistics${query}`).then(
          (response) => response.body,
        );
      expect((await orders('')).total).toBe(4);
      expect((await orders(`?from=${dayBefore(server(), 3)}&to=${dayBefore(server(), 1)}`)).total).toBe(0);
      for (const query of [`?from=${today(server())}&to=${dayBefore(server(), 1)}`, '?from=2026-02-30', '?to=x%00']) {
        const response = await get(people.alice, `/v1/accounts/${people.alice.id}/trading/statistics${query}`);
        expect(response.status, query).toBe(400);
        expect((await get(people.alice, `/v1/accounts/${people.alice.id}/orders/statistics${query}`)).status).toBe(400);
      }
    });

    it('many reads at once all answer the same figures', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          get(people.alice, index % 2 ? '/v1/analytics?source=manual' : `/v1/accounts/${people.alice.id}/analytics`),
        ),
      );
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
      const figures = answers.map((answer) => {
        const { source: _source, ...rest } = answer.body as Analytics;
        return JSON.stringify(rest);
      });
      expect(new Set(figures).size).toBe(1);
    });

    it('is documented at /docs with its response schema', async () => {
      const docs = await server().request('GET', '/docs/json');
      const paths = docs.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
      const ok = JSON.stringify(paths['/v1/analytics']?.get?.responses['200']);
      for (const field of ['win_rate_percent', 'profit_factor', 'time_weighted_return_percent', 'by_source']) {
        expect(ok).toContain(field);
      }
      expect(paths['/v1/accounts/{id}/analytics']?.get?.responses).toHaveProperty('404');
    });
  },
  ENVIRONMENT,
);
