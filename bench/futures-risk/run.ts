/**
 * Futures risk benchmark (issue 16, item 11):
 * 1. the pre-trade risk check's cost per order, beside the matching engine's own cost per operation
 *    (FastOrderBook on the engine benchmark's standard stream), measured in the same process: the
 *    book alone, the check alone, and the check run before every placement of the same stream;
 * 2. a 10 % mark move over 100,000 open positions of one market: the time to find every position to
 *    liquidate, with the exact linear scan (findLiquidatable) and with the LiquidationIndex.
 *
 *   npm run bench:futures-risk
 *   npx tsx bench/futures-risk/run.ts --quick     fewer operations and runs, for a smoke test
 */
import os from 'node:os';
import { FastOrderBook } from '../../packages/engine/src/fast-order-book.ts';
import type { OpenOrderIntent, PerpSpec, PreTradeInput, ScanEntry } from '../../packages/engine/src/perp/api.ts';
import { findLiquidatable } from '../../packages/engine/src/perp/liquidation.ts';
import { LiquidationIndex } from '../../packages/engine/src/perp/liquidation-index.ts';
import { preTradeCheck } from '../../packages/engine/src/perp/pretrade.ts';
import { buildTiers, initialMargin } from '../../packages/engine/src/perp/tiers.ts';
import { notionalMoney } from '../../packages/engine/src/perp/units.ts';
import { generateWorkload, mulberry32, type Operation, STANDARD_WORKLOAD } from '../engine/workload.ts';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 3 : 9;
const BOOK_OPERATIONS = QUICK ? 100_000 : 1_000_000;
const CHECK_CALLS = QUICK ? 500_000 : 4_000_000;
const POSITIONS = 100_000;

const USD = 100_000_000n;
/** BTCUSDT brackets (futures-maths.md §2): [cap USD, max leverage, MMR in 10^-8]. */
const TIERS = buildTiers(
  (
    [
      [50_000, 125, 400_000],
      [250_000, 100, 500_000],
      [3_000_000, 50, 1_000_000],
      [20_000_000, 20, 2_500_000],
      [40_000_000, 10, 5_000_000],
      [100_000_000, 5, 10_000_000],
      [120_000_000, 4, 12_500_000],
      [200_000_000, 3, 15_000_000],
      [300_000_000, 2, 25_000_000],
      [500_000_000, 1, 50_000_000],
    ] as const
  ).map(([cap, maxLeverage, mmr]) => ({ cap: BigInt(cap) * USD, maxLeverage, mmr: BigInt(mmr) })),
);
/** Tick 0.1 USD, lot 0.001 BTC. */
const SPEC: PerpSpec = { priceDecimals: 1, quantityDecimals: 3 };
const MARK = 400_000; // 40,000.0 USD
const LEVERAGES = [2, 5, 10, 20, 25, 50, 75, 100, 125];

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: () => number, low: number, high: number): number =>
  low + Math.floor(random() * (high - low + 1));

/** A realistic mix: 40 % flat, one to four open orders on a third of them, 10 % reduce-only, leverage 2-125x. */
function checkInputs(count: number): PreTradeInput[] {
  const random = mulberry32(0x16_0001);
  const inputs: PreTradeInput[] = [];
  for (let index = 0; index < count; index++) {
    const held = random() < 0.4 ? 0 : between(random, 1, 5_000) * (random() < 0.5 ? 1 : -1);
    const entry = between(random, MARK * 0.95, MARK * 1.05);
    const position = { sizeLots: held, costTickLots: BigInt(Math.abs(held)) * BigInt(entry) };
    const openOrders: OpenOrderIntent[] = [];
    if (random() < 0.33) {
      for (let order = between(random, 1, 4); order > 0; order--) {
        const side = random() < 0.5 ? ('buy' as const) : ('sell' as const);
        const reduceOnly = held !== 0 && random() < 0.2 && held > 0 === (side === 'sell');
        openOrders.push({
          side,
          remainingLots: between(random, 1, 1_000),
          priceTicks: between(random, MARK * 0.98, MARK * 1.02),
          reduceOnly,
        });
      }
    }
    const side = random() < 0.5 ? ('buy' as const) : ('sell' as const);
    const reduceOnly = held !== 0 && random() < 0.1;
    const order = {
      side,
      lots: between(random, 1, 2_000),
      priceTicks: between(random, MARK * 0.98, MARK * 1.02),
      reduceOnly,
      feeRate: 40_000n,
    };
    const available = BigInt(between(random, 0, 200_000)) * USD;
    inputs.push({
      spec: SPEC,
      tiers: TIERS,
      leverage: pick(random, LEVERAGES),
      mode: random() < 0.7 ? 'cross' : 'isolated',
      position,
      openOrders,
      order,
      available,
    });
  }
  return inputs;
}

