import { afterAll, describe, expect, it } from 'vitest';
import { pgliteTarget, postgresTarget, ServerProcess, type Target } from '../../test/server-process.ts';
import { registrationBody } from '../auth/test-support.ts';
import { setAccountRole } from '../kyc/grant-role-command.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { postEntries } from '../ledger/service.ts';
import { checkFuturesInvariants } from './invariants.ts';
import { futuresMarketSpecs } from './markets.ts';
import { checkReplay } from './replay.ts';

/**
 * kill -9 during a liquidation cascade: longs at high leverage against shorts, no bids in the book
 * (makers off), an admin crashes BTC's simulated price, the watch starts liquidating (each through
 * the insurance fund and then ADL against the shorts), and the server is killed as soon as the
 * first liquidation shows. After the crash the books are sound (ledger and futures invariants),
 * every acknowledged order is there; after the restart the cascade finishes: no long is left.
 */

const SERVER_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  LOG_LEVEL: 'error',
  LOG_PRETTY: 'false',
  RATE_LIMIT_ENABLED: 'false',
  HISTORY_DAYS: '1',
  HISTORY_MINUTE_HOURS: '1',
  MARKET_MAKER_ENABLED: 'false',
  MARKET_TAKER_ENABLED: 'false',
};
/** PRICE_BAND_BPS's default (the server runs on it). */
const BAND_BPS = 1_000;
const LONGS = 10;
const SHORTS = 5;

type Trader = { id: string; token: string; email: string };

const targets: [string, () => Target][] = [
  ['pglite', pgliteTarget],
  ...(process.env.DATABASE_URL
    ? [['postgres', () => postgresTarget(process.env.DATABASE_URL as string)] as [string, () => Target]]
    : []),
];

async function register(server: ServerProcess): Promise<Trader> {
  const body = registrationBody();
  expect((await server.request('POST', '/v1/accounts', undefined, body)).status).toBe(201);
  const login = await server.request('POST', '/v1/auth/login', undefined, {
    login_type: 'email',
    email: body.email,
    password: body.password,
  });
  return { id: String(login.body.account_id), token: String(login.body.token), email: String(body.email) };
}

/** Credits every trader 100,000 USD and makes the admin one, while the server is down. */
async function fundAndPromote(target: Target, traders: Trader[], admin: Trader): Promise<void> {
  const db = await target.open();
  await db.transaction(async (tx) => {
    await postEntries(
      tx,
      traders.map((trader) => ({
        kind: 'deposit',
        reference: `crash:${trader.id}`,
        postings: [
          {
            owner: { kind: 'system' as const, name: 'custody' },
            currency: 'USD',
            bucket: 'available' as const,
            amount: '-100000',
          },
          {
            owner: { kind: 'user' as const, accountId: trader.id },
            currency: 'USD',
            bucket: 'available' as const,
            amount: '100000',
          },
        ],
      })),
    );
    await setAccountRole(tx, admin.email, 'admin');
  });
  await db.close();
}

async function expectSoundBooks(target: Target): Promise<void> {
  const db = await target.open();
  try {
    expect(await checkLedgerInvariants(db)).toEqual([]);
    expect(await checkFuturesInvariants(db)).toEqual([]);
  } finally {
    await db.close();
  }
}

async function openPositions(server: ServerProcess, shorts: Trader[], longs: Trader[]): Promise<string[]> {
  const acknowledged: string[] = [];
  const call = async (trader: Trader, method: string, path: string, body?: unknown) => {
    const response = await server.request(method, path, trader.token, body);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body;
  };
  const market = await server.request('GET', '/v1/futures/markets/BTC_USD_PERP');
  const mark = Number(market.body.mark_price);
  for (const [index, trader] of [...shorts, ...longs].entries()) {
    // The longs keep 2,000 USD behind 1 BTC (cross or isolated): a 12 % fall takes more than that.
    const amount = index < shorts.length ? '10000' : '2000';
    await call(trader, 'POST', '/v1/futures/transfers', { direction: 'to_futures', amount });
    const leverage = index < shorts.length ? 20 : 50;
    await call(trader, 'PUT', '/v1/futures/markets/BTC_USD_PERP/leverage', { leverage });
    if (index >= shorts.length && index % 2 === 0) {
      await call(trader, 'PUT', '/v1/futures/markets/BTC_USD_PERP/margin-mode', { margin_mode: 'isolated' });
    }
  }
  for (const short of shorts) {
    const price = (mark * 1.0005).toFixed(1);
    const order = await call(short, 'POST', '/v1/futures/orders', {
      market: 'BTC_USD_PERP',
      side: 'sell',
      type: 'limit',
      price,
      quantity: '2.2',
    });
    acknowledged.push(String(order.id));
  }
  for (const long of longs) {
    const order = await call(long, 'POST', '/v1/futures/orders', {
      market: 'BTC_USD_PERP',
      side: 'buy',
      type: 'market',
      quantity: '1',
    });
    expect(order.status).toBe('filled');
    acknowledged.push(String(order.id));
  }
  return acknowledged;
}

