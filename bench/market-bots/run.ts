import { type ChildProcess, spawn } from 'node:child_process';
import {
  BENCH_ENV,
  freePort,
  machineDescription,
  parseArgs,
  pgliteTarget,
  processCpuSeconds,
  root,
  sleep,
} from '../order-entry/harness.ts';

/**
 * What the house bots cost (issue 13, point 5): the real server on a fresh PGlite data directory,
 * the price feed on (the simulator), all 160 pairs, once with the market makers and simulated
 * takers on (their defaults) and once with both off. After a warm-up (the first ladders of every
 * market are placed then), the server process's CPU time (user + system, /proc) is read over the
 * measured window; the bots' cost is the difference. Also counts what printed on the tape.
 *
 *   npx tsx bench/market-bots/run.ts                     # 60 s windows after a 45 s warm-up
 *   npx tsx bench/market-bots/run.ts --duration 30 --warmup 30
 */

const args = parseArgs(process.argv.slice(2));
const DURATION_S = Number(args.get('duration') ?? 60);
const WARMUP_S = Number(args.get('warmup') ?? 45);
const TARGET_PERCENT = 10;

type Run = { label: string; cpuPercent: number; trades: number; pairsWithTrades: number; ladderLevels: number };

/** The server as a child process, given up to 5 minutes to start (a loaded machine is slow). */
async function startServer(env: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const environment = { ...process.env };
  delete environment.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...environment, ...BENCH_ENV, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error('server did not start');
    await sleep(500);
  }
  return {
    pid: child.pid!,
    request: async (urlPath: string) => ({ body: (await (await fetch(`${url}${urlPath}`)).json()) as unknown }),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function measure(label: string, bots: boolean): Promise<Run> {
  const target = pgliteTarget();
  const server = await startServer({
    ...target.env,
    PRICE_FEED_ENABLED: 'true',
    MARKET_MAKER_ENABLED: String(bots),
    MARKET_TAKER_ENABLED: String(bots),
    HISTORY_DAYS: '2',
    HISTORY_MINUTE_HOURS: '1',
  });
  try {
    await sleep(WARMUP_S * 1000);
    const pid = server.pid;
    const startedAt = Date.now();
    const before = processCpuSeconds(pid);
    await sleep(DURATION_S * 1000);
    const used = processCpuSeconds(pid) - before;
    const elapsed = (Date.now() - startedAt) / 1000;
    const pairs = (await server.request('/v1/trading-pairs')).body as {
      id: string;
      volume_24h: string | null;
    }[];
    let trades = 0;
    let pairsWithTrades = 0;
    for (const pair of pairs) {
      const tape = (await server.request(`/v1/market/${pair.id}/trades?limit=500`)).body as {
        timestamp?: string;
        executed_at?: string;
      }[];
      if (!Array.isArray(tape) || tape.length === 0) continue;
      pairsWithTrades++;
      trades += tape.length;
    }
    const book = (await server.request('/v1/orderbook/BTC_USD?depth=50')).body as { bids?: unknown[] };
    return {
      label,
      cpuPercent: (used / elapsed) * 100,
      trades,
      pairsWithTrades,
      ladderLevels: book.bids?.length ?? 0,
    };
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

const off = await measure('bots off (feed only)', false);
const on = await measure('makers + takers on', true);
const cost = on.cpuPercent - off.cpuPercent;
console.log(`\nMarket bots, ${DURATION_S} s windows after ${WARMUP_S} s warm-up; ${machineDescription()}`);
console.log('| run | server CPU (% of a core) | trades since start | pairs that traded | BTC/USD bid levels |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const run of [off, on]) {
  console.log(
    `| ${run.label} | ${run.cpuPercent.toFixed(1)} | ${run.trades} | ${run.pairsWithTrades} | ${run.ladderLevels} |`,
  );
}
console.log(`\nThe bots' cost: ${cost.toFixed(1)} % of a core (target under ${TARGET_PERCENT} %).`);
