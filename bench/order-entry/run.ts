import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Database } from '../../apps/server/src/db/database.ts';
import {
  cpuSecondsBetween,
  cpuSecondsByPid,
  DEFAULT_POSTGRES_URL,
  fundTraders,
  HttpClient,
  listOption,
  machineCpu,
  machineDescription,
  type PairInfo,
  pairInfo,
  parseArgs,
  percentile,
  pgliteTarget,
  postgresTarget,
  processCpuSeconds,
  registerTraders,
  rng,
  Samples,
  ServerProcess,
  sendOnSchedule,
  sleep,
  type Target,
  type Trader,
} from './harness.ts';
import { summariseProfile } from './profile-summary.ts';

/**
 * Order entry through HTTP with durability: the real server (journal + ledger on PGlite or
 * PostgreSQL) takes limit orders and cancels from many keep-alive connections at a fixed offered
 * rate (open loop: each request has a scheduled send time and its latency counts from then, so a
 * slow server cannot hide its queue), stepped up until it saturates.
 *
 *   npx tsx bench/order-entry/run.ts                       # PGlite and PostgreSQL, default steps
 *   npx tsx bench/order-entry/run.ts --db postgres --rates 500,1000 --duration 10
 *   npx tsx bench/order-entry/run.ts --db postgres --profile   # CPU profile of the server child
 */

const args = parseArgs(process.argv.slice(2));
/** USD markets the orders spread over (--pairs BTC_USD,ETH_USD,SOL_USD ...); two by default. */
const PAIRS = (args.get('pairs') ?? 'BTC_USD,ETH_USD').split(',').map((pair) => pair.trim().toUpperCase());
const TRADERS = Number(args.get('traders') ?? 50);
const CONNECTIONS = Number(args.get('connections') ?? 64);
const RATES = (args.get('rates') ?? '25,50,100,200,300,400,500,600,800,1000,1500,2000,3000,5000')
  .split(',')
  .map(Number);
const WARMUP_S = Number(args.get('warmup') ?? 3);
const DURATION_S = Number(args.get('duration') ?? 10);
const FINAL_WARMUP_S = Number(args.get('final-warmup') ?? 5);
const FINAL_DURATION_S = Number(args.get('final-duration') ?? 20);
const P99_TARGET_MS = 25;
/** Requests outstanding (in flight plus queued in the agent) beyond which the client stops sending. */
const MAX_OUTSTANDING = Number(args.get('max-outstanding') ?? 4096);
const DATABASES = (args.get('db') ?? 'pglite,postgres').split(',');
const POSTGRES_URL = args.get('pg-url') ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
const PROFILE = args.has('profile');
/** Extra server environment (diagnostics), e.g. `--server-env DATABASE_POOL_SIZE=20`. */
const SERVER_ENV = listOption(args, 'server-env');

type Market = PairInfo & { mid: number };

type Operation =
  | { kind: 'place'; crossing: boolean; trader: number; body: string }
  | { kind: 'cancel'; trader: number; orderId: string };

/**
 * The mix: 10% cancels of one of the trader's own resting orders (when it has one), then half the
 * placements cross (priced 20 bps through the mid, 1-5 minimum lots: they take the nearest resting
 * orders of the other side) and half rest (1 + exponential(mean 10) bps away from the mid on their
 * own side, 1-10 minimum lots). All limit GTC, both pairs alike.
 */
class Workload {
  private readonly random = rng(20_261_122);
  readonly resting: string[][];

  constructor(
    private readonly markets: Market[],
    traders: number,
  ) {
    this.resting = Array.from({ length: traders }, () => []);
  }

  next(): Operation {
    const random = this.random;
    const trader = Math.floor(random() * this.resting.length);
    const mine = this.resting[trader]!;
    if (random() < 0.1 && mine.length > 0) {
      const index = Math.floor(random() * mine.length);
      const orderId = mine[index]!;
      mine[index] = mine[mine.length - 1]!;
      mine.pop();
      return { kind: 'cancel', trader, orderId };
    }
    const market = this.markets[Math.floor(random() * this.markets.length)]!;
    const side = random() < 0.5 ? 'buy' : 'sell';
    const crossing = random() < 0.5;
    const sign = side === 'buy' ? 1 : -1;
    const bps = crossing ? 20 * sign : -sign * (1 + Math.floor(-Math.log(1 - random()) * 10));
    const price = (market.mid * (1 + bps / 10_000)).toFixed(market.pricePrecision);
    const lots = crossing ? 1 + Math.floor(random() * 5) : 1 + Math.floor(random() * 10);
    const quantity = (market.minQuantity * lots).toFixed(market.quantityPrecision);
    const body = JSON.stringify({ trading_pair: market.id, side, type: 'limit', price, quantity });
    return { kind: 'place', crossing, trader, body };
  }
}

