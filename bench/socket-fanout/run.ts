import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  DEFAULT_POSTGRES_URL,
  fundTraders,
  HttpClient,
  machineCpu,
  machineDescription,
  pairInfo,
  parseArgs,
  percentile,
  pgliteTarget,
  postgresTarget,
  processCpuSeconds,
  registerTraders,
  Samples,
  ServerProcess,
  sleep,
} from '../order-entry/harness.ts';

/**
 * Socket fan-out: 2,000 subscribers to orderbook.BTC_USD on /ws while one trader places and cancels
 * resting BTC_USD orders over HTTP at 20 commands/s, each of which changes the top 50 levels, so the
 * server publishes 20 order book deltas a second. The subscribers run in child processes (2 by
 * default), so their own event loops are not this process's; they measure each delta's lag (receive
 * time minus the payload's batch `timestamp`) and check for sequence gaps and dropped sockets.
 *
 *   npx tsx bench/socket-fanout/run.ts                      # PostgreSQL, 2,000 subscribers, 20/s
 *   npx tsx bench/socket-fanout/run.ts --db pglite --subscribers 500 --duration 10
 */

const args = parseArgs(process.argv.slice(2));
const SUBSCRIBERS = Number(args.get('subscribers') ?? 2000);
const PROCESSES = Number(args.get('processes') ?? 2);
const RATE = Number(args.get('rate') ?? 20);
const WARMUP_S = Number(args.get('warmup') ?? 3);
const DURATION_S = Number(args.get('duration') ?? 20);
const DATABASE = args.get('db') ?? 'postgres';
const POSTGRES_URL = args.get('pg-url') ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
const PAIR = 'BTC_USD';
const CHANNEL = `orderbook.${PAIR}`;
/** The gateway's maxConnectionsPerIp is 50 and has no setting: each loopback source address gets 45. */
const PER_ADDRESS = 45;
const LAG_TARGET_MS = 100;

type Result = {
  lags: string;
  spread: [number, number, number][];
  deliveries: [number, number][];
  seqGaps: number;
  bookGaps: number;
  closedDuringRun: number;
  stillOpen: number;
  closeCodes: Record<string, number>;
  otherMessages: number;
  errors: number;
  /** CPU cores used over the window. */
  cpuSeconds: number;
};

function waitFor<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`subscriber process exited with ${code}`)));
  });
}