const positionsOf = async (server: ServerProcess, trader: Trader) =>
  ((await server.request('GET', '/v1/futures/positions', trader.token)).body.positions as unknown[]).length;

describe.each(targets)('futures: kill -9 during a liquidation cascade (%s)', (_name, makeTarget) => {
  const target = makeTarget();
  const server = new ServerProcess();
  afterAll(async () => {
    await server.stop('SIGKILL');
    await target.cleanup();
  });

  it('leaves sound books and every acknowledged order, and finishes the cascade after the restart', {
    timeout: 300_000,
  }, async () => {
    await target.prepare();
    await server.start(target, SERVER_ENV);
    const admin = await register(server);
    const traders: Trader[] = [];
    for (let i = 0; i < LONGS + SHORTS; i++) traders.push(await register(server));
    await server.stop('SIGTERM');
    await fundAndPromote(target, traders, admin);
    await server.start(target, SERVER_ENV);
    const shorts = traders.slice(0, SHORTS);
    const longs = traders.slice(SHORTS);
    const acknowledged = await openPositions(server, shorts, longs);

    const shock = await server.request('POST', '/v1/admin/simulator/shock', admin.token, {
      symbol: 'BTC',
      move_percent: '-12',
    });
    expect(shock.status).toBe(200);
    // Kill as soon as the first long is gone: the others are being liquidated, or queued.
    const deadline = Date.now() + 30_000;
    let gone = 0;
    while (gone === 0 && Date.now() < deadline) {
      gone = (await Promise.all(longs.map((long) => positionsOf(server, long)))).filter((n) => n === 0).length;
      if (gone === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(gone).toBeGreaterThan(0);
    await server.stop('SIGKILL');

    await expectSoundBooks(target);
    const db = await target.open();
    const rows = await db.query<{ id: string }>('SELECT id FROM futures_orders WHERE id = ANY($1::uuid[])', [
      acknowledged,
    ]);
    expect(rows.rows).toHaveLength(acknowledged.length);
    // What the restart will load is exactly a clean replay of the journal.
    const replay = await checkReplay(db, new Map(futuresMarketSpecs().map((spec) => [spec.id, spec])), BAND_BPS);
    expect(replay.differences).toEqual([]);
    expect(replay.replayed).toBe(replay.stored);
    await db.close();

    // The simulator starts again from its reference prices: the admin crashes BTC again, and the
    // restarted watch finishes the cascade (at -12 % every long is under maintenance).
    await server.start(target, SERVER_ENV);
    const again = await server.request('POST', '/v1/admin/simulator/shock', admin.token, {
      symbol: 'BTC',
      move_percent: '-12',
    });
    expect(again.status).toBe(200);
    await expect
      .poll(
        async () => (await Promise.all(longs.map((long) => positionsOf(server, long)))).reduce((a, b) => a + b, 0),
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe(0);
    for (const trader of traders) {
      const account = await server.request('GET', '/v1/futures/account', trader.token);
      expect(account.body.wallet_balance as string).not.toMatch(/^-/);
    }
    // The restarted exchange's memory, its rows and a replay of the whole journal (the crash
    // included) are the same state.
    const check = await server.request('GET', '/v1/admin/futures/state-check', admin.token);
    expect(check.status).toBe(200);
    expect(check.body.differences).toEqual([]);
    expect(check.body.equal).toBe(true);
    expect([check.body.memory, check.body.replayed]).toEqual([check.body.stored, check.body.stored]);
    await server.stop('SIGTERM');
    await expectSoundBooks(target);
  });
});
