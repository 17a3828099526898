/**
 * Portfolio snapshots benchmark (issue 17, Deliver 6): one recording run (every account valued, an
 * hourly and a daily row each) over 100,000 accounts on PostgreSQL must take well under a minute.
 *
 *   npm run bench:snapshots                              (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   npx tsx bench/portfolio-snapshots/run.ts --accounts 10000 --runs 3
 *
 * The whole server is built in-process on a schema of its own (created here, dropped at the end,
 * so nothing is left in the database) and the recorder is driven directly. The seed is bulk SQL
 * straight into the ledger's tables (not through the ledger's service): balances only, plus the
 * flow entries the recorder reads; the books it leaves are not balanced, which is why the schema
 * is dropped and never checked.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { AppContext } from '../../apps/server/src/context.ts';
import { type Database, openDatabase } from '../../apps/server/src/db/database.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { createLogger } from '../../apps/server/src/logger.ts';
import type { RunResult } from '../../apps/server/src/modules/portfolio/snapshot-recorder.ts';
import { InProcessPubSub } from '../../apps/server/src/realtime/pubsub.ts';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? Number(argv[index + 1]) : fallback;
};
const ACCOUNTS = option('accounts', 100_000);
const RUNS = option('runs', 5);
/** Accounts with a deposit in each run's hour (half in USD, half in BTC at its recorded price). */
const DEPOSITS_PER_RUN = Math.round(ACCOUNTS * 0.02);
/** Accounts with a futures wallet (not loaded in the exchange's memory: the ledger path). */
const FUTURES_WALLETS = Math.round(ACCOUNTS * 0.05);
const TARGET_MS = 60_000;
const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

async function seed(db: Database, firstAtMs: number): Promise<void> {
  await db.query(
    `INSERT INTO accounts (id, email, first_name, last_name, terms_accepted_at)
     SELECT md5('bench-account-' || i)::uuid, 'bench' || i || '@example.com', 'Bench', 'Account', now()
     FROM generate_series(1, $1::int) AS i`,
    [ACCOUNTS],
  );
  // Three to five spot balances each: USD, BTC and ETH always, SOL and USDT for some.
  await db.query(
    `INSERT INTO ledger_accounts (owner_kind, account_id, currency, available, locked)
     SELECT 'user', a.id, c.currency, round((random() * c.scale)::numeric, 8),
       CASE WHEN random() < 0.1 THEN round((random() * c.scale / 10)::numeric, 8) ELSE 0 END
     FROM accounts a
     CROSS JOIN (VALUES ('USD', 10000), ('BTC', 1), ('ETH', 10), ('SOL', 100), ('USDT', 5000)) AS c (currency, scale)
     WHERE a.email LIKE 'bench%' AND (c.currency IN ('USD', 'BTC', 'ETH') OR random() < 0.4)`,
  );
  await db.query(
    `INSERT INTO ledger_accounts (owner_kind, account_id, currency, available, locked)
     SELECT 'futures', id, 'USD', round((random() * 5000)::numeric, 8), 0
     FROM accounts WHERE email LIKE 'bench%' ORDER BY id LIMIT $1`,
    [FUTURES_WALLETS],
  );
  await seedDeposits(db, firstAtMs);
}

