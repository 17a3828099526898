import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import type { Database } from '../../apps/server/src/db/database.ts';
import { postEntries } from '../../apps/server/src/modules/ledger/service.ts';
import { feeAccountName } from '../../apps/server/src/modules/trading/settlement.ts';
import { accountMovements } from '../../apps/server/src/modules/wallet/movements.ts';
import type { PortfolioSummary } from '../../packages/contracts/src/portfolio.ts';
import {
  DEFAULT_POSTGRES_URL,
  HttpClient,
  machineDescription,
  parseArgs,
  percentile,
  postgresTarget,
  registerTraders,
  rng,
  ServerProcess,
  type Trader,
} from '../order-entry/harness.ts';

/**
 * Issue 17 item 6: GET /v1/portfolio of an account with 100,000 fills, on PostgreSQL, p99 under
 * 300 ms. The real server runs as a child process on a fresh database (like the other server
 * benches); the fills are seeded in bulk SQL while it is down, shaped as the trading settlement
 * writes them (one `trade` entry per fill, the buyer's quote and fee out, the base in, the
 * counterparty and the market's fee account on the other side), but without going through the
 * engine or the order holds. Then, through HTTP: the first (cold) load, warm loads, and warm loads
 * with a real fill (two orders matched by the engine) landing before each one. Then the cold load
 * after a restart with a lot checkpoint present (a new server process over the same database),
 * per method, over several restarts.
 *
 *   npm run bench:portfolio                      # 100,000 fills, 500 warm requests, 200 with a new fill, 5 restarts per method
 *   npx tsx bench/portfolio/run.ts --fills 20000 --warm 100 --incremental 50 --restarts 2 --pg-url postgres://...
 *   --keep: leave the database in place (a diagnostic; its name is printed)
 */

const args = parseArgs(process.argv.slice(2));
const FILLS = Number(args.get('fills') ?? 100_000);
const WARM = Number(args.get('warm') ?? 500);
const INCREMENTAL = Number(args.get('incremental') ?? 200);
/** Server restarts per method, each timing the first load (from the checkpoint and the tail after it). */
const RESTARTS = Number(args.get('restarts') ?? 5);
const POSTGRES_URL = args.get('pg-url') ?? process.env.DATABASE_URL ?? DEFAULT_POSTGRES_URL;
/** A diagnostic: keep the bench database (its name is printed) to look at the queries afterwards. */
const KEEP = args.has('keep');
const TARGET_P99_MS = 300;
const PAIR = 'BTC_USD';
/** Fills per INSERT statement. */
const CHUNK = 10_000;
/** The seeded history spans two years up to an hour ago. */
const HISTORY_MS = 2 * 365 * 86_400_000;

type Fill = { side: 'buy' | 'sell'; quantity: string; price: string; atMs: number };

/**
 * 60 % buys of 0.0001-0.01 BTC, the rest sells of up to what is held, at a price walking from
 * 30,000 USD by up to ±0.5 % a fill (2 decimals): an account that accumulates, so many lots stay
 * open under every method (the summary values all of them).
 */
function fills(count: number): { list: Fill[]; heldTenThousandths: number } {
  const random = rng(20_261_126);
  const list: Fill[] = [];
  let cents = 3_000_000;
  let held = 0;
  const start = Date.now() - HISTORY_MS - 3_600_000;
  for (let index = 0; index < count; index++) {
    cents = Math.max(100_000, Math.round(cents * (1 + (random() - 0.5) / 100)));
    const wanted = 1 + Math.floor(random() * 100);
    const buy = held === 0 || random() < 0.6;
    const units = buy ? wanted : Math.min(wanted, held);
    held += buy ? units : -units;
    list.push({
      side: buy ? 'buy' : 'sell',
      quantity: (units / 10_000).toFixed(4),
      price: (cents / 100).toFixed(2),
      atMs: start + Math.floor((index * HISTORY_MS) / count),
    });
  }
  return { list, heldTenThousandths: held };
}

