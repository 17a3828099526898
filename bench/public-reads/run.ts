import {
  DEFAULT_POSTGRES_URL,
  listOption,
  machineDescription,
  parseArgs,
  type ServerProcess,
  type Target,
  type Trader,
} from '../order-entry/harness.ts';
import {
  type LoadResult,
  loadAverage,
  type RateOptions,
  runHey,
  runOpenLoop,
  runWrk,
  type WrkOptions,
} from './load.ts';
import { type OrderPhase, type OrderResult, readMarket, runOrderPhase } from './orders.ts';
import { measurePgliteShare, printShares } from './pglite-share.ts';
import {
  BUDGETS_DEFAULT,
  BUDGETS_RAISED,
  ORDER_PAIRS,
  PING,
  prepareTraders,
  READS,
  startWarm,
  targetFor,
} from './setup.ts';

/**
 * Issue 15 item 5: the server's ceiling (a no-op call through the same middleware), each public
 * read against it, each read's p99 at half the ceiling's rate, and order placement at a constant
 * rate alone and while one client floods a public read, with the fair-use budgets at their defaults
 * and raised; then (PGlite) the share of the main thread PGlite takes (item 3, pglite-share.ts).
 *
 *   npx tsx bench/public-reads/run.ts [--db pglite|postgres|both] [--quick]
 *   options: --server-env K=V,K2=V2, --generator node|hey (the constant-rate generator), --pg-url URL, --traders 50,
 *            --no-share (skip the profiled PGlite phase)
 *
 * The server's environment is in setup.ts (shared with pglite-share.ts): NPM_START_ENV, and the
 * fair-use budgets BUDGETS_DEFAULT and BUDGETS_RAISED (the name of the knob that raises the public
 * budget is set there).
 */

const args = parseArgs(process.argv.slice(2));
const QUICK = args.has('quick');
const DATABASES = (args.get('db') ?? 'both') === 'both' ? ['pglite', 'postgres'] : [args.get('db')!];
const POSTGRES_URL = args.get('pg-url') ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
const GENERATOR = args.get('generator') ?? 'node';
const TRADERS = Number(args.get('traders') ?? 50);
/** Extra server environment, e.g. `--server-env PGLITE_THREAD=worker` (the embedded database on a worker thread). */
const SERVER_ENV = listOption(args, 'server-env');
/** After the server is up: the history seeding and the bots' first ladders settle. */
const WARMUP_S = QUICK ? 15 : 30;
const WRK: WrkOptions = { threads: 2, connections: 32, durationS: QUICK ? 5 : 10 };
const WRK_WARMUP: WrkOptions = { threads: 2, connections: 32, durationS: QUICK ? 1 : 2 };
/** The constant-rate run: `workers` connections (hey -c), the rate set to half the ceiling. */
const RATE_WORKERS = 16;
const RATE_DURATION_S = QUICK ? 5 : 10;
const ORDERS: OrderPhase = { rate: 200, warmupS: 3, durationS: QUICK ? 10 : 15, connections: 64 };
/** The flood: one client (wrk, one thread) with 64 connections on the pairs list. */
const FLOOD_PATH = '/v1/trading-pairs';
const FLOOD = { threads: 1, connections: 64 };
const READ_P99_TARGET_MS = 25;

type ReadRow = { path: string; max: LoadResult; half: LoadResult | null };
type OrderRow = { budgets: string; flood: boolean; result: OrderResult };

const ms = (value: number) =>
  Number.isNaN(value)
    ? '-'
    : value === Number.POSITIVE_INFINITY
      ? 'no answer'
      : value < 10
        ? value.toFixed(2)
        : value.toFixed(1);
const count = (value: number) => Math.round(value).toLocaleString('en-US');

async function measureReads(server: ServerProcess): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  for (const path of [PING, ...READS]) {
    await runWrk(`${server.url}${path}`, WRK_WARMUP);
    rows.push({ path, max: await runWrk(`${server.url}${path}`, WRK), half: null });
    console.log(`  ${path}: ${count(rows.at(-1)!.max.requestsPerSecond)} req/s`);
  }
  const rate: RateOptions = {
    rate: Math.max(1, Math.round(rows[0]!.max.requestsPerSecond / 2)),
    workers: RATE_WORKERS,
    durationS: RATE_DURATION_S,
  };
  for (const row of rows) {
    const url = `${server.url}${row.path}`;
    row.half = GENERATOR === 'hey' ? await runHey(url, rate) : await runOpenLoop(url, rate);
    console.log(`  ${row.path} at ${rate.rate}/s: p99 ${ms(row.half.p99Ms)} ms`);
  }
  return rows;
}

