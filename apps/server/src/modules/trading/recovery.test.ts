import { MarketEngine, type MarketEvent, ReferenceOrderBook } from '@platform/engine';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { pgliteTarget, postgresTarget, ServerProcess, type Target } from '../../test/server-process.ts';
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

const PAIRS = ['BTC_USD', 'ETH_USD'];
const BAND_BPS = 1000;

/** The environment of the server under test; the flow below adds PRICE_FEED_ENABLED=false. */
const SERVER_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  // The sandbox provider, on purpose: production refuses it otherwise.
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  LOG_LEVEL: 'error',
  LOG_PRETTY: 'false',
  RATE_LIMIT_ENABLED: 'false',
  HISTORY_DAYS: '1',
  HISTORY_MINUTE_HOURS: '1',
  MARKET_MAKER_ENABLED: 'false',
  PRICE_BAND_BPS: String(BAND_BPS),
  ENGINE_SNAPSHOT_EVERY: '150',
};

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
const start = (server: ServerProcess, target: Target, extra: Record<string, string> = {}) =>
  server.start(target, { ...SERVER_ENV, ...extra });

describe.each(targets)('crash recovery (%s)', (_name, makeTarget) => {
  const target = makeTarget();
  const server = new ServerProcess();
  afterAll(async () => {
    await server.stop('SIGKILL');
    await target.cleanup();
  });

  it('after kill -9 during sustained order flow, books, balances and acknowledged orders equal a clean replay', async () => {
    // Create the schema by starting once, register traders, then fund them while the server is down.
    await target.prepare();
    await start(server, target);
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
    await start(server, target, { PRICE_FEED_ENABLED: 'false' });
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
    await start(server, target, { PRICE_FEED_ENABLED: 'false' });
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