type StepResult = {
  offered: number;
  durationS: number;
  achievedOrders: number;
  achievedRequests: number;
  placeP50: number;
  placeP99: number;
  placeP999: number;
  placeMax: number;
  cancelP50: number;
  cancelP99: number;
  statuses: Record<string, number>;
  notSent: number;
  late: number;
  cpu: { server: number; postgres: number; client: number; machine: number };
};

/** The measured window of a step (performance.now() ms): sends and completions inside it count. */
type StepWindow = { start: number; end: number };

const inWindow = (time: number, window: StepWindow) => time >= window.start && time < window.end;

/** CPU counters at one moment (client: since `since` when given), to subtract from a later reading. */
type CpuReading = {
  server: number;
  postgres: Map<number, number>;
  client: NodeJS.CpuUsage;
  machine: { busy: number; total: number };
};

function readCpu(server: ServerProcess, since?: NodeJS.CpuUsage): CpuReading {
  return {
    server: processCpuSeconds(server.pid!),
    postgres: cpuSecondsByPid('postgres'),
    client: process.cpuUsage(since),
    machine: machineCpu(),
  };
}

/** The requests of one step: sends them, keeps what is in flight and tallies what came back in the window. */
class StepTraffic {
  readonly placeLatency = new Samples();
  readonly cancelLatency = new Samples();
  readonly statuses: Record<string, number> = {};
  readonly inFlight = new Set<Promise<void>>();
  outstanding = 0;
  notSent = 0;
  completedOrders = 0;
  completedRequests = 0;

  constructor(
    private readonly client: HttpClient,
    private readonly traders: Trader[],
    private readonly workload: Workload,
    private readonly window: StepWindow,
  ) {}

  send(scheduled: number): void {
    const op = this.workload.next();
    const measured = inWindow(scheduled, this.window);
    if (this.outstanding >= MAX_OUTSTANDING) {
      if (measured) this.notSent++;
      return;
    }
    this.outstanding++;
    const trader = this.traders[op.trader]!;
    const request =
      op.kind === 'place'
        ? this.client.request('POST', '/v1/orders', trader.token, op.body)
        : this.client.request('POST', `/v1/orders/${op.orderId}/cancel`, trader.token);
    const done = request
      .then(
        (response) => this.answered(op, scheduled, measured, response),
        (error: unknown) => this.failed(op, measured, error),
      )
      .finally(() => {
        this.outstanding--;
        this.inFlight.delete(done);
      });
    this.inFlight.add(done);
  }

  /** Waits for the requests still in flight, up to 30 s. */
  async drain(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (this.inFlight.size > 0 && Date.now() < deadline) await Promise.race([...this.inFlight, sleep(100)]);
  }

  private answered(op: Operation, scheduled: number, measured: boolean, response: { status: number; body: string }) {
    const finished = performance.now();
    const key = `${op.kind} ${response.status}`;
    if (op.kind === 'place' && response.status === 201) {
      const order = JSON.parse(response.body) as { id: string; status: string };
      if (order.status === 'pending' || order.status === 'partial') this.workload.resting[op.trader]!.push(order.id);
      if (inWindow(finished, this.window)) this.completedOrders++;
    }
    if (inWindow(finished, this.window)) this.completedRequests++;
    if (!measured) return;
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
    (op.kind === 'place' ? this.placeLatency : this.cancelLatency).push(finished - scheduled);
  }

  private failed(op: Operation, measured: boolean, error: unknown) {
    if (!measured) return;
    const key = `${op.kind} network error (${error instanceof Error ? error.message : String(error)})`;
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
  }
}