interface Summary {
  min: number;
  median: number;
  max: number;
}
function summarise(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! };
}
const nowNs = (): bigint => process.hrtime.bigint();
const fmt = (summary: Summary, digits: number, unit: string) =>
  `min ${summary.min.toFixed(digits)} / median ${summary.median.toFixed(digits)} / max ${summary.max.toFixed(digits)} ${unit}`;

/** Wall-clock and CPU (user + system) nanoseconds per operation of one run. */
interface PerOperation {
  wall: number;
  cpu: number;
}
function perOperation(started: bigint, cpuBefore: NodeJS.CpuUsage, operations: number): PerOperation {
  const wall = Number(nowNs() - started) / operations;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: ((cpu.user + cpu.system) * 1000) / operations };
}

function bookRun(prefill: Operation[], operations: Operation[], inputs: PreTradeInput[] | null): PerOperation {
  const book = new FastOrderBook();
  for (const operation of prefill) if (operation.kind === 'place') book.place(operation.command);
  let sink = 0;
  const cpuBefore = process.cpuUsage();
  const started = nowNs();
  for (let index = 0; index < operations.length; index++) {
    const operation = operations[index]!;
    if (operation.kind === 'place') {
      if (inputs !== null && preTradeCheck(inputs[index & (inputs.length - 1)]!).ok) sink++;
      book.place(operation.command);
    } else {
      book.cancel(operation.orderId);
    }
  }
  const result = perOperation(started, cpuBefore, operations.length);
  if (sink < 0) console.log(sink);
  return result;
}

function checkRun(inputs: PreTradeInput[], calls: number): PerOperation {
  let accepted = 0;
  const mask = inputs.length - 1;
  const cpuBefore = process.cpuUsage();
  const started = nowNs();
  for (let index = 0; index < calls; index++) if (preTradeCheck(inputs[index & mask]!).ok) accepted++;
  const result = perOperation(started, cpuBefore, calls);
  if (accepted < 0) console.log(accepted);
  return result;
}

function benchPreTrade(): void {
  const inputs = checkInputs(4_096);
  const verdicts = new Map<string, number>();
  for (const input of inputs) {
    const result = preTradeCheck(input);
    const key = result.ok ? 'accepted' : result.reason;
    verdicts.set(key, (verdicts.get(key) ?? 0) + 1);
  }
  const workload = generateWorkload(STANDARD_WORKLOAD, BOOK_OPERATIONS);
  const places = workload.operations.filter((operation) => operation.kind === 'place').length;
  // warm-up of every path
  checkRun(inputs, 200_000);
  bookRun(workload.prefill, workload.operations.slice(0, 100_000), inputs);
  bookRun(workload.prefill, workload.operations.slice(0, 100_000), null);
  const check: PerOperation[] = [];
  const book: PerOperation[] = [];
  const both: PerOperation[] = [];
  for (let run = 0; run < RUNS; run++) {
    check.push(checkRun(inputs, CHECK_CALLS));
    book.push(bookRun(workload.prefill, workload.operations, null));
    both.push(bookRun(workload.prefill, workload.operations, inputs));
  }
  const perPlace = workload.operations.length / places;
  const added = (key: keyof PerOperation) => both.map((value, run) => (value[key] - book[run]![key]) * perPlace);
  const line = (label: string, runs: PerOperation[], unit: string) =>
    console.log(
      `${label.padEnd(29)}wall ${fmt(summarise(runs.map((run) => run.wall)), 0, unit)}; CPU ${fmt(summarise(runs.map((run) => run.cpu)), 0, unit)}`,
    );
  console.log(`pre-trade check mix (4,096 inputs): ${JSON.stringify(Object.fromEntries(verdicts))}`);
  console.log(
    `FastOrderBook: ${workload.operations.length.toLocaleString('en-US')} operations of the standard stream, ${places.toLocaleString('en-US')} placements`,
  );
  line('preTradeCheck alone', check, 'ns per call');
  line('FastOrderBook alone', book, 'ns per operation');
  line('check before every placement', both, 'ns per operation');
  console.log(
    `${'added per placement'.padEnd(29)}wall ${fmt(summarise(added('wall')), 0, 'ns')}; CPU ${fmt(summarise(added('cpu')), 0, 'ns')} (same-run difference)`,
  );
}

