import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MarketEngine, type MarketEvent, ReferenceOrderBook } from '@platform/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/database.ts';
import { registrationBody } from '../auth/test-support.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { postEntries } from '../ledger/service.ts';
import { marketRules } from './exchange.ts';
import { type PairRow, pairSpecFromRow, priceText, quantityText } from './pair-spec.ts';
import { parseCommand } from './sequencer.ts';

/**
 * Crash recovery (issue 4): kill -9 the server during sustained order flow, restart it, and check
 * that the books, the balances and every acknowledged order equal a clean replay of the journal:
 * nothing lost, nothing applied twice. Runs the real server as a child process on a persistent
 * PGlite directory, and on PostgreSQL too when DATABASE_URL is set.
 */

const root = path.resolve(import.meta.dirname, '../../../../..');
const PAIRS = ['BTC_USD', 'ETH_USD'];
const BAND_BPS = 1000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

type Target = {
  name: string;
  env: Record<string, string>;
  open: () => Promise<Database>;
  cleanup: () => Promise<void>;
};

function pgliteTarget(): Target {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-recovery-'));
  return {
    name: 'pglite',
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }),
    cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

function postgresTarget(url: string): Target {
  const database = `recovery_${crypto.randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-recovery-pg-'));
  const databaseUrl = url.replace(/\/[^/?]*(\?.*)?$/, `/${database}$1`);
  return {
    name: 'postgres',
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    open: async () => {
      const admin = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
      await admin.exec(`CREATE DATABASE ${database}`).catch(() => {});
      await admin.close();
      return openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
    },
    cleanup: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const admin = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
      await admin.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.close();
    },
  };
}

class ServerProcess {
  child: ChildProcess | null = null;
  url = '';

  async start(target: Target, extra: Record<string, string> = {}): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    const environment = { ...process.env };
    delete environment.DATABASE_URL;
    this.child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        ...environment,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        LOG_PRETTY: 'false',
        RATE_LIMIT_ENABLED: 'false',
        HISTORY_DAYS: '1',
        HISTORY_MINUTE_HOURS: '1',
        MARKET_MAKER_ENABLED: 'false',
        PRICE_BAND_BPS: String(BAND_BPS),
        ENGINE_SNAPSHOT_EVERY: '150',
        ...target.env,
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`server exited with ${this.child.exitCode}`);
      const healthy = await fetch(`${this.url}/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('server did not start');
  }

  async stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.child = null;
  }

  async request(method: string, urlPath: string, token?: string, body?: unknown) {
    const response = await fetch(`${this.url}${urlPath}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
  }
}

type Replay = {
  depth: { bids: [string, string][]; asks: [string, string][] };
  tradeIds: string[];
  open: Map<string, number>;
};

/** A clean replay of one market's whole journal on a fresh reference engine. */
async function replay(db: Database, pairId: string): Promise<Replay> {
  const pair = await db.query<PairRow>('SELECT * FROM trading_pairs WHERE id = $1', [pairId]);
  const spec = pairSpecFromRow(pair.rows[0]!);
  const engine = new MarketEngine(new ReferenceOrderBook(), marketRules(spec, BAND_BPS));
  const journal = await db.query<{ command: unknown }>(
    'SELECT command FROM market_journal WHERE pair_id = $1 ORDER BY sequence',
    [pairId],
  );
  const tradeIds: string[] = [];
  for (const row of journal.rows) {
    const result = engine.apply(parseCommand(row.command));
    for (const event of result.events as MarketEvent[]) {
      if (event.type === 'trade') tradeIds.push(`${pairId}:${event.tradeId}`);
    }
  }
  const depth = engine.depth(500);
  const text = (levels: typeof depth.bids) =>
    levels.map((level): [string, string] => [
      priceText(spec, level.priceTicks),
      quantityText(spec, level.quantityLots),
    ]);
  return {
    depth: { bids: text(depth.bids), asks: text(depth.asks) },
    tradeIds,
    open: new Map(engine.openOrders().map((order) => [order.orderId, order.remainingLots])),
  };
}

const targets: [string, () => Target][] = [
  ['pglite', pgliteTarget],
  ...(process.env.DATABASE_URL
    ? [['postgres', () => postgresTarget(process.env.DATABASE_URL!)] as [string, () => Target]]
    : []),
];

describe.each(targets)('crash recovery (%s)', (_name, makeTarget) => {
  const target = makeTarget();
  const server = new ServerProcess();
  afterAll(async () => {
    await server.stop('SIGKILL');
    await target.cleanup();
  });

  it('after kill -9 during sustained order flow, books, balances and acknowledged orders equal a clean replay', async () => {
    // Create the schema by starting once, register traders, then fund them while the server is down.
    if (target.name === 'postgres') await (await target.open()).close();
    await server.start(target);
    const traders: { id: string; token: string }[] = [];
    for (let index = 0; index < 4; index++) {
      const body = registrationBody();
      expect((await server.request('POST', '/v1/accounts', undefined, body)).status).toBe(201);
      const login = await server.request('POST', '/v1/auth/login', undefined, {
        login_type: 'email',
        email: body.email,
        password: body.password,
      });
      traders.push({ id: String(login.body.account_id), token: String(login.body.token) });
    }
    const prices: Record<string, number> = {};
    for (const pair of PAIRS) {
      const ticker = await server.request('GET', `/v1/ticker/${pair}`);
      prices[pair] = Number(ticker.body.price);
    }
    await server.stop('SIGTERM');
    const db = await target.open();
    await db.transaction((tx) =>
      postEntries(
        tx,
        traders.flatMap((trader) =>
          ['USD', 'BTC', 'ETH'].map((currency) => ({
            kind: 'deposit',
            reference: `recovery:${trader.id}:${currency}`,
            postings: [
              {
                owner: { kind: 'system' as const, name: 'custody' },
                currency,
                bucket: 'available' as const,
                amount: '-10000000',
              },
              {
                owner: { kind: 'user' as const, accountId: trader.id },
                currency,
                bucket: 'available' as const,
                amount: '10000000',
              },
            ],
          })),
        ),
      ),
    );
    await db.close();

    // Sustained flow: crossing limit orders and cancels from four traders at once, then kill -9.
    await server.start(target, { PRICE_FEED_ENABLED: 'false' });
    const acknowledged = new Set<string>();
    let stop = false;
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const flow = traders.map(async (trader) => {
      const mine: string[] = [];
      while (!stop) {
        const pair = PAIRS[Math.floor(random() * PAIRS.length)]!;
        const reference = prices[pair]!;
        if (mine.length > 3 && random() < 0.25) {
          const orderId = mine.splice(Math.floor(random() * mine.length), 1)[0]!;
          await server.request('POST', `/v1/orders/${orderId}/cancel`, trader.token).catch(() => null);
          continue;
        }
        const side = random() < 0.5 ? 'buy' : 'sell';
        const offset = (random() - 0.5) * 0.004;
        const price = (reference * (1 + offset)).toFixed(2);
        const quantity = pair === 'BTC_USD' ? (0.001 + random() * 0.01).toFixed(5) : (0.01 + random() * 0.1).toFixed(4);
        const response = await server
          .request('POST', '/v1/orders', trader.token, { trading_pair: pair, side, type: 'limit', price, quantity })
          .catch(() => null);
        if (response?.status === 201) {
          acknowledged.add(String(response.body.id));
          mine.push(String(response.body.id));
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await server.stop('SIGKILL');
    stop = true;
    await Promise.all(flow);
    expect(acknowledged.size).toBeGreaterThan(20);

    // Every acknowledged order is in the journal: its row carries a sequence.
    const afterCrash = await target.open();
    const rows = await afterCrash.query<{ id: string; sequence: bigint | null }>(
      'SELECT id, sequence FROM orders WHERE id = ANY($1::uuid[])',
      [[...acknowledged]],
    );
    expect(rows.rows).toHaveLength(acknowledged.size);
    expect(rows.rows.filter((row) => row.sequence === null)).toEqual([]);
    await afterCrash.close();

    // Restart: the books come back from snapshot + journal and equal a clean replay of the journal.
    await server.start(target, { PRICE_FEED_ENABLED: 'false' });
    const books: Record<string, unknown> = {};
    for (const pair of PAIRS) books[pair] = (await server.request('GET', `/v1/orderbook/${pair}?depth=500`)).body;
    await server.stop('SIGTERM');

    const check = await target.open();
    try {
      for (const pair of PAIRS) {
        const clean = await replay(check, pair);
        const book = books[pair] as { bids: unknown; asks: unknown };
        expect(book.bids).toEqual(clean.depth.bids);
        expect(book.asks).toEqual(clean.depth.asks);
        // Every trade of the journal is in the trades table once, and no other.
        const trades = await check.query<{ id: string }>('SELECT id FROM trades WHERE pair_id = $1 ORDER BY id', [
          pair,
        ]);
        expect(trades.rows.map((row) => row.id).sort()).toEqual([...clean.tradeIds].sort());
        // Open orders in the table are exactly the replay's, with the same open quantity.
        const open = await check.query<{ id: string; quantity: string; filled_quantity: string }>(
          `SELECT id, quantity, filled_quantity FROM orders WHERE pair_id = $1 AND status IN ('pending', 'partial')`,
          [pair],
        );
        expect(new Set(open.rows.map((row) => row.id))).toEqual(new Set(clean.open.keys()));
      }
      // Filled quantities equal the sum of each order's trades: nothing applied twice.
      const mismatched = await check.query(
        `SELECT o.id FROM orders o
         LEFT JOIN (
           SELECT order_id, sum(quantity) AS traded FROM (
             SELECT maker_order_id AS order_id, quantity FROM trades
             UNION ALL SELECT taker_order_id, quantity FROM trades) t GROUP BY order_id
         ) s ON s.order_id = o.id
         WHERE o.filled_quantity <> coalesce(s.traded, 0)`,
      );
      expect(mismatched.rows).toEqual([]);
      // No order is left half-placed, and the ledger is balanced with holds equal to open reserves.
      const dangling = await check.query(`SELECT id FROM orders WHERE sequence IS NULL AND status = 'pending'`);
      expect(dangling.rows).toEqual([]);
      expect(await checkLedgerInvariants(check)).toEqual([]);
    } finally {
      await check.close();
    }
  }, 240_000);
});