async function runStep(
  client: HttpClient,
  server: ServerProcess,
  traders: Trader[],
  workload: Workload,
  rate: number,
  warmupS: number,
  durationS: number,
): Promise<StepResult> {
  const start = performance.now() + 20;
  const windowStart = start + warmupS * 1000;
  const window = { start: windowStart, end: windowStart + durationS * 1000 };
  const total = Math.round((rate * (warmupS + durationS) * 1000) / 1000);
  const traffic = new StepTraffic(client, traders, workload, window);
  let cpuStart: CpuReading = { server: 0, postgres: new Map(), client: process.cpuUsage(), machine: machineCpu() };
  const late = await sendOnSchedule(traffic, { start, interval: 1000 / rate, total }, window, () => {
    cpuStart = readCpu(server);
  });
  // The window ends when the last scheduled request went out; give stragglers up to 30 s.
  await sleep(Math.max(0, window.end - performance.now()));
  const cpuEnd = readCpu(server, cpuStart.client);
  await traffic.drain();
  return stepResult(rate, durationS, traffic, late, { start: cpuStart, end: cpuEnd });
}

function stepResult(
  rate: number,
  durationS: number,
  traffic: StepTraffic,
  late: number,
  cpu: { start: CpuReading; end: CpuReading },
): StepResult {
  const places = traffic.placeLatency.sorted();
  const cancels = traffic.cancelLatency.sorted();
  const { start: cpuStart, end: cpuEnd } = cpu;
  const machineTotal = cpuEnd.machine.total - cpuStart.machine.total;
  return {
    offered: rate,
    durationS,
    achievedOrders: traffic.completedOrders / durationS,
    achievedRequests: traffic.completedRequests / durationS,
    placeP50: percentile(places, 50),
    placeP99: percentile(places, 99),
    placeP999: percentile(places, 99.9),
    placeMax: places.length > 0 ? places[places.length - 1]! : Number.NaN,
    cancelP50: percentile(cancels, 50),
    cancelP99: percentile(cancels, 99),
    statuses: traffic.statuses,
    notSent: traffic.notSent,
    late,
    cpu: {
      server: (cpuEnd.server - cpuStart.server) / durationS,
      postgres: cpuSecondsBetween(cpuStart.postgres, cpuEnd.postgres) / durationS,
      client: (cpuEnd.client.user + cpuEnd.client.system) / 1e6 / durationS,
      machine: ((cpuEnd.machine.busy - cpuStart.machine.busy) / machineTotal) * os.cpus().length,
    },
  };
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));

function printStep(target: string, step: StepResult): void {
  const errors = Object.entries(step.statuses)
    .filter(([key]) => !/^(place 201|cancel 200)$/.test(key))
    .map(([key, count]) => `${key}: ${count}`)
    .join(', ');
  console.log(
    `| ${target} | ${step.offered} | ${Math.round(step.achievedOrders)} | ${Math.round(step.achievedRequests)} | ` +
      `${ms(step.placeP50)} | ${ms(step.placeP99)} | ${ms(step.placeP999)} | ${ms(step.placeMax)} | ` +
      `${ms(step.cancelP50)} / ${ms(step.cancelP99)} | ` +
      `${step.cpu.server.toFixed(2)} / ${step.cpu.postgres.toFixed(2)} / ${step.cpu.client.toFixed(2)} / ${step.cpu.machine.toFixed(2)} | ` +
      `${errors || 'none'}${step.notSent > 0 ? `; not sent (client backlog): ${step.notSent}` : ''}${step.late > 0 ? `; sends >5 ms late: ${step.late}` : ''} |`,
  );
}

async function lastClose(db: Database, pair: string, fallback: number): Promise<number> {
  const rows = await db.query<{ close: string }>(
    'SELECT close::text AS close FROM candles WHERE pair_id = $1 ORDER BY open_time DESC LIMIT 1',
    [pair],
  );
  return rows.rows[0] ? Number(rows.rows[0].close) : fallback;
}

/** Registers and funds the traders (on a server started for that) and reads the markets' mids. */
async function prepareTraders(
  target: Target,
  server: ServerProcess,
): Promise<{ traders: Trader[]; markets: Market[] }> {
  await target.prepare();
  await server.start(target, SERVER_ENV);
  const traders = await registerTraders(server, TRADERS);
  await server.stop();
  const db = await target.open();
  const info = await pairInfo(db, PAIRS);
  const markets: Market[] = [];
  for (const pair of PAIRS) {
    const spec = info[pair]!;
    markets.push({ ...spec, mid: await lastClose(db, pair, pair === 'BTC_USD' ? 60_000 : 3_000) });
  }
  const funding: Record<string, string> = { USD: '1000000000', BTC: '100000', ETH: '1000000' };
  for (const pair of PAIRS) funding[pair.split('_')[0]!] ??= '1000000000';
  await fundTraders(db, traders, funding, 'orders');
  await db.close();
  return { traders, markets };
}