const target = DATABASE === 'pglite' ? pgliteTarget() : postgresTarget(POSTGRES_URL);
const server = new ServerProcess();
const children: ChildProcess[] = [];
try {
  await target.prepare();
  await server.start(target);
  const [trader] = await registerTraders(server, 1);
  await server.stop();
  const db = await target.open();
  const spec = (await pairInfo(db, [PAIR]))[PAIR]!;
  const close = await db.query<{ close: string }>(
    'SELECT close::text AS close FROM candles WHERE pair_id = $1 ORDER BY open_time DESC LIMIT 1',
    [PAIR],
  );
  const mid = Number(close.rows[0]?.close ?? 60_000);
  await fundTraders(db, [trader!], { USD: '1000000000', BTC: '100000' }, 'sockets');
  await db.close();
  await server.start(target);
  console.log(`${target.name}: ${machineDescription()}`);

  // Subscribers: PROCESSES children, each on its own run of loopback source addresses.
  const perProcess = Math.ceil(SUBSCRIBERS / PROCESSES);
  const addressesPerProcess = Math.ceil(perProcess / PER_ADDRESS);
  let connectStarted = performance.now();
  for (let index = 0; index < PROCESSES; index++) {
    const count = Math.min(perProcess, SUBSCRIBERS - index * perProcess);
    const child = fork(path.join(import.meta.dirname, 'subscribers.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    child.send({
      type: 'start',
      url: server.url,
      channel: CHANNEL,
      count,
      firstAddress: 2 + index * addressesPerProcess,
      perAddress: PER_ADDRESS,
    });
  }
  const ready = await Promise.all(children.map((child) => waitFor<{ subscribed: number }>(child, 'ready')));
  const subscribed = ready.reduce((sum, child) => sum + child.subscribed, 0);
  const stats = await server.request('GET', '/ws/stats');
  console.log(
    `${subscribed} of ${SUBSCRIBERS} subscribers had their snapshot after ${((performance.now() - connectStarted) / 1000).toFixed(1)} s ` +
      `(${PROCESSES} processes, ${PER_ADDRESS} per loopback address); server: ${JSON.stringify(stats.body)}`,
  );

  // The driver: alternately place a resting buy 1-40 ticks below the mid and cancel the oldest one,
  // so every command moves a level inside the top 50 and each batch publishes one delta.
  const client = new HttpClient(server.url, 4);
  const tick = 10 ** -spec.pricePrecision;
  const resting: string[] = [];
  const commandLatency = new Samples();
  const outcomes: Record<string, number> = {};
  let commands = 0;
  const startMs = Date.now() + 200;
  const windowStart = startMs + WARMUP_S * 1000;
  const windowEnd = windowStart + DURATION_S * 1000;
  for (const child of children) child.send({ type: 'window', startMs: windowStart, endMs: windowEnd });
  const serverCpuStart = { at: 0, cpu: 0, machine: machineCpu() };
  connectStarted = performance.now();
  const total = Math.round(RATE * (WARMUP_S + DURATION_S));
  for (let index = 0; index < total; index++) {
    const due = startMs + (index * 1000) / RATE;
    await sleep(Math.max(0, due - Date.now()));
    if (serverCpuStart.at === 0 && Date.now() >= windowStart) {
      serverCpuStart.at = Date.now();
      serverCpuStart.cpu = processCpuSeconds(server.pid!);
      serverCpuStart.machine = machineCpu();
    }
    const started = performance.now();
    const cancel = resting.length >= 10 && index % 2 === 1;
    const response = cancel
      ? await client.request('POST', `/v1/orders/${resting.shift()}/cancel`, trader!.token)
      : await client.request(
          'POST',
          '/v1/orders',
          trader!.token,
          JSON.stringify({
            trading_pair: PAIR,
            side: 'buy',
            type: 'limit',
            price: (mid - (1 + (index % 40)) * tick * 100).toFixed(spec.pricePrecision),
            quantity: (spec.minQuantity * (1 + (index % 7))).toFixed(spec.quantityPrecision),
          }),
        );
    if (!cancel && response.status === 201) resting.push((JSON.parse(response.body) as { id: string }).id);
    const key = `${cancel ? 'cancel' : 'place'} ${response.status}`;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
    if (Date.now() >= windowStart && Date.now() < windowEnd) commandLatency.push(performance.now() - started);
    commands++;
  }
  const serverCpu = (processCpuSeconds(server.pid!) - serverCpuStart.cpu) / ((Date.now() - serverCpuStart.at) / 1000);
  const machine = machineCpu();
  const machineCores =
    ((machine.busy - serverCpuStart.machine.busy) / (machine.total - serverCpuStart.machine.total)) *
    (await import('node:os')).cpus().length;
  const driveSeconds = (performance.now() - connectStarted) / 1000;
  await sleep(1000);
  const results = await Promise.all(
    children.map((child) => {
      const result = waitFor<Result>(child, 'result');
      child.send({ type: 'finish' });
      return result;
    }),
  );
  client.close();

  const lags = new Samples();
  const spreads = new Map<number, [number, number]>();
  const deliveries = new Map<number, number>();
  for (const result of results) {
    const buffer = Buffer.from(result.lags, 'base64');
    const values = new Float64Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 8);
    for (const value of values) lags.push(value);
    for (const [sequence, first, last] of result.spread) {
      const known = spreads.get(sequence);
      spreads.set(sequence, known ? [Math.min(known[0], first), Math.max(known[1], last)] : [first, last]);
    }
    for (const [sequence, count] of result.deliveries)
      deliveries.set(sequence, (deliveries.get(sequence) ?? 0) + count);
  }
  const sortedLags = lags.sorted();
  const spreadValues = new Samples();
  for (const [first, last] of spreads.values()) spreadValues.push(last - first);
  const sortedSpread = spreadValues.sorted();
  const sortedCommands = commandLatency.sorted();
  const incomplete = [...deliveries.values()].filter((count) => count !== subscribed).length;
  const sum = (pick: (result: Result) => number) => results.reduce((total, result) => total + pick(result), 0);
  const f = (value: number) => value.toFixed(1);
  console.log(
    `\n${commands} commands in ${driveSeconds.toFixed(1)} s (${(commands / driveSeconds).toFixed(1)}/s): ${JSON.stringify(outcomes)}`,
  );
  console.log(
    `window ${DURATION_S} s after ${WARMUP_S} s warm-up: ${spreads.size} deltas (${(spreads.size / DURATION_S).toFixed(1)}/s), ` +
      `${sortedLags.length} deliveries (expected ${spreads.size * subscribed}; deltas not seen by every subscriber: ${incomplete})`,
  );
  console.log('\n| measure | p50 ms | p99 ms | max ms |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(
    `| delivery lag (receive − batch timestamp) | ${f(percentile(sortedLags, 50))} | ${f(percentile(sortedLags, 99))} | ${f(sortedLags[sortedLags.length - 1] ?? Number.NaN)} |`,
  );
  console.log(
    `| fan-out spread (last − first subscriber, per delta) | ${f(percentile(sortedSpread, 50))} | ${f(percentile(sortedSpread, 99))} | ${f(sortedSpread[sortedSpread.length - 1] ?? Number.NaN)} |`,
  );
  console.log(
    `| driving command HTTP round trip | ${f(percentile(sortedCommands, 50))} | ${f(percentile(sortedCommands, 99))} | ${f(sortedCommands[sortedCommands.length - 1] ?? Number.NaN)} |`,
  );
  console.log(
    `\nsequence gaps ${sum((r) => r.seqGaps)}, book prev_sequence breaks ${sum((r) => r.bookGaps)}, ` +
      `sockets closed during the run ${sum((r) => r.closedDuringRun)}, still open at the end ${sum((r) => r.stillOpen)}, ` +
      `socket errors ${sum((r) => r.errors)}, other messages ${sum((r) => r.otherMessages)}`,
  );
  console.log(
    `CPU cores over the window: server ${serverCpu.toFixed(2)}, subscriber processes ${sum((r) => r.cpuSeconds).toFixed(2)}, machine ${machineCores.toFixed(2)}`,
  );
  const p99 = percentile(sortedLags, 99);
  const clean = sum((r) => r.seqGaps + r.bookGaps + r.closedDuringRun) === 0 && incomplete === 0;
  console.log(
    `target p99 < ${LAG_TARGET_MS} ms with no drop or gap: ${p99 < LAG_TARGET_MS && clean && subscribed === SUBSCRIBERS ? 'met' : 'NOT met'}`,
  );
} finally {
  for (const child of children) if (child.exitCode === null) child.kill();
  await server.stop().catch(() => undefined);
  await target.cleanup();
}