async function ledgerAccount(db: Database, where: string, params: unknown[]): Promise<string> {
  const result = await db.query<{ id: string }>(`SELECT id::text AS id FROM ledger_accounts WHERE ${where}`, params);
  if (!result.rows[0]) throw new Error(`no ledger account ${where} ${params.join(',')}`);
  return result.rows[0].id;
}

/** The ledger accounts the fills touch, created by ordinary ledger entries first. */
async function prepareAccounts(db: Database, trader: Trader, maker: Trader) {
  const user = (accountId: string) => ({ kind: 'user' as const, accountId });
  const system = (name: string) => ({ kind: 'system' as const, name });
  const available = 'available' as const;
  await postEntries(db, [
    {
      kind: 'deposit',
      reference: `bench:portfolio:${trader.id}:usd`,
      postings: [
        { owner: system('custody'), currency: 'USD', bucket: available, amount: '-1000000000' },
        { owner: user(trader.id), currency: 'USD', bucket: available, amount: '1000000000' },
      ],
    },
    {
      kind: 'deposit',
      reference: `bench:portfolio:${maker.id}:btc`,
      postings: [
        { owner: system('custody'), currency: 'BTC', bucket: available, amount: '-1000' },
        { owner: user(maker.id), currency: 'BTC', bucket: available, amount: '1000' },
      ],
    },
    {
      kind: 'bench_setup',
      reference: `bench:portfolio:${trader.id}:accounts`,
      postings: [
        { owner: system('market_making'), currency: 'USD', bucket: available, amount: '-1' },
        { owner: system(feeAccountName(PAIR)), currency: 'USD', bucket: available, amount: '1' },
        { owner: system('market_making'), currency: 'BTC', bucket: available, amount: '-1' },
        { owner: user(trader.id), currency: 'BTC', bucket: available, amount: '1' },
      ],
    },
  ]);
  const userAccount = (currency: string) =>
    ledgerAccount(db, `owner_kind = 'user' AND account_id = $1 AND currency = $2`, [trader.id, currency]);
  const systemAccount = (name: string, currency: string) =>
    ledgerAccount(db, `owner_kind = 'system' AND system_name = $1 AND currency = $2`, [name, currency]);
  return {
    userUsd: await userAccount('USD'),
    userBtc: await userAccount('BTC'),
    houseUsd: await systemAccount('market_making', 'USD'),
    houseBtc: await systemAccount('market_making', 'BTC'),
    fees: await systemAccount(feeAccountName(PAIR), 'USD'),
  };
}

/**
 * One statement per chunk: the entries, then five postings per fill (the settlement's shape, fee
 * 0.1 % on each side in the quote), all in the available bucket (no order holds are seeded).
 */
const INSERT_FILLS = `
WITH f AS (
  SELECT * FROM unnest($1::text[], $2::numeric[], $3::numeric[], $4::timestamptz[], $5::text[])
    WITH ORDINALITY AS f (side, quantity, price, at, reference, n)
), e AS (
  INSERT INTO ledger_entries (kind, reference, created_at)
  SELECT 'trade', reference, at FROM f ORDER BY n
  RETURNING id, reference
)
INSERT INTO ledger_postings (entry_id, ledger_account_id, bucket, amount)
SELECT e.id, p.account, 'available', p.amount
FROM e JOIN f USING (reference)
CROSS JOIN LATERAL (VALUES
  ($6::bigint, CASE WHEN f.side = 'buy' THEN -(f.quantity * f.price * 1.001) ELSE f.quantity * f.price * 0.999 END),
  ($7::bigint, CASE WHEN f.side = 'buy' THEN f.quantity ELSE -f.quantity END),
  ($8::bigint, CASE WHEN f.side = 'buy' THEN f.quantity * f.price * 0.999 ELSE -(f.quantity * f.price * 1.001) END),
  ($9::bigint, CASE WHEN f.side = 'buy' THEN -f.quantity ELSE f.quantity END),
  ($10::bigint, f.quantity * f.price * 0.002)
) AS p (account, amount)
ORDER BY e.id`;