/** Steps the offered rate up until the server saturates, then confirms the best step under the p99 target. */
async function runSteps(target: Target, server: ServerProcess, traders: Trader[], markets: Market[]): Promise<void> {
  console.log(
    '\n| database | offered req/s | orders/s (201) | req/s done | place p50 ms | p99 | p99.9 | max | cancel p50 / p99 ms | CPU cores: server / postgres / client / machine | other outcomes |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |');
  const client = new HttpClient(server.url, CONNECTIONS);
  const workload = new Workload(markets, TRADERS);
  const steps: StepResult[] = [];
  const started = performance.now();
  for (const rate of RATES) {
    const step = await runStep(client, server, traders, workload, rate, WARMUP_S, DURATION_S);
    steps.push(step);
    printStep(target.name, step);
    // Saturated: the server no longer keeps up with the offered rate.
    if (step.achievedRequests < 0.9 * rate || step.notSent > 0) break;
  }
  const good = steps.filter((step) => step.placeP99 < P99_TARGET_MS && step.achievedRequests >= 0.95 * step.offered);
  const best = good.length > 0 ? Math.max(...good.map((step) => step.offered)) : null;
  if (best !== null && FINAL_DURATION_S > 0) {
    console.log(`\n${target.name}: confirmation at ${best} req/s for ${FINAL_DURATION_S} s after ${FINAL_WARMUP_S} s`);
    const step = await runStep(client, server, traders, workload, best, FINAL_WARMUP_S, FINAL_DURATION_S);
    printStep(`${target.name} (confirm)`, step);
  }
  console.log(
    `${target.name}: highest step with p99 < ${P99_TARGET_MS} ms: ${best ?? 'none'} req/s; steps took ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  client.close();
}

/** What the run left in the database (read with the server stopped). */
async function printDatabaseCounts(target: Target): Promise<void> {
  const check = await target.open();
  const counts = await check.query<{ trades: string; orders: string; journal: string }>(
    `SELECT (SELECT count(*) FROM trades)::text AS trades, (SELECT count(*) FROM orders)::text AS orders,
       (SELECT count(*) FROM market_journal)::text AS journal`,
  );
  const byStatus = await check.query<{ status: string; count: string }>(
    'SELECT status, count(*)::text AS count FROM orders GROUP BY status ORDER BY status',
  );
  await check.close();
  const row = counts.rows[0]!;
  console.log(
    `${target.name}: database after the run: ${row.orders} orders (${byStatus.rows.map((r) => `${r.status} ${r.count}`).join(', ')}), ${row.trades} trades, ${row.journal} journal rows`,
  );
}

/** Keeps the server's CPU profile out of the temporary folder and prints its summary. */
function keepProfile(target: Target, profileDir: string): void {
  const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (file) {
    const kept = path.join(os.tmpdir(), `order-entry-${target.name}-${Date.now()}.cpuprofile`);
    fs.copyFileSync(path.join(profileDir, file), kept);
    console.log(`\n${target.name}: server CPU profile (whole server run) kept at ${kept}`);
    console.log(summariseProfile(kept, 25));
  } else console.log(`${target.name}: no CPU profile was written`);
}

async function benchTarget(target: Target): Promise<void> {
  const server = new ServerProcess();
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-prof-')) : null;
  try {
    const started = performance.now();
    const { traders, markets } = await prepareTraders(target, server);
    await server.start(target, SERVER_ENV, profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
    console.log(
      `\n${target.name}: ${TRADERS} traders registered and funded in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        markets.map((market) => `${market.id} mid ${market.mid} (min qty ${market.minQuantity})`).join(', '),
    );
    console.log(`${target.name}: ${CONNECTIONS} keep-alive connections; ${machineDescription()}`);
    await runSteps(target, server, traders, markets);
    await server.stop();
    await printDatabaseCounts(target);
    if (profileDir) keepProfile(target, profileDir);
  } finally {
    await server.stop().catch(() => undefined);
    await target.cleanup();
    if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

for (const name of DATABASES) {
  const target =
    name === 'postgres'
      ? postgresTarget(POSTGRES_URL, { logStatements: args.has('pg-log'), settings: listOption(args, 'pg-settings') })
      : pgliteTarget();
  if (target.database) console.log(`${target.name}: database ${target.database}`);
  await benchTarget(target);
}