function printReads(target: string, rows: ReadRow[]): void {
  const ceiling = rows[0]!.max.requestsPerSecond;
  const half = Math.round(ceiling / 2);
  console.log(`\n### Public reads, ${target} (budgets raised)\n`);
  console.log(
    `wrk -t${WRK.threads} -c${WRK.connections} -d${WRK.durationS}s --latency after ${WRK_WARMUP.durationS} s of wrk warm-up; ` +
      `then ${half} req/s (half the ceiling) for ${RATE_DURATION_S} s with ${GENERATOR === 'hey' ? 'hey' : 'the open-loop Node generator'} ` +
      `(${RATE_WORKERS} connections). Load: 1-minute load average after each run.\n`,
  );
  console.log(
    `| call | req/s | p50 ms | p99 ms | non-2xx | % of ping | load | at ${half}/s: done req/s | p50 ms | p99 ms | p99 < ${READ_P99_TARGET_MS} ms | non-2xx | generator cores | load |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const { path, max, half: at } of rows) {
    const share = `${((max.requestsPerSecond / ceiling) * 100).toFixed(0)} %`;
    const halfCells = at
      ? `${count(at.requestsPerSecond)} | ${ms(at.p50Ms)} | ${ms(at.p99Ms)} | ${at.p99Ms < READ_P99_TARGET_MS ? 'yes' : 'no'} | ${at.failures} | ${at.generatorCores.toFixed(2)} | ${at.loadAverage}`
      : '- | - | - | - | - | - | -';
    console.log(
      `| \`${path}\` | ${count(max.requestsPerSecond)} | ${ms(max.p50Ms)} | ${ms(max.p99Ms)} | ${max.failures} | ${share} | ${max.loadAverage} | ${halfCells} |`,
    );
  }
}

async function measureOrders(server: ServerProcess, traders: Trader[], budgets: string): Promise<OrderRow[]> {
  const rows: OrderRow[] = [];
  for (const flood of [false, true]) {
    const markets = await Promise.all(ORDER_PAIRS.map((pair) => readMarket(server.url, pair)));
    const result = await runOrderPhase(
      server,
      traders,
      markets,
      ORDERS,
      flood ? { url: `${server.url}${FLOOD_PATH}`, ...FLOOD } : null,
    );
    rows.push({ budgets, flood, result });
    console.log(`  orders, budgets ${budgets}, ${flood ? 'flood' : 'alone'}: p99 ${ms(result.p99Ms)} ms`);
  }
  return rows;
}

function printOrders(target: string, rows: OrderRow[]): void {
  console.log(`\n### Order placement at ${ORDERS.rate}/s, ${target}\n`);
  console.log(
    `${TRADERS} funded accounts in turn, resting limit orders (BTC_USD, ETH_USD) with unique client order ids, ` +
      `open loop (latency from the scheduled send), ${ORDERS.connections} keep-alive connections; ${ORDERS.warmupS} s warm-up, ` +
      `${ORDERS.durationS} s measured. Flood: wrk -t${FLOOD.threads} -c${FLOOD.connections} on \`${FLOOD_PATH}\` for the whole phase.\n`,
  );
  console.log(
    '| budgets | flood | orders/s (201) | p50 ms | p99 ms | p99.9 | max | p99 / alone | ≤ 1.5 × | flood req/s | flood non-2xx | other order answers | CPU cores: server / bench / wrk | load |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | --- | ---: |');
  for (const { budgets, flood, result } of rows) {
    const alone = rows.find((row) => row.budgets === budgets && !row.flood)!.result.p99Ms;
    const ratio = result.p99Ms / alone;
    const other = Object.entries(result.statuses)
      .filter(([status]) => status !== '201')
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    const floodCells = result.flood
      ? `${count(result.flood.requestsPerSecond)} | ${count(result.flood.failures)}`
      : '- | -';
    console.log(
      `| ${budgets} | ${flood ? 'yes' : 'no'} | ${count(result.ordersPerSecond)} | ${ms(result.p50Ms)} | ${ms(result.p99Ms)} | ` +
        `${ms(result.p999Ms)} | ${ms(result.maxMs)} | ${ratio.toFixed(2)} | ${flood ? (ratio <= 1.5 ? 'yes' : 'no') : ''} | ${floodCells} | ` +
        `${other || 'none'}${result.late > 0 ? `; sends >5 ms late: ${result.late}` : ''} | ` +
        `${result.serverCores.toFixed(2)} / ${result.clientCores.toFixed(2)} / ${result.flood ? result.flood.generatorCores.toFixed(2) : '-'} | ${result.loadAverage} |`,
    );
  }
}

async function benchTarget(target: Target): Promise<void> {
  console.log(
    `\n${target.name}: preparing (${TRADERS} traders)${target.database ? `, database ${target.database}` : ''}`,
  );
  const traders = await prepareTraders(target, TRADERS);
  const raised = await startWarm(target, { ...BUDGETS_RAISED, ...SERVER_ENV }, WARMUP_S);
  console.log(`${target.name}: budgets raised, measuring the reads`);
  const reads = await measureReads(raised.server);
  const orders = await measureOrders(raised.server, traders, 'raised');
  await raised.server.stop();
  const defaults = await startWarm(target, { ...BUDGETS_DEFAULT, ...SERVER_ENV }, WARMUP_S);
  orders.push(...(await measureOrders(defaults.server, traders, 'defaults')));
  await defaults.server.stop();
  printReads(target.name, reads);
  printOrders(target.name, orders);
  if (target.name === 'pglite' && !args.has('no-share')) {
    // The figures above are printed already: a failure here (e.g. no profile written) only loses the shares.
    await measurePgliteShare(target, traders, {
      warmupS: WARMUP_S,
      orders: ORDERS,
      readS: QUICK ? 2 : 3,
      env: SERVER_ENV,
    }).then(
      (shares) => printShares(shares, `pglite, server with --cpu-prof, load average ${loadAverage()}`),
      (error: unknown) =>
        console.log(`\nPGlite's share not measured: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

console.log(
  `# Public reads and fairness: ${new Date().toISOString()}${QUICK ? ' (--quick)' : ''}\n\n${machineDescription()}`,
);
for (const name of DATABASES) {
  const target = targetFor(name, POSTGRES_URL);
  try {
    await benchTarget(target);
  } finally {
    await target.cleanup();
  }
}
