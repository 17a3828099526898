import crypto from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Database } from '../../apps/server/src/db/database.ts';
import { checkLedgerInvariants, type LedgerViolation } from '../../apps/server/src/modules/ledger/invariants.ts';
import {
  cpuSecondsBetween,
  cpuSecondsByPid,
  DEFAULT_POSTGRES_URL,
  fundTraders,
  HttpClient,
  listOption,
  machineCpu,
  machineDescription,
  parseArgs,
  percentile,
  pgliteTarget,
  postgresTarget,
  processCpuSeconds,
  registerTraders,
  rng,
  Samples,
  ServerProcess,
  sleep,
  type Target,
  type Trader,
} from '../order-entry/harness.ts';

/**
 * Internal transfers between users over HTTP: the real server (PGlite or PostgreSQL) takes
 * `POST /api/v1/wallet/transfer` from many keep-alive connections in a closed loop (exactly
 * --in-flight requests outstanding at all times), each one held on the sender's balance in its own
 * transaction and settled to the recipient by the background settler. After the window the bench
 * waits until every transfer is FINISHED, then checks the ledger's invariants with the server down.
 *
 *   npx tsx bench/transfers/run.ts                          # PGlite and PostgreSQL
 *   npx tsx bench/transfers/run.ts --db postgres --in-flight 64 --duration 15 --accounts 100
 *   # diagnostics, as in order-entry: --pg-log, --pg-settings synchronous_commit=off,
 *   # --server-env DATABASE_POOL_SIZE=20
 */

const args = parseArgs(process.argv.slice(2));
const ACCOUNTS = Number(args.get('accounts') ?? 100);
const IN_FLIGHT = Number(args.get('in-flight') ?? 64);
const WARMUP_S = Number(args.get('warmup') ?? 3);
const DURATION_S = Number(args.get('duration') ?? 15);
const DATABASES = (args.get('db') ?? 'pglite,postgres').split(',');
const POSTGRES_URL = args.get('pg-url') ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
/** How long the bench waits for the settler after the window before it calls settlement stuck. */
const SETTLE_TIMEOUT_MS = Number(args.get('settle-timeout') ?? 120) * 1000;
const CURRENCY = 'USDT';
const FUNDING = '1000000';
/** The issue's target (PostgreSQL, 64 in flight). */
const TARGET_RATE = 1500;
const TARGET_P99_MS = 50;
/** Extra server environment (diagnostics), e.g. `--server-env DATABASE_POOL_SIZE=20`. */
const SERVER_ENV = listOption(args, 'server-env');

type Account = Trader & { username: string };

type Operation = { sender: number; body: string; key: string };

/** A random sender, a different random recipient, 1.00-100.00 USDT, a fresh idempotency key. */
class Workload {
  private readonly random = rng(20_261_123);
  private readonly run = crypto.randomBytes(4).toString('hex');
  private count = 0;

  constructor(private readonly accounts: Account[]) {}

  next(): Operation {
    const random = this.random;
    const n = this.accounts.length;
    const sender = Math.floor(random() * n);
    const recipient = (sender + 1 + Math.floor(random() * (n - 1))) % n;
    const cents = 100 + Math.floor(random() * 9_901);
    const amount = (cents / 100).toFixed(2);
    const body = JSON.stringify({ to_username: this.accounts[recipient]!.username, currency: 'usdt', amount });
    return { sender, body, key: `bench:${this.run}:${this.count++}` };
  }
}

type Cpu = {
  server: number;
  postgres: Map<number, number>;
  client: NodeJS.CpuUsage;
  machine: ReturnType<typeof machineCpu>;
};

function cpuNow(server: ServerProcess): Cpu {
  return {
    server: processCpuSeconds(server.pid!),
    postgres: cpuSecondsByPid('postgres'),
    client: process.cpuUsage(),
    machine: machineCpu(),
  };
}

type Created = { id: string; sender: number; status: string };