async function seed(db: Database, trader: Trader, maker: Trader, list: readonly Fill[]): Promise<void> {
  const accounts = await prepareAccounts(db, trader, maker);
  const ids = [accounts.userUsd, accounts.userBtc, accounts.houseUsd, accounts.houseBtc, accounts.fees];
  await db.transaction(async (tx) => {
    const first = await tx.query<{ id: string }>(`SELECT nextval('ledger_entries_id_seq')::text AS id`);
    for (let start = 0; start < list.length; start += CHUNK) {
      const chunk = list.slice(start, start + CHUNK);
      await tx.query(INSERT_FILLS, [
        chunk.map((fill) => fill.side),
        chunk.map((fill) => fill.quantity),
        chunk.map((fill) => fill.price),
        chunk.map((fill) => new Date(fill.atMs).toISOString()),
        chunk.map((_, index) => `${PAIR}:bench-${trader.id.slice(0, 8)}-${start + index}`),
        ...ids,
      ]);
    }
    // The balances are the sums of their postings (the ledger's invariant), as the settlement keeps them.
    await tx.query(
      `UPDATE ledger_accounts la SET available = la.available + s.total
       FROM (SELECT ledger_account_id, sum(amount) AS total FROM ledger_postings p
             JOIN ledger_entries e ON e.id = p.entry_id
             WHERE e.id > $1 AND e.kind = 'trade' GROUP BY ledger_account_id) s
       WHERE la.id = s.ledger_account_id`,
      [first.rows[0]!.id],
    );
  });
  await db.query('ANALYZE ledger_postings');
  await db.query('ANALYZE ledger_entries');
}

async function timed(client: HttpClient, path: string, token: string, method = 'GET', body?: string) {
  const started = performance.now();
  const response = await client.request(method, path, token, body);
  const ms = performance.now() - started;
  if (response.status !== 200 && response.status !== 201) {
    throw new Error(`${method} ${path}: ${response.status} ${response.body.slice(0, 300)}`);
  }
  return { ms, body: response.body };
}

const btcOf = (body: string) => (JSON.parse(body) as PortfolioSummary).holdings.find((row) => row.asset === 'BTC');

function summarise(name: string, samples: number[]): { name: string; p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
}

/** Warm loads, each after a real fill: the maker rests a sell, the trader's buy takes it. */
async function incrementalLoads(client: HttpClient, trader: Trader, maker: Trader): Promise<number[]> {
  const samples: number[] = [];
  const order = (side: string) =>
    JSON.stringify({ trading_pair: PAIR, side, type: 'limit', price: '30000.00', quantity: '0.001' });
  for (let index = 0; index < INCREMENTAL; index++) {
    await timed(client, '/v1/orders', maker.token, 'POST', order('sell'));
    const taken = await timed(client, '/v1/orders', trader.token, 'POST', order('buy'));
    const status = (JSON.parse(taken.body) as { status: string }).status;
    if (status !== 'filled') throw new Error(`the bench's buy did not fill: ${status}`);
    samples.push((await timed(client, '/v1/portfolio', trader.token)).ms);
  }
  return samples;
}

