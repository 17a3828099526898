import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, pgliteTarget, type Target, type Trader } from '../order-entry/harness.ts';
import { type Profile, type ProfileNode, readProfile } from '../order-entry/profile-summary.ts';
import { runWrk } from './load.ts';
import { type OrderPhase, runOrderPhase } from './orders.ts';
import { BUDGETS_RAISED, prepareTraders, READS, startWarm } from './setup.ts';

/**
 * Issue 15 item 3: how much of the server's main-thread CPU time PGlite takes. The server runs with
 * --cpu-prof; the bench notes the windows of two phases on the profiler's clock (CLOCK_MONOTONIC,
 * which process.hrtime reads too) and, once the server has written its profile, counts the samples
 * inside each window: busy (not idle), PGlite's (any frame of @electric-sql/pglite's JavaScript or
 * of WebAssembly on the stack: its own work and what it calls, such as file writes), PGlite's own
 * frames alone (self time), garbage collection, and the rest.
 *
 *   npx tsx bench/public-reads/pglite-share.ts [--quick]     # alone, on a fresh PGlite server
 */

export type Shares = {
  phase: string;
  wallS: number;
  busyS: number;
  pgliteInclusiveS: number;
  pgliteSelfS: number;
  gcS: number;
};

const isPgliteFrame = (node: ProfileNode) =>
  node.callFrame.url.includes('node_modules/@electric-sql/pglite/') || node.callFrame.url.startsWith('wasm://');

/** Per node: is a PGlite frame the node itself, or on the stack above it. */
function classify(profile: Profile): Map<number, { self: boolean; inside: boolean }> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const out = new Map<number, { self: boolean; inside: boolean }>();
  const insideOf = (id: number): boolean => {
    const known = out.get(id);
    if (known) return known.inside;
    const node = byId.get(id)!;
    const self = isPgliteFrame(node);
    const up = parent.get(id);
    const inside = self || (up !== undefined && insideOf(up));
    out.set(id, { self, inside });
    return inside;
  };
  for (const node of profile.nodes) insideOf(node.id);
  return out;
}

/** The shares inside [startNs, endNs] of the profile's clock. */
export function sharesInWindow(profile: Profile, phase: string, windowNs: [bigint, bigint]): Shares {
  const startUs = Number(windowNs[0] / 1000n);
  const endUs = Number(windowNs[1] / 1000n);
  if (startUs < profile.startTime || endUs > profile.endTime) {
    throw new Error(`window ${startUs}-${endUs} us is outside the profile (${profile.startTime}-${profile.endTime})`);
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const kinds = classify(profile);
  const shares: Shares = {
    phase,
    wallS: (endUs - startUs) / 1e6,
    busyS: 0,
    pgliteInclusiveS: 0,
    pgliteSelfS: 0,
    gcS: 0,
  };
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    const deltaUs = profile.timeDeltas[index] ?? 0;
    time += deltaUs;
    if (time < startUs || time >= endUs) continue;
    const id = profile.samples[index]!;
    const name = byId.get(id)!.callFrame.functionName;
    if (name === '(idle)') continue;
    const seconds = deltaUs / 1e6;
    shares.busyS += seconds;
    if (name === '(garbage collector)') shares.gcS += seconds;
    if (kinds.get(id)?.inside) shares.pgliteInclusiveS += seconds;
    if (kinds.get(id)?.self) shares.pgliteSelfS += seconds;
  }
  return shares;
}

export function printShares(rows: Shares[], note: string): void {
  const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;
  console.log(`\n### PGlite's share of the server's main thread (${note})\n`);
  console.log(
    '| phase | main thread busy (of wall) | PGlite, its calls included (of busy) | PGlite frames only (of busy) | GC (of busy) | the rest (of busy) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const rest = row.busyS - row.pgliteInclusiveS - row.gcS;
    console.log(
      `| ${row.phase} | ${pct(row.busyS, row.wallS)} | ${pct(row.pgliteInclusiveS, row.busyS)} | ` +
        `${pct(row.pgliteSelfS, row.busyS)} | ${pct(row.gcS, row.busyS)} | ${pct(rest, row.busyS)} |`,
    );
  }
}

/** env: extra server environment (PGLITE_THREAD=worker). */
export type ShareOptions = { warmupS: number; orders: OrderPhase; readS: number; env?: Record<string, string> };

/**
 * Starts the server on `target` (already prepared, traders funded) with --cpu-prof and the budgets
 * raised, places orders alone, then reads every public call with wrk -c32 in turn; returns the shares.
 */
export async function measurePgliteShare(target: Target, traders: Trader[], options: ShareOptions): Promise<Shares[]> {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'public-reads-prof-'));
  try {
    const { server, markets } = await startWarm(target, { ...BUDGETS_RAISED, ...options.env }, options.warmupS, [
      '--cpu-prof',
      '--cpu-prof-dir',
      profileDir,
    ]);
    const orders = await runOrderPhase(server, traders, markets, options.orders, null);
    const readsStart = process.hrtime.bigint();
    for (const read of READS)
      await runWrk(`${server.url}${read}`, { threads: 2, connections: 32, durationS: options.readS });
    const readsEnd = process.hrtime.bigint();
    await server.stop();
    // The main thread's profile (a worker thread, such as the database's, writes one of its own, later).
    const file = fs
      .readdirSync(profileDir)
      .filter((name) => name.endsWith('.cpuprofile'))
      .sort()[0];
    if (!file) throw new Error('the server wrote no CPU profile');
    const profile = readProfile(path.join(profileDir, file));
    return [
      sharesInWindow(profile, `orders alone, ${options.orders.rate}/s`, orders.windowNs),
      sharesInWindow(profile, `public reads, wrk -c32, ${options.readS} s each`, [readsStart, readsEnd]),
    ];
  } finally {
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const quick = parseArgs(process.argv.slice(2)).has('quick');
  const target = pgliteTarget();
  try {
    const traders = await prepareTraders(target, 50);
    const shares = await measurePgliteShare(target, traders, {
      warmupS: quick ? 15 : 30,
      orders: { rate: 200, warmupS: 3, durationS: quick ? 10 : 15, connections: 64 },
      readS: quick ? 2 : 3,
    });
    printShares(shares, 'pglite, --cpu-prof');
  } finally {
    await target.cleanup();
  }
}