type RunResult = {
  durationS: number;
  rate: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  /** Outcomes of the requests sent in the window. */
  window: Record<string, number>;
  /** Outcomes of every request (warm-up, window and the stragglers after it). */
  all: Record<string, number>;
  /** The status field of the 201 answers. */
  answeredStatus: Record<string, number>;
  created: Created[];
  cpu: { server: number; postgres: number; client: number; machine: number };
  windowEnd: number;
};

async function runLoad(
  client: HttpClient,
  server: ServerProcess,
  accounts: Account[],
  workload: Workload,
): Promise<RunResult> {
  const latency = new Samples();
  const window: Record<string, number> = {};
  const all: Record<string, number> = {};
  const answeredStatus: Record<string, number> = {};
  const created: Created[] = [];
  let completed = 0;
  const start = performance.now();
  const windowStart = start + WARMUP_S * 1000;
  const windowEnd = windowStart + DURATION_S * 1000;
  let cpuStart: Cpu | null = null;
  let cpuEnd: Cpu | null = null;
  const startTimer = setTimeout(() => {
    cpuStart = cpuNow(server);
  }, windowStart - performance.now());
  const endTimer = setTimeout(() => {
    cpuEnd = cpuNow(server);
  }, windowEnd - performance.now());

  const count = (record: Record<string, number>, key: string) => {
    record[key] = (record[key] ?? 0) + 1;
  };

  // Closed loop: each worker has exactly one request outstanding until the window ends.
  const worker = async () => {
    while (performance.now() < windowEnd) {
      const op = workload.next();
      const account = accounts[op.sender]!;
      const sent = performance.now();
      const measured = sent >= windowStart;
      let outcome: string;
      try {
        const response = await client.request('POST', '/api/v1/wallet/transfer', account.token, op.body, {
          'idempotency-key': op.key,
        });
        const answered = performance.now();
        outcome = String(response.status);
        if (response.status === 201) {
          const transfer = JSON.parse(response.body) as { id: string; status: string };
          created.push({ id: transfer.id, sender: op.sender, status: transfer.status });
          count(answeredStatus, transfer.status);
          if (answered >= windowStart && answered < windowEnd) completed++;
        } else if ((all[outcome] ?? 0) < 3) {
          // The first few refusals of each kind, to see what they were.
          console.log(`  ${response.status}: ${response.body.slice(0, 200)}`);
        }
        if (measured) latency.push(answered - sent);
      } catch (error) {
        outcome = `network error (${error instanceof Error ? error.message : String(error)})`;
      }
      count(all, outcome);
      if (measured) count(window, outcome);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  clearTimeout(startTimer);
  clearTimeout(endTimer);
  const end = cpuEnd ?? cpuNow(server);
  const begin = cpuStart ?? end;
  const sorted = latency.sorted();
  return {
    durationS: DURATION_S,
    rate: completed / DURATION_S,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    window,
    all,
    answeredStatus,
    created,
    cpu: {
      server: (end.server - begin.server) / DURATION_S,
      postgres: cpuSecondsBetween(begin.postgres, end.postgres) / DURATION_S,
      client: (end.client.user - begin.client.user + end.client.system - begin.client.system) / 1e6 / DURATION_S,
      machine:
        ((end.machine.busy - begin.machine.busy) / (end.machine.total - begin.machine.total || 1)) * os.cpus().length,
    },
    windowEnd,
  };
}

const UNSETTLED_SQL = `SELECT count(*)::int AS n FROM transfers WHERE status IN ('CREATED', 'WAITING')`;

async function unsettled(db: Database): Promise<number> {
  const result = await db.query<{ n: number }>(UNSETTLED_SQL);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * PostgreSQL: polls the transfers table (a second connection) until nothing is CREATED or
 * WAITING. Answers the milliseconds from the end of the window, or null on timeout.
 */
async function settleLagPostgres(db: Database, windowEnd: number): Promise<number | null> {
  const deadline = performance.now() + SETTLE_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if ((await unsettled(db)) === 0) return performance.now() - windowEnd;
    await sleep(5);
  }
  return null;
}

/**
 * PGlite lives inside the server process, so its database cannot be opened while the server runs:
 * polls the status endpoint of the last transfers answered (the settler takes the oldest first, so
 * they are the last to settle) until all are FINISHED. The database itself is checked for
 * unsettled transfers once the server is down.
 */
async function settleLagHttp(
  client: HttpClient,
  accounts: Account[],
  created: Created[],
  windowEnd: number,
): Promise<number | null> {
  let tail = created.slice(-IN_FLIGHT * 2).filter((transfer) => transfer.status !== 'FINISHED');
  const deadline = performance.now() + SETTLE_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (tail.length === 0) return performance.now() - windowEnd;
    const answers = await Promise.all(
      tail.map((transfer) =>
        client.request('GET', `/api/v1/wallet/transfer/${transfer.id}/status`, accounts[transfer.sender]!.token),
      ),
    );
    tail = tail.filter((_, index) => {
      const answer = answers[index]!;
      if (answer.status !== 200) throw new Error(`status poll: ${answer.status} ${answer.body.slice(0, 200)}`);
      const status = (JSON.parse(answer.body) as { result: { status: string } }).result.status;
      if (status === 'REJECTED') throw new Error(`transfer ${tail[index]!.id} was REJECTED`);
      return status !== 'FINISHED';
    });
    if (tail.length > 0) await sleep(5);
  }
  return null;
}

type Verification = {
  violations: LedgerViolation[];
  unsettled: number;
  byStatus: Record<string, number>;
  rows: number;
  transferEntries: number;
  usdtTotal: string;
  expectedTotal: string;
};

async function verify(target: Target, accounts: Account[]): Promise<Verification> {
  const db = await target.open();
  try {
    const violations = await checkLedgerInvariants(db);
    const byStatus = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM transfers GROUP BY status ORDER BY status',
    );
    const entries = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'transfer'`,
    );
    const total = await db.query<{ total: string | null }>(
      `SELECT trim_scale(sum(available + locked))::text AS total FROM ledger_accounts
       WHERE owner_kind = 'user' AND currency = $1 AND account_id = ANY($2::uuid[])`,
      [CURRENCY, accounts.map((account) => account.id)],
    );
    const statuses: Record<string, number> = {};
    for (const row of byStatus.rows) statuses[row.status] = Number(row.n);
    return {
      violations,
      unsettled: await unsettled(db),
      byStatus: statuses,
      rows: Object.values(statuses).reduce((sum, n) => sum + n, 0),
      transferEntries: Number(entries.rows[0]?.n ?? 0),
      usdtTotal: total.rows[0]?.total ?? '0',
      expectedTotal: String(BigInt(FUNDING) * BigInt(accounts.length)),
    };
  } finally {
    await db.close();
  }
}

/** Registers the accounts (server up) and gives each a unique username. */
async function setUpAccounts(server: ServerProcess): Promise<Account[]> {
  const traders = await registerTraders(server, ACCOUNTS);
  const suffix = crypto.randomBytes(3).toString('hex');
  const accounts: Account[] = [];
  for (let index = 0; index < traders.length; index += 10) {
    const wave = traders.slice(index, index + 10).map(async (trader, offset) => {
      const username = `bench_${index + offset}_${suffix}`;
      const answer = await server.request('PUT', `/v1/accounts/${trader.id}/profile`, trader.token, { username });
      if (answer.status !== 200)
        throw new Error(`username ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return { ...trader, username };
    });
    accounts.push(...(await Promise.all(wave)));
  }
  return accounts;
}

