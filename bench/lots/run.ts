/**
 * Lot accounting benchmark (issue 17): computeLots over 100,000 events of one asset with each method,
 * with every realised row kept (the tax report's case) and without rows (open lots and totals: the
 * portfolio's case), then the tax-year grouping and the CSV of the realised rows. The target: well under 100 ms per
 * history.
 *
 *   npm run bench:lots                                       (node --expose-gc --import tsx bench/lots/run.ts)
 *   node --expose-gc --import tsx bench/lots/run.ts --quick  3 runs instead of 9, a smoke test
 */
import os from 'node:os';
import type { LotEvent, LotMethod, LotResult } from '../../packages/engine/src/lots/api.ts';
import { taxReportCsvRecords } from '../../packages/engine/src/lots/csv.ts';
import { computeLots } from '../../packages/engine/src/lots/lot-book.ts';
import { realisedByTaxYear } from '../../packages/engine/src/lots/tax-report.ts';
import { mulberry32 } from '../engine/workload.ts';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 3 : 9;
const EVENTS = 100_000;
const SCALE = 8;
const SATOSHIS = 100_000_000n;
const USD = 100_000_000n;
const START_MS = Date.UTC(2019, 0, 1);

/**
 * A BTC history: a price walking from 40,000 USD by up to ±0.5 % per event, one event every 10
 * minutes (about two years). acquisitionShare of events are buys of 0.0001-0.5 BTC (fee 0.1 % in
 * the quote, in the cost); the rest sell 0.0001 BTC up to the whole holding at once (fee 0.1 %).
 */
function history(acquisitionShare: number, seed: number): LotEvent[] {
  const random = mulberry32(seed);
  const events: LotEvent[] = [];
  let priceUsd = 40_000n * USD;
  let held = 0n;
  for (let index = 0; index < EVENTS; index++) {
    const move = BigInt(Math.floor((random() - 0.5) * 1_000)); // ±0.5 % in steps of 0.001 %
    priceUsd += (priceUsd * move) / 100_000n;
    const timeMs = START_MS + index * 600_000;
    const id = `e${index}`;
    const value = (amount: bigint) => (amount * priceUsd) / SATOSHIS;
    if (held === 0n || random() < acquisitionShare) {
      const amount = 10_000n + BigInt(Math.floor(random() * 50_000_000));
      const gross = value(amount);
      events.push({ type: 'acquisition', id, timeMs, kind: 'buy', amount, costUsd: gross + gross / 1_000n });
      held += amount;
    } else {
      const wanted = 10_000n + BigInt(Math.floor(random() * 80_000_000));
      const amount = wanted < held ? wanted : held;
      const proceedsUsd = value(amount);
      events.push({ type: 'disposal', id, timeMs, kind: 'sell', amount, proceedsUsd, feeUsd: proceedsUsd / 1_000n });
      held -= amount;
    }
  }
  return events;
}

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1_000;
};

/** Collects the previous run's garbage first (with --expose-gc), so that a run does not pay for the last one's rows. */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});

function measure(run: () => void): { wall: number[]; cpu: number[] } {
  run(); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    collectGarbage();
    const cpuBefore = cpuMs();
    const before = performance.now();
    run();
    wall.push(performance.now() - before);
    cpu.push(cpuMs() - cpuBefore);
  }
  return { wall, cpu };
}

const spread = (values: number[]): string => {
  const sorted = values.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${sorted[0]!.toFixed(1)} / ${median.toFixed(1)} / ${sorted[sorted.length - 1]!.toFixed(1)} ms`;
};

function main(): void {
  console.log(
    `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const gcNote = (globalThis as { gc?: unknown }).gc
    ? 'a full GC before each run'
    : "no --expose-gc: runs include the last run's garbage";
  console.log(`${EVENTS.toLocaleString('en')} events per history, ${RUNS} runs: min / median / max; ${gcNote}\n`);
  console.log(
    '| workload | method | realised rows | open lots at the end | with rows: wall | CPU | open lots and totals only: wall | CPU |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const workloads = [
    { name: 'balanced (50 % buys)', events: history(0.5, 0x17_0001) },
    { name: 'accumulating (80 % buys)', events: history(0.8, 0x17_0002) },
  ];
  let sample: LotResult | undefined;
  for (const workload of workloads) {
    for (const method of ['fifo', 'lifo', 'hifo'] as LotMethod[]) {
      let result: LotResult | undefined;
      const compute = (realisedRows: boolean) => () => {
        result = undefined; // let the last run's rows go before this run allocates its own
        const computed = computeLots({ asset: 'BTC', scale: SCALE, events: workload.events }, { method, realisedRows });
        if (!computed.ok) throw new Error(computed.message);
        result = computed;
      };
      const summary = measure(compute(false));
      const full = measure(compute(true));
      sample ??= result;
      const rows = result!.realised.length.toLocaleString('en');
      const open = result!.openLots.length.toLocaleString('en');
      const cells = [spread(full.wall), spread(full.cpu), spread(summary.wall), spread(summary.cpu)].join(' | ');
      console.log(`| ${workload.name} | ${method} | ${rows} | ${open} | ${cells} |`);
    }
  }
  const report = measure(() => {
    let bytes = 0;
    for (const year of realisedByTaxYear([sample!])) {
      for (const record of taxReportCsvRecords(year.rows)) bytes += record.length + 2;
    }
    if (bytes === 0) throw new Error('empty report');
  });
  console.log(`\ntax years + CSV of the first history's ${sample!.realised.length.toLocaleString('en')} rows (FIFO):`);
  console.log(`wall ${spread(report.wall)}, CPU ${spread(report.cpu)}`);
}

main();
