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

async function runStep(
  client: HttpClient,
  server: ServerProcess,
  traders: Trader[],
  workload: Workload,
  rate: number,
  warmupS: number,
  durationS: number,
): Promise<StepResult> {
  const placeLatency = new Samples();
  const cancelLatency = new Samples();
  const statuses: Record<string, number> = {};
  let outstanding = 0;
  let notSent = 0;
  let completedOrders = 0;
  let completedRequests = 0;
  const start = performance.now() + 20;
  const windowStart = start + warmupS * 1000;
  const windowEnd = windowStart + durationS * 1000;
  const total = Math.round((rate * (warmupS + durationS) * 1000) / 1000);
  const interval = 1000 / rate;
  let sent = 0;
  let cpuStart = { server: 0, postgres: new Map<number, number>(), client: process.cpuUsage(), machine: machineCpu() };
  let cpuMarked = false;
  const inFlight = new Set<Promise<void>>();

  const send = (scheduled: number) => {
    const op = workload.next();
    const measured = scheduled >= windowStart && scheduled < windowEnd;
    if (outstanding >= MAX_OUTSTANDING) {
      if (measured) notSent++;
      return;
    }
    outstanding++;
    const trader = traders[op.trader]!;
    const request =
      op.kind === 'place'
        ? client.request('POST', '/v1/orders', trader.token, op.body)
        : client.request('POST', `/v1/orders/${op.orderId}/cancel`, trader.token);
    const done = request
      .then(
        (response) => {
          const finished = performance.now();
          const key = `${op.kind} ${response.status}`;
          if (op.kind === 'place' && response.status === 201) {
            const order = JSON.parse(response.body) as { id: string; status: string };
            if (order.status === 'pending' || order.status === 'partial') workload.resting[op.trader]!.push(order.id);
            if (finished >= windowStart && finished < windowEnd) completedOrders++;
          }
          if (finished >= windowStart && finished < windowEnd) completedRequests++;
          if (!measured) return;
          statuses[key] = (statuses[key] ?? 0) + 1;
          (op.kind === 'place' ? placeLatency : cancelLatency).push(finished - scheduled);
        },
        (error: unknown) => {
          if (!measured) return;
          const key = `${op.kind} network error (${error instanceof Error ? error.message : String(error)})`;
          statuses[key] = (statuses[key] ?? 0) + 1;
        },
      )
      .finally(() => {
        outstanding--;
        inFlight.delete(done);
      });
    inFlight.add(done);
  };

  let late = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      if (!cpuMarked && now >= windowStart) {
        cpuMarked = true;
        cpuStart = {
          server: processCpuSeconds(server.pid!),
          postgres: cpuSecondsByPid('postgres'),
          client: process.cpuUsage(),
          machine: machineCpu(),
        };
      }
      while (sent < total && start + sent * interval <= now) {
        const scheduled = start + sent * interval;
        // A send more than 5 ms behind its schedule means the client itself fell behind.
        if (now - scheduled > 5 && scheduled >= windowStart && scheduled < windowEnd) late++;
        send(scheduled);
        sent++;
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(0, Math.min(1, start + sent * interval - now)));
    };
    tick();
  });
  // The window ends when the last scheduled request went out; give stragglers up to 30 s.
  await sleep(Math.max(0, windowEnd - performance.now()));
  const cpuEnd = {
    server: processCpuSeconds(server.pid!),
    postgres: cpuSecondsByPid('postgres'),
    client: process.cpuUsage(cpuStart.client),
    machine: machineCpu(),
  };
  const deadline = Date.now() + 30_000;
  while (inFlight.size > 0 && Date.now() < deadline) await Promise.race([...inFlight, sleep(100)]);
  const places = placeLatency.sorted();
  const cancels = cancelLatency.sorted();
  const machineTotal = cpuEnd.machine.total - cpuStart.machine.total;
  return {
    offered: rate,
    durationS,
    achievedOrders: completedOrders / durationS,
    achievedRequests: completedRequests / durationS,
    placeP50: percentile(places, 50),
    placeP99: percentile(places, 99),
    placeP999: percentile(places, 99.9),
    placeMax: places.length > 0 ? places[places.length - 1]! : Number.NaN,
    cancelP50: percentile(cancels, 50),
    cancelP99: percentile(cancels, 99),
    statuses,
    notSent,
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

async function benchTarget(target: Target): Promise<void> {
  const server = new ServerProcess();
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-prof-')) : null;
  try {
    let started = performance.now();
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
    await server.start(target, SERVER_ENV, profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
    console.log(
      `\n${target.name}: ${TRADERS} traders registered and funded in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        markets.map((market) => `${market.id} mid ${market.mid} (min qty ${market.minQuantity})`).join(', '),
    );
    console.log(`${target.name}: ${CONNECTIONS} keep-alive connections; ${machineDescription()}`);
    console.log(
      '\n| database | offered req/s | orders/s (201) | req/s done | place p50 ms | p99 | p99.9 | max | cancel p50 / p99 ms | CPU cores: server / postgres / client / machine | other outcomes |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |');
    const client = new HttpClient(server.url, CONNECTIONS);
    const workload = new Workload(markets, TRADERS);
    const steps: StepResult[] = [];
    started = performance.now();
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
      console.log(
        `\n${target.name}: confirmation at ${best} req/s for ${FINAL_DURATION_S} s after ${FINAL_WARMUP_S} s`,
      );
      const step = await runStep(client, server, traders, workload, best, FINAL_WARMUP_S, FINAL_DURATION_S);
      printStep(`${target.name} (confirm)`, step);
    }
    console.log(
      `${target.name}: highest step with p99 < ${P99_TARGET_MS} ms: ${best ?? 'none'} req/s; steps took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    client.close();
    await server.stop();
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
    if (profileDir) {
      const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
      if (file) {
        const kept = path.join(os.tmpdir(), `order-entry-${target.name}-${Date.now()}.cpuprofile`);
        fs.copyFileSync(path.join(profileDir, file), kept);
        console.log(`\n${target.name}: server CPU profile (whole server run) kept at ${kept}`);
        console.log(summariseProfile(kept, 25));
      } else console.log(`${target.name}: no CPU profile was written`);
    }
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