async function main(): Promise<void> {
  const target = postgresTarget(POSTGRES_URL);
  const server = new ServerProcess();
  const wallStart = performance.now();
  console.log(`portfolio bench: ${FILLS} fills, PostgreSQL, ${machineDescription()}`);
  try {
    await target.prepare();
    await server.start(target);
    const [trader, maker] = await registerTraders(server, 2);
    await server.stop();
    const db = await target.open();
    const { list, heldTenThousandths } = fills(FILLS);
    const seedStart = performance.now();
    try {
      await seed(db, trader!, maker!, list);
    } finally {
      await db.close();
    }
    console.log(`seeded ${FILLS} fills in ${((performance.now() - seedStart) / 1000).toFixed(1)} s (bulk SQL)`);
    await server.start(target);
    const client = new HttpClient(server.url, 1);
    const costs: Record<'fifo' | 'hifo', string> = { fifo: '', hifo: '' };
    try {
      const cold = await timed(client, '/v1/portfolio', trader!.token);
      const btc = btcOf(cold.body);
      const expected = (1 + heldTenThousandths / 10_000).toFixed(4).replace(/\.?0+$/, '');
      if (btc?.amount !== expected || btc.average_cost === null) {
        throw new Error(`unexpected BTC holding ${JSON.stringify(btc)} (expected ${expected})`);
      }
      console.log(`BTC held ${btc.amount}, average cost ${btc.average_cost}, unrealised ${btc.unrealised_pnl}`);
      const lots = await timed(client, '/v1/portfolio/lots?asset=BTC', trader!.token);
      const openLots = (JSON.parse(lots.body) as { lots: unknown[] }).lots.length;
      const warm: number[] = [];
      for (let index = 0; index < WARM; index++) warm.push((await timed(client, '/v1/portfolio', trader!.token)).ms);
      const incremental = await incrementalLoads(client, trader!, maker!);
      costs.fifo = costOf((await timed(client, '/v1/portfolio', trader!.token)).body);
      await timed(client, '/v1/portfolio/settings', trader!.token, 'PUT', JSON.stringify({ lot_method: 'hifo' }));
      const coldHifo = await timed(client, '/v1/portfolio', trader!.token);
      costs.hifo = costOf(coldHifo.body);
      report({ cold: cold.ms, coldHifo: coldHifo.ms, lots: lots.ms, openLots, warm, incremental });
    } finally {
      client.close();
    }
    await checkpointSizes(target, trader!);
    const hifo = await restartedLoads(server, target, [trader!, maker!], 'hifo', costs.hifo);
    const fifo = await restartedLoads(server, target, [trader!, maker!], 'fifo', costs.fifo);
    reportRestarts({ fifo, hifo });
    await timeTheRead(target, trader!);
  } finally {
    await server.stop().catch(() => {});
    if (KEEP) console.log(`kept the database ${target.database} (drop it yourself)`);
    else await target.cleanup();
    const seconds = ((performance.now() - wallStart) / 1000).toFixed(0);
    console.log(`done in ${seconds} s${KEEP ? '' : '; the bench database is dropped'}`);
  }
}

/** The cost-basis figures of the BTC holding (they do not move with the live price). */
function costOf(body: string): string {
  const btc = btcOf(body);
  return JSON.stringify([btc?.amount, btc?.average_cost, btc?.cost_basis]);
}

/** Waits until the server has written the checkpoints of both methods (after answering). */
async function checkpointSizes(target: ReturnType<typeof postgresTarget>, trader: Trader): Promise<void> {
  const db = await target.open();
  try {
    type Row = { method: string; books: Uint8Array; events: string };
    let rows: Row[] = [];
    for (let attempt = 0; attempt < 100 && rows.length < 2; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const result = await db.query<Row>(
        `SELECT method, books, events::text AS events FROM portfolio_lot_checkpoints WHERE account_id = $1 ORDER BY method`,
        [trader.id],
      );
      rows = result.rows;
    }
    if (rows.length < 2) throw new Error(`the checkpoints were not written: ${rows.map((row) => row.method)}`);
    for (const row of rows) {
      const json = gunzipSync(row.books);
      const assets = (JSON.parse(json.toString('utf8')) as { assets: [string, number, { lots: { ids: unknown[] } }][] })
        .assets;
      const openLots = assets.reduce((total, [, , book]) => total + book.lots.ids.length, 0);
      const size = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
      console.log(
        `checkpoint ${row.method}: ${row.events} events, ${openLots} open lots, JSON ${size(json.length)}, stored (gzip) ${size(row.books.length)}`,
      );
    }
  } finally {
    await db.close();
  }
}

type RestartSamples = { trader: number[]; first: number[] };

/**
 * The account's first GET /v1/portfolio after a restart (a new server process over the same
 * database, so an empty lot cache), `RESTARTS` times for the method: the checkpoint, then the
 * movements after it. Before it, the process's very first request, the small maker account's
 * summary (no checkpoint, a few entries), timed apart: it pays for the cold process (connections,
 * code not yet optimised) that any first request pays. Each answer's cost basis must equal the one
 * the server gave before the restarts (`expected`).
 */