/** For each run, DEPOSITS_PER_RUN deposits in the hour before its bucket: an entry and the user's posting. */
async function seedDeposits(db: Database, firstAtMs: number): Promise<void> {
  for (let run = 0; run < RUNS; run++) {
    const atMs = firstAtMs + run * DAY_MS;
    await db.query(
      `WITH picked AS (
         SELECT la.id AS ledger_account_id, la.currency, row_number() OVER () AS n
         FROM ledger_accounts la
         WHERE la.owner_kind = 'user' AND la.currency = CASE WHEN random() < 0.5 THEN 'USD' ELSE 'BTC' END
         ORDER BY random() LIMIT $1
       ), entries AS (
         INSERT INTO ledger_entries (kind, reference, created_at)
         SELECT 'deposit', 'bench-deposit-' || $3 || '-' || n, $2::timestamptz - (random() * interval '59 minutes')
         FROM picked ORDER BY n
         RETURNING id, reference
       )
       INSERT INTO ledger_postings (entry_id, ledger_account_id, bucket, amount)
       SELECT e.id, p.ledger_account_id, 'available', CASE WHEN p.currency = 'USD' THEN 100 ELSE 0.01 END
       FROM entries e JOIN picked p ON e.reference = 'bench-deposit-' || $3 || '-' || p.n`,
      [DEPOSITS_PER_RUN, new Date(atMs).toISOString(), run],
    );
  }
  await db.query('ANALYZE');
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${Math.round(sorted[0]!)} / ${Math.round(median)} / ${Math.round(sorted.at(-1)!)} ms`;
};

async function main(): Promise<void> {
  const schema = `bench_snapshots_${crypto.randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ kind: 'postgres', url: URL, poolSize: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-snapshots-'));
  let db: Database | undefined;
  let close: (() => Promise<void>) | undefined;
  try {
    db = await openDatabase({ kind: 'postgres', url: URL, poolSize: 10, searchPath: schema });
    await migrate(db);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      PORT: '0',
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      PRICE_FEED_ENABLED: 'false',
      DATABASE_URL: URL,
    });
    const firstAtMs = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
    const seeded = performance.now();
    await seed(db, firstAtMs);
    const seedMs = performance.now() - seeded;
    const context: AppContext = {
      config,
      db,
      log: createLogger(config),
      secrets: { jwtSecret: config.jwtSecret!, dataKey: crypto.randomBytes(32).toString('hex') },
      clock: () => new Date(),
      pubsub: new InProcessPubSub(),
    };
    const { app, services } = await buildApp(context);
    await app.ready();
    close = () => app.close();
    await services.markets.history;
    const recorder = services.portfolio.snapshots;
    const wall: number[] = [];
    const results = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      results.push(await recorder.record(firstAtMs + run * DAY_MS, ['hour', 'day']));
      wall.push(performance.now() - started);
    }
    const repeat = performance.now();
    const again = await recorder.record(firstAtMs, ['hour', 'day']);
    const repeatMs = performance.now() - repeat;
    const rows = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM portfolio_snapshots');
    report({ seedMs, wall, results, repeatMs, again, rows: Number(rows.rows[0]?.n ?? 0) });
  } finally {
    await close?.();
    await db?.close();
    await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(figures: {
  seedMs: number;
  wall: number[];
  results: RunResult[];
  repeatMs: number;
  again: RunResult;
  rows: number;
}): void {
  const { seedMs, wall, results } = figures;
  const load = os.loadavg().map((value) => value.toFixed(1));
  console.log(
    `portfolio snapshots, PostgreSQL, ${os.cpus().length} cores, Node ${process.version}, load ${load.join(' ')}`,
  );
  console.log(
    `seed: ${ACCOUNTS} accounts, ${DEPOSITS_PER_RUN} deposits per run, ${FUTURES_WALLETS} futures wallets in ${Math.round(seedMs)} ms`,
  );
  console.log(
    `accounts valued per run: ${results.map((r) => r.accounts).join(', ')}; rows written: ${results.map((r) => r.written).join(', ')}`,
  );
  console.log(
    `one hourly + daily run, ${RUNS} runs (min / median / max): ${spread(wall)} (target under ${TARGET_MS} ms)`,
  );
  const phases = (result: RunResult) =>
    Object.entries(result.phases)
      .map(([name, ms]) => `${name.replace(/Ms$/, '')} ${ms}`)
      .join(', ');
  for (const [index, result] of results.entries()) console.log(`run ${index + 1}: ${result.ms} ms (${phases(result)})`);
  console.log(
    `the same bucket again (every row already there): ${Math.round(figures.repeatMs)} ms, ${figures.again.written} written (${phases(figures.again)})`,
  );
  console.log(`rows in the table: ${figures.rows}`);
  const worst = Math.max(...wall);
  console.log(worst < TARGET_MS ? 'target met' : 'TARGET MISSED');
}

await main();
