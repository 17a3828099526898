import type { PortfolioHistory, PortfolioSummary, PriceUpdate } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { futuresTrader, order, type Trader } from '../futures/test-support.ts';
import { storedUnits } from '../futures/units.ts';
import { postEntries } from '../ledger/service.ts';
import { fund } from '../trading/test-support.ts';

/** The feed is off: every price is the one the test publishes; the recorder's timer is off (tests): the test ticks it. Tokens outlive the hours the clock moves. */
const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', ACCESS_TOKEN_TTL_SECONDS: '86400' };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The test's own arithmetic: USD in units of 10^-8 (no figure here has more decimals). */
const usd = (text: string) => storedUnits(text, 8);
function money(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const magnitude = units < 0n ? -units : units;
  const fraction = (magnitude % 10n ** 8n).toString().padStart(8, '0').replace(/0+$/, '');
  return `${sign}${magnitude / 10n ** 8n}${fraction ? `.${fraction}` : ''}`;
}

function publishBtc(server: TestServer, price: string): void {
  const update: PriceUpdate = {
    symbol: 'BTC/USD',
    price,
    change24h: '0',
    changePercent24h: '0',
    volume24h: '0',
    high24h: price,
    low24h: price,
    timestamp: server.clock.now.getTime(),
  };
  server.pubsub.publish('price.BTC_USD', update, { retain: true });
  server.services.futures.workers.marks.sampleAll();
}

async function user(server: TestServer): Promise<Trader> {
  const signed = await signUp(server);
  return { id: signed.session.account_id, token: signed.session.token };
}

/** A withdrawal as the withdrawals module books it: the total held, then paid out to custody with the fee to the house. */
async function withdraw(server: TestServer, accountId: string, amount: string, fee: string, total: string) {
  const reference = `test-withdrawal:${accountId}:${Math.random()}`;
  const user = { kind: 'user' as const, accountId };
  await server.db.transaction(async (tx) => {
    await postEntries(tx, [
      {
        kind: 'withdrawal_hold',
        reference,
        postings: [
          { owner: user, currency: 'USD', bucket: 'available', amount: `-${total}` },
          { owner: user, currency: 'USD', bucket: 'locked', amount: total },
        ],
      },
      {
        kind: 'withdrawal',
        reference,
        postings: [
          { owner: user, currency: 'USD', bucket: 'locked', amount: `-${total}` },
          { owner: { kind: 'system', name: 'custody' }, currency: 'USD', bucket: 'available', amount },
          { owner: { kind: 'system', name: 'fees' }, currency: 'USD', bucket: 'available', amount: fee },
        ],
      },
    ]);
  });
  return reference;
}

type Row = {
  account_id: string;
  granularity: string;
  at: Date;
  total_value: string;
  spot_value: string;
  futures_equity: string;
  net_flow: string;
};
async function rows(server: TestServer, accountId: string): Promise<Row[]> {
  const result = await server.db.query<Row>(
    `SELECT account_id::text AS account_id, granularity, at, trim_scale(total_value)::text AS total_value,
       trim_scale(spot_value)::text AS spot_value, trim_scale(futures_equity)::text AS futures_equity,
       trim_scale(net_flow)::text AS net_flow
     FROM portfolio_snapshots WHERE account_id = $1 ORDER BY granularity, at`,
    [accountId],
  );
  return result.rows.map((row) => ({ ...row, at: new Date(row.at) }));
}

/**
 * Alice deposits 10,000 USD and 0.2 BTC, moves 1,000 USD to futures and goes long 0.01
 * BTC_USD_PERP at 50,000 (cross; taker fee 0.04 % of 500 = 0.2) against Carol; BTC then at 51,000.
 * Bob deposits 5,000 USD. Dave signs up and holds nothing.
 */