async function restartedLoads(
  server: ServerProcess,
  target: ReturnType<typeof postgresTarget>,
  [trader, maker]: [Trader, Trader],
  method: 'fifo' | 'hifo',
  expected: string,
): Promise<RestartSamples> {
  const samples: RestartSamples = { trader: [], first: [] };
  for (let run = 0; run < RESTARTS; run++) {
    await server.stop();
    await server.start(target);
    const client = new HttpClient(server.url, 1);
    try {
      samples.first.push((await timed(client, '/v1/portfolio', maker.token)).ms);
      if (run === 0) {
        const body = JSON.stringify({ lot_method: method });
        await timed(client, '/v1/portfolio/settings', trader.token, 'PUT', body);
      }
      const load = await timed(client, '/v1/portfolio', trader.token);
      if (costOf(load.body) !== expected)
        throw new Error(`${method} after a restart: ${costOf(load.body)} != ${expected}`);
      samples.trader.push(load.ms);
    } finally {
      client.close();
    }
  }
  return samples;
}

function reportRestarts(samples: Record<'fifo' | 'hifo', RestartSamples>): void {
  const list = (values: number[]) => values.map((ms) => ms.toFixed(0)).join(', ');
  for (const method of ['fifo', 'hifo'] as const) {
    const { trader, first } = samples[method];
    const row = summarise(`first load after a restart, ${method} checkpoint`, trader);
    console.log(
      `${row.name} (${trader.length} restarts): ${list(trader)} ms; p50 ${row.p50.toFixed(0)} ms, max ${row.max.toFixed(0)} ms` +
        ` (the process's first request before it, a small account: ${list(first)} ms)`,
    );
  }
  const worst = Math.max(...samples.fifo.trader, ...samples.hifo.trader);
  const verdict = worst < TARGET_P99_MS ? 'met' : 'NOT met';
  console.log(`cold with a checkpoint, target ${TARGET_P99_MS} ms: ${verdict} (worst ${worst.toFixed(0)} ms)`);
}

/** The cold build's database part alone: the whole history's movements in one statement, three times. */
async function timeTheRead(target: ReturnType<typeof postgresTarget>, trader: Trader): Promise<void> {
  const db = await target.open();
  try {
    const times: string[] = [];
    let rows = 0;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      rows = (await accountMovements(db, trader.id)).movements.length;
      times.push(`${(performance.now() - started).toFixed(0)} ms`);
    }
    console.log(`the whole history's movements (${rows} rows) read alone: ${times.join(', ')}`);
  } finally {
    await db.close();
  }
}

function report(figures: {
  cold: number;
  coldHifo: number;
  lots: number;
  openLots: number;
  warm: number[];
  incremental: number[];
}): void {
  const rows = [
    summarise(`warm (${WARM} requests)`, figures.warm),
    summarise(`a new fill before each (${INCREMENTAL})`, figures.incremental),
  ];
  console.log(
    `cold first load (fifo): ${figures.cold.toFixed(0)} ms; first load after switching to hifo: ${figures.coldHifo.toFixed(0)} ms`,
  );
  console.log(
    `GET /v1/portfolio/lots?asset=BTC (whole history, every request): ${figures.lots.toFixed(0)} ms, ${figures.openLots} open lots`,
  );
  console.log('| phase | p50 | p99 | max |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const row of rows)
    console.log(`| ${row.name} | ${row.p50.toFixed(1)} ms | ${row.p99.toFixed(1)} ms | ${row.max.toFixed(1)} ms |`);
  const worst = Math.max(...rows.map((row) => row.p99));
  console.log(
    `target p99 < ${TARGET_P99_MS} ms (warm): ${worst < TARGET_P99_MS ? 'met' : 'NOT met'}; cold: ${figures.cold < TARGET_P99_MS ? 'met' : 'NOT met'}`,
  );
}

await main();