const ms = (value: number | null) =>
  value === null || Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1);
const outcomes = (record: Record<string, number>, ok: string) =>
  Object.entries(record)
    .filter(([key]) => key !== ok)
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ') || 'none';

async function benchTarget(target: Target): Promise<{ target: string; result: RunResult; lag: number | null }> {
  const server = new ServerProcess();
  try {
    const started = performance.now();
    await target.prepare();
    await server.start(target, SERVER_ENV);
    const accounts = await setUpAccounts(server);
    await server.stop();
    const db = await target.open();
    await fundTraders(db, accounts, { [CURRENCY]: FUNDING }, 'transfers');
    await db.close();
    await server.start(target, SERVER_ENV);
    console.log(
      `\n${target.name}: ${ACCOUNTS} accounts registered, named and funded with ${FUNDING} ${CURRENCY} each in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(
      `${target.name}: ${IN_FLIGHT} in flight (closed loop), ${WARMUP_S} s warm-up + ${DURATION_S} s measured; ${machineDescription()}`,
    );
    const client = new HttpClient(server.url, IN_FLIGHT);
    const workload = new Workload(accounts);
    // PostgreSQL: a second connection to watch the settler while the server runs.
    const watch = target.name === 'postgres' ? await target.open() : null;
    const result = await runLoad(client, server, accounts, workload);
    const backlog = watch ? await unsettled(watch) : null;
    const lag = watch
      ? await settleLagPostgres(watch, result.windowEnd)
      : await settleLagHttp(client, accounts, result.created, result.windowEnd);
    await watch?.close();
    client.close();
    await server.stop();
    const check = await verify(target, accounts);

    const passed =
      check.violations.length === 0 &&
      check.unsettled === 0 &&
      check.usdtTotal === check.expectedTotal &&
      check.rows === result.created.length &&
      check.transferEntries === (check.byStatus.FINISHED ?? 0);
    const cpu = result.cpu;
    console.log(
      '\n| database | in flight | transfers/s (201) | p50 ms | p99 | p99.9 | max | errors | settle lag ms | CPU cores: server / postgres / client / machine | ledger check |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |');
    console.log(
      `| ${target.name} | ${IN_FLIGHT} | ${Math.round(result.rate)} | ${ms(result.p50)} | ${ms(result.p99)} | ` +
        `${ms(result.p999)} | ${ms(result.max)} | ${outcomes(result.window, '201')} | ${lag === null ? 'timeout' : ms(lag)} | ` +
        `${cpu.server.toFixed(2)} / ${target.name === 'postgres' ? cpu.postgres.toFixed(2) : '-'} / ` +
        `${cpu.client.toFixed(2)} / ${cpu.machine.toFixed(2)} | ${passed ? 'passed' : 'FAILED'} |`,
    );
    console.log(
      `\n${target.name}: all requests (warm-up, window, stragglers): ${result.created.length} created; other outcomes: ` +
        `${outcomes(result.all, '201')}; status in the 201 answers: ${JSON.stringify(result.answeredStatus)}` +
        (backlog === null ? '' : `; unsettled at the end of the window: ${backlog}`),
    );
    console.log(
      `${target.name}: database after the run: transfers ${JSON.stringify(check.byStatus)} (${check.rows} rows, ` +
        `${result.created.length} created answers), ${check.transferEntries} 'transfer' ledger entries, ` +
        `${check.unsettled} unsettled; accounts' ${CURRENCY} total ${check.usdtTotal} (expected ${check.expectedTotal}); ` +
        `ledger invariants: ${check.violations.length === 0 ? 'none violated' : `${check.violations.length} violations`}`,
    );
    for (const violation of check.violations.slice(0, 20)) console.log(`  ${violation.kind}: ${violation.details}`);
    return { target: target.name, result, lag };
  } finally {
    await server.stop().catch(() => undefined);
    await target.cleanup();
  }
}

const summaries: { target: string; result: RunResult; lag: number | null }[] = [];
for (const name of DATABASES) {
  const target =
    name === 'postgres'
      ? postgresTarget(POSTGRES_URL, { logStatements: args.has('pg-log'), settings: listOption(args, 'pg-settings') })
      : pgliteTarget();
  if (target.database) console.log(`${target.name}: database ${target.database}`);
  summaries.push(await benchTarget(target));
}
for (const summary of summaries) {
  if (summary.target !== 'postgres' || IN_FLIGHT !== 64) continue;
  const met = summary.result.rate >= TARGET_RATE && summary.result.p99 < TARGET_P99_MS;
  console.log(
    `\ntarget (PostgreSQL, 64 in flight: at least ${TARGET_RATE} transfers/s, p99 under ${TARGET_P99_MS} ms): ` +
      `${Math.round(summary.result.rate)} transfers/s, p99 ${ms(summary.result.p99)} ms: ${met ? 'met' : 'NOT met'}`,
  );
}