async function drive(server: TestServer) {
  await server.services.markets.history;
  publishBtc(server, '50000.00');
  const [alice, bob, dave] = [await user(server), await user(server), await user(server)];
  const carol = await futuresTrader(server, '1000');
  await fund(server, alice.id, 'USD', '10000');
  await fund(server, alice.id, 'BTC', '0.2');
  await fund(server, bob.id, 'USD', '5000');
  const moved = await server.request('POST', '/v1/futures/transfers', {
    token: alice.token,
    body: { direction: 'to_futures', amount: '1000' },
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(201);
  const resting = await order(server, carol, { side: 'sell', type: 'limit', price: '50000', quantity: '0.01' });
  expect(resting.status, JSON.stringify(resting.body)).toBe(201);
  const taken = await order(server, alice, { side: 'buy', type: 'market', quantity: '0.01' });
  expect(taken.body.status, JSON.stringify(taken.body)).toBe('filled');
  publishBtc(server, '51000.00');
  return { alice, bob, carol, dave };
}

describeEachDatabase(
  'portfolio snapshots',
  (server) => {
    let people: Awaited<ReturnType<typeof drive>>;
    let firstHourMs: number;
    let depositsAtMs: number;
    beforeAll(async () => {
      server().services.futures.workers.marks.stop();
      await server().services.futures.workers.funding.stop();
      depositsAtMs = server().clock.now.getTime();
      people = await drive(server());
      // The next top of the hour, on the server's clock (the ledger's own times stay real).
      const nowMs = server().clock.now.getTime();
      firstHourMs = Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS;
      server().clock.advance(firstHourMs + 1_000 - nowMs);
    });

    const recorder = () => server().services.portfolio.snapshots;
    const history = (trader: Trader, path: string) => server().request('GET', path, { token: trader.token });

    it('the futures bulk read equals each overview and leaves out accounts without a futures wallet', async () => {
      const { alice, carol, dave } = people;
      const accounts = server().services.futures.exchange.accounts;
      const equities = await accounts.equities([alice.id, carol.id, dave.id]);
      for (const trader of [alice, carol]) {
        const overview = await accounts.overview(trader.id);
        expect(equities.get(trader.id)).toEqual({
          walletBalance: overview.account.wallet_balance,
          unrealisedPnl: overview.account.unrealised_pnl,
          equity: overview.account.margin_balance,
        });
      }
      expect(equities.has(dave.id)).toBe(false);
    });

    it('records every account with a balance at the top of the hour, each figure the test’s own arithmetic', async () => {
      const { alice, bob, dave } = people;
      const result = await recorder().tick();
      expect(result).toMatchObject({ at: new Date(firstHourMs).toISOString() });
      const dayMs = Math.floor(firstHourMs / DAY_MS) * DAY_MS;
      expect(result?.granularities).toEqual(['hour', 'day']);

      const spot = usd('9000') + usd('0.2') * 51_000n; // 19,200
      const equity = usd('1000') - usd('0.2') + usd('0.01') * 1_000n; // 1,009.8
      const btcAt = await server().services.markets.usdPriceAt('BTC', Math.floor(depositsAtMs / 60_000) * 60_000);
      expect(btcAt).not.toBeNull();
      // The deposits happened in the hour before the first row: they are its flows, BTC at its recorded price.
      const aliceFlow = usd('10000') + (usd('0.2') * usd(btcAt!)) / 10n ** 8n;
      // The daily row at 00:00 counts the flows before 00:00 only (none, unless the hour is midnight).
      const dailyFlows = firstHourMs === dayMs;
      expect(await rows(server(), alice.id)).toEqual([
        {
          account_id: alice.id,
          granularity: 'day',
          at: new Date(dayMs),
          total_value: money(spot + equity),
          spot_value: money(spot),
          futures_equity: money(equity),
          net_flow: dailyFlows ? money(aliceFlow) : '0',
        },
        {
          account_id: alice.id,
          granularity: 'hour',
          at: new Date(firstHourMs),
          total_value: money(spot + equity), // 20,209.8
          spot_value: money(spot),
          futures_equity: money(equity),
          net_flow: money(aliceFlow),
        },
      ]);
      const summary = (await history(alice, '/v1/portfolio')).body as PortfolioSummary;
      expect(summary.total_value).toBe(money(spot + equity));
      expect((await rows(server(), bob.id)).find((row) => row.granularity === 'hour')).toMatchObject({
        total_value: '5000',
        net_flow: '5000',
      });
      expect(await rows(server(), dave.id)).toEqual([]);
    });

    it('is idempotent: the same hour again, or a second run of it, writes nothing and changes nothing', async () => {
      const { alice } = people;
      const before = await rows(server(), alice.id);
      expect(await recorder().tick()).toBeNull();
      await fund(server(), alice.id, 'USD', '1');
      const again = await recorder().record(firstHourMs, ['hour', 'day']);
      expect(again.written).toBe(0);
      expect(await rows(server(), alice.id)).toEqual(before);
    });

    it('the next hour: a withdrawal is a flow out net of its fee; old hourly rows are pruned, daily ones kept', async () => {
      const { bob, dave } = people;
      const reference = await withdraw(server(), bob.id, '1200', '5', '1205');
      // The ledger's times are real; the withdrawal is placed inside the next hour on the server's clock.
      await server().db.query(`UPDATE ledger_entries SET created_at = $1 WHERE reference = $2`, [
        new Date(firstHourMs + 10 * 60_000).toISOString(),
        reference,
      ]);
      const old = (ms: number) => new Date(firstHourMs - ms).toISOString();
      await server().db.query(
        `INSERT INTO portfolio_snapshots (account_id, granularity, at, total_value, spot_value, futures_equity, net_flow)
         VALUES ($1, 'hour', $2, 1, 1, 0, 0), ($1, 'hour', $3, 1, 1, 0, 0), ($1, 'day', $4, 1, 1, 0, 0)`,
        [dave.id, old(9 * DAY_MS), old(7 * DAY_MS), old(400 * DAY_MS)],
      );
      server().clock.advance(HOUR_MS);
      const result = await recorder().tick();
      expect(result).toMatchObject({ at: new Date(firstHourMs + HOUR_MS).toISOString(), pruned: 1 });
      const hourly = (await rows(server(), bob.id)).filter((row) => row.granularity === 'hour');
      expect(hourly.map((row) => [row.at.getTime(), row.total_value, row.net_flow])).toEqual([
        [firstHourMs, '5000', '5000'],
        [firstHourMs + HOUR_MS, '3795', '-1200'],
      ]);
      expect((await rows(server(), dave.id)).map((row) => [row.granularity, row.at.toISOString()])).toEqual([
        ['day', old(400 * DAY_MS)],
        ['hour', old(7 * DAY_MS)],
      ]);
    });

    it('GET /v1/portfolio/history: the range’s snapshots oldest first, then the live value now', async () => {
      const { alice, bob } = people;
      const day = await history(alice, '/v1/portfolio/history?range=1D');
      expect(day.status, JSON.stringify(day.body)).toBe(200);
      const body = day.body as PortfolioHistory;
      expect(body).toMatchObject({ currency: 'USD', range: '1D', granularity: 'hour' });
      const summary = (await history(alice, '/v1/portfolio')).body as PortfolioSummary;
      expect(body.points.map((p) => [p.at, p.total_value, p.live])).toEqual([
        [new Date(firstHourMs).toISOString(), '20209.8', false],
        [new Date(firstHourMs + HOUR_MS).toISOString(), '20210.8', false],
        [expect.any(String), summary.total_value, true],
      ]);
      const live = body.points.at(-1)!;
      expect(live.futures_equity).toBe(summary.futures.equity);
      expect(live.net_flow).toBe('0');
      expect(Date.parse(live.at)).toBeGreaterThan(firstHourMs + HOUR_MS);

      const month = (await history(alice, '/v1/portfolio/history?range=1M')).body as PortfolioHistory;
      expect(month.granularity).toBe('day');
      expect(month.points.map((p) => p.live)).toEqual([false, true]);
      for (const range of ['1W', '3M', '1Y', 'all']) {
        const answer = await history(bob, `/v1/portfolio/history?range=${range}`);
        expect(answer.status).toBe(200);
        // Bob's own rows only: never one of Alice's figures.
        for (const point of (answer.body as PortfolioHistory).points)
          expect(['5000', '3795']).toContain(point.total_value);
      }
    });

    it('owner only: 400 for a bad range, 401 without a token, 404 for another id as for an unknown one', async () => {
      const { alice, bob } = people;
      for (const query of ['', '?range=2D', '?range=1d', '?range=%00', '?range=1D&range=1W']) {
        const answer = await history(alice, `/v1/portfolio/history${query}`);
        expect(answer.status, query).toBe(400);
        expect((answer.body as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
      }
      expect((await server().request('GET', '/v1/portfolio/history?range=1D')).status).toBe(401);
      const other = await history(alice, `/v1/accounts/${bob.id}/portfolio/history?range=1D`);
      const unknown = await history(
        alice,
        '/v1/accounts/00000000-0000-4000-8000-000000000000/portfolio/history?range=1D',
      );
      expect(other.status).toBe(404);
      expect(other.body).toEqual(unknown.body);
      const own = await history(alice, `/v1/accounts/${alice.id.toUpperCase()}/portfolio/history?range=1D`);
      expect(own.status).toBe(200);
      expect((own.body as PortfolioHistory).points.slice(0, -1)).toEqual(
        ((await history(alice, '/v1/portfolio/history?range=1D')).body as PortfolioHistory).points.slice(0, -1),
      );
    });

    it('after downtime: only the current hour is recorded, and the missed hours’ flows are in its net flow', async () => {
      const { bob } = people;
      // Down from the third hour to the fifth: a deposit lands in the fourth.
      await fund(server(), bob.id, 'USD', '300');
      await server().db.query(
        `UPDATE ledger_entries SET created_at = $1 WHERE id = (SELECT max(id) FROM ledger_entries WHERE kind = 'deposit')`,
        [new Date(firstHourMs + 3 * HOUR_MS + 60_000).toISOString()],
      );
      server().clock.advance(3 * HOUR_MS);
      const result = await recorder().tick();
      expect(result?.at).toBe(new Date(firstHourMs + 4 * HOUR_MS).toISOString());
      const hourly = (await rows(server(), bob.id)).filter((row) => row.granularity === 'hour');
      expect(hourly.map((row) => [row.at.getTime() - firstHourMs, row.total_value, row.net_flow])).toEqual([
        [0, '5000', '5000'],
        [HOUR_MS, '3795', '-1200'],
        [4 * HOUR_MS, '4095', '300'],
      ]);
    });

    it('is documented at /docs with its query and response schema', async () => {
      const docs = await server().request('GET', '/docs/json');
      const paths = docs.body.paths as Record<
        string,
        Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>
      >;
      const route = paths['/v1/portfolio/history']?.get;
      expect(route?.parameters?.map((parameter) => parameter.name)).toContain('range');
      const ok = JSON.stringify(route?.responses['200']);
      for (const field of ['points', 'total_value', 'futures_equity', 'net_flow', 'live', '1Y'])
        expect(ok).toContain(field);
      expect(paths['/v1/accounts/{id}/portfolio/history']?.get?.responses).toHaveProperty('404');
    });
  },
  ENVIRONMENT,
);