/**
 * 100,000 isolated positions, half long and half short, at 2-125x with their initial margin posted,
 * opened within half their margin of the mark (so every one is safe at the mark, as an exchange's
 * book of positions is before the move).
 */
function positions(): ScanEntry[] {
  const random = mulberry32(0x16_0002);
  const entries: ScanEntry[] = [];
  while (entries.length < POSITIONS) {
    const lots = random() < 0.9 ? between(random, 1, 2_000) : between(random, 2_000, 200_000);
    const leverage = pick(random, LEVERAGES);
    const entry = Math.round(MARK * (1 + (random() - 0.5) / leverage));
    const sizeLots = random() < 0.5 ? lots : -lots;
    const collateral = initialMargin(notionalMoney(SPEC, entry, lots), leverage);
    const candidate = { id: entries.length, sizeLots, costTickLots: BigInt(lots) * BigInt(entry), collateral };
    if (findLiquidatable(SPEC, TIERS, MARK, [candidate]).length === 0) entries.push(candidate);
  }
  return entries;
}

/** Runs fn RUNS times, returning the last result and each run's milliseconds. */
function timed<T>(fn: () => T): { result: T; ms: number[]; cpuMs: number[] } {
  const ms: number[] = [];
  const cpuMs: number[] = [];
  let result = fn();
  for (let run = 0; run < RUNS; run++) {
    const cpuBefore = process.cpuUsage();
    const started = nowNs();
    result = fn();
    ms.push(Number(nowNs() - started) / 1e6);
    const cpu = process.cpuUsage(cpuBefore);
    cpuMs.push((cpu.user + cpu.system) / 1e3);
  }
  return { result, ms, cpuMs };
}

function benchIndexUpdates(index: LiquidationIndex, entries: ScanEntry[], mark: number): void {
  const upserts = 20_000;
  const moved = entries.map((entry, id) => (id < upserts ? { ...entry, collateral: entry.collateral + USD } : entry));
  const started = nowNs();
  for (let id = 0; id < upserts; id++) index.upsert(moved[id]!);
  const upsertUs = Number(nowNs() - started) / 1e3 / upserts;
  const same = index.findLiquidatable(mark).length === findLiquidatable(SPEC, TIERS, mark, moved).length;
  console.log(
    `LiquidationIndex.upsert: ${upsertUs.toFixed(1)} µs each over ${upserts.toLocaleString('en-US')} updates (same ids after: ${same ? 'yes' : 'NO'})`,
  );
}

function benchScan(): void {
  const entries = positions();
  const index = new LiquidationIndex(SPEC, TIERS);
  const builds = timed(() => index.load(entries)).ms;
  console.log(`positions: ${POSITIONS.toLocaleString('en-US')} isolated at 2-125x, all safe at 40,000`);
  for (const [label, mark] of [
    ['-10 % (40,000 -> 36,000)', Math.round(MARK * 0.9)],
    ['+10 % (40,000 -> 44,000)', Math.round(MARK * 1.1)],
    ['-0.5 % (40,000 -> 39,800)', Math.round(MARK * 0.995)],
  ] as const) {
    const linear = timed(() => findLiquidatable(SPEC, TIERS, mark, entries));
    const indexed = timed(() => index.findLiquidatable(mark));
    const same = [...indexed.result].sort((a, b) => a - b).join() === linear.result.join();
    console.log(
      `mark ${label}: ${linear.result.length.toLocaleString('en-US')} to liquidate (index agrees: ${same ? 'yes' : 'NO'})`,
    );
    console.log(
      `  findLiquidatable (linear, exact)   wall ${fmt(summarise(linear.ms), 1, 'ms')}; CPU ${fmt(summarise(linear.cpuMs), 1, 'ms')}`,
    );
    console.log(
      `  LiquidationIndex.findLiquidatable  wall ${fmt(summarise(indexed.ms), 2, 'ms')}; CPU ${fmt(summarise(indexed.cpuMs), 2, 'ms')}`,
    );
  }
  console.log(`LiquidationIndex.load (100,000): ${fmt(summarise(builds), 0, 'ms')}`);
  benchIndexUpdates(index, entries, Math.round(MARK * 0.9));
}

console.log(
  `Futures risk benchmark: Node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}${QUICK ? ' (quick)' : ''}`,
);
benchPreTrade();
benchScan();
