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

function bookRun(prefill: Operation[], operations: Operation[], inputs: PreTradeInput[] | null): number {
  const book = new FastOrderBook();
  for (const operation of prefill) if (operation.kind === 'place') book.place(operation.command);
  let sink = 0;
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
  const elapsed = Number(nowNs() - started);
  if (sink < 0) console.log(sink);
  return elapsed / operations.length;
}

function checkRun(inputs: PreTradeInput[], calls: number): number {
  let accepted = 0;
  const mask = inputs.length - 1;
  const started = nowNs();
  for (let index = 0; index < calls; index++) if (preTradeCheck(inputs[index & mask]!).ok) accepted++;
  const elapsed = Number(nowNs() - started);
  if (accepted < 0) console.log(accepted);
  return elapsed / calls;
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
  const check: number[] = [];
  const book: number[] = [];
  const both: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    check.push(checkRun(inputs, CHECK_CALLS));
    book.push(bookRun(workload.prefill, workload.operations, null));
    both.push(bookRun(workload.prefill, workload.operations, inputs));
  }
  const added = both.map((value, run) => ((value - book[run]!) * workload.operations.length) / places);
  console.log(`pre-trade check mix (4,096 inputs): ${JSON.stringify(Object.fromEntries(verdicts))}`);
  console.log(`preTradeCheck alone          ${fmt(summarise(check), 0, 'ns per call')}`);
  console.log(
    `FastOrderBook alone          ${fmt(summarise(book), 0, 'ns per operation')} (${workload.operations.length.toLocaleString('en-US')} operations, ${places.toLocaleString('en-US')} placements)`,
  );
  console.log(`check before every placement ${fmt(summarise(both), 0, 'ns per operation')}`);
  console.log(`added per placement          ${fmt(summarise(added), 0, 'ns')} (same-run difference)`);
}

/** 100,000 isolated positions opened within 5 % of the mark at 2-125x with their initial margin posted. */
function positions(): ScanEntry[] {
  const random = mulberry32(0x16_0002);
  const entries: ScanEntry[] = [];
  for (let id = 0; id < POSITIONS; id++) {
    const lots = random() < 0.9 ? between(random, 1, 2_000) : between(random, 2_000, 200_000);
    const entry = between(random, MARK * 0.95, MARK * 1.05);
    const leverage = pick(random, LEVERAGES);
    const sizeLots = random() < 0.5 ? lots : -lots;
    const collateral = initialMargin(notionalMoney(SPEC, entry, lots), leverage);
    entries.push({ id, sizeLots, costTickLots: BigInt(lots) * BigInt(entry), collateral });
  }
  return entries;
}

function benchScan(): void {
  const entries = positions();
  const down = Math.round(MARK * 0.9);
  const up = Math.round(MARK * 1.1);
  for (let warm = 0; warm < 3; warm++) findLiquidatable(SPEC, TIERS, down, entries);
  const linear: number[] = [];
  let foundDown = 0;
  let foundUp = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = nowNs();
    foundDown = findLiquidatable(SPEC, TIERS, down, entries).length;
    linear.push(Number(nowNs() - started) / 1e6);
    foundUp = findLiquidatable(SPEC, TIERS, up, entries).length;
  }
  const builds: number[] = [];
  let index = new LiquidationIndex(SPEC, TIERS);
  for (let run = 0; run < (QUICK ? 1 : 3); run++) {
    index = new LiquidationIndex(SPEC, TIERS);
    const started = nowNs();
    index.load(entries);
    builds.push(Number(nowNs() - started) / 1e6);
  }
  const indexed: number[] = [];
  let agree = true;
  for (let run = 0; run < RUNS; run++) {
    const started = nowNs();
    const found = index.findLiquidatable(down);
    indexed.push(Number(nowNs() - started) / 1e6);
    agree &&= found.length === foundDown && index.findLiquidatable(up).length === foundUp;
  }
  const upserts = 2_000;
  const started = nowNs();
  for (let id = 0; id < upserts; id++) index.upsert({ ...entries[id]!, collateral: entries[id]!.collateral + USD });
  const upsertUs = Number(nowNs() - started) / 1e3 / upserts;
  console.log(
    `positions: ${POSITIONS.toLocaleString('en-US')}; mark 40,000 -> 36,000 liquidates ${foundDown.toLocaleString('en-US')}, -> 44,000 liquidates ${foundUp.toLocaleString('en-US')}`,
  );
  console.log(`findLiquidatable (linear, exact)      ${fmt(summarise(linear), 1, 'ms')}`);
  console.log(
    `LiquidationIndex.findLiquidatable     ${fmt(summarise(indexed), 2, 'ms')} (same ids: ${agree ? 'yes' : 'NO'})`,
  );
  console.log(
    `LiquidationIndex.load (100,000)       ${fmt(summarise(builds), 0, 'ms')}; upsert ${upsertUs.toFixed(1)} µs each`,
  );
}

console.log(
  `Futures risk benchmark: Node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}${QUICK ? ' (quick)' : ''}`,
);
benchPreTrade();
benchScan();
