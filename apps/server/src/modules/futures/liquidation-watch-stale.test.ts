import { describe, expect, it } from 'vitest';
import type { NewNotification } from '../notifications/service.ts';
import type { FuturesCore } from './exchange.ts';
import { BTC, Desk, USD } from './liquidation.test-support.ts';
import { LiquidationWatch, type MarkUpdates } from './liquidation-watch.ts';
import { MarginCalls } from './margin-calls.ts';
import { createFuturesMarks } from './marks.ts';

const ETH = 'ETH_USD_PERP';

/** The log lines the watch writes, by level and market. */
function recordingLog() {
  const lines: { level: string; market: string; message: string }[] = [];
  const line = (level: string) => (details: { market?: string }, message: string) =>
    lines.push({ level, market: details.market ?? '', message });
  return { lines, log: { warn: line('warn'), info: line('info'), error: line('error'), debug: line('debug') } };
}

/** A watch over the desk's state whose commands are recorded (never written: they stay in flight). */
function watchOver(desk: Desk, marks: MarkUpdates, markOf = (id: string) => desk.marks[id] ?? null) {
  const submitted: { accountId: string; marketId: string }[] = [];
  const sent: NewNotification[][] = [];
  const listeners: (() => void)[] = [];
  const core = {
    state: desk.state,
    command: (_kind: string, payload: { accountId: string; marketId: string }) => {
      submitted.push({ accountId: payload.accountId, marketId: payload.marketId });
      return new Promise(() => {});
    },
    onCommitted: (listener: () => void) => {
      listeners.push(listener);
      return () => {};
    },
  } as unknown as FuturesCore;
  const { lines, log } = recordingLog();
  const watch = new LiquidationWatch({
    core,
    markOf,
    marks,
    clock: () => new Date(0),
    log: log as never,
    marginCalls: {
      calls: new MarginCalls(80_000_000n),
      send: async (rows) => {
        sent.push(rows);
      },
    },
  });
  return { watch, submitted, sent, lines };
}

/**
 * a: isolated 20x long 0.1 BTC at 50,000 (margin 250: liquidated at 47,738.6). c: cross long 0.1 BTC
 * at 50,000 on a wallet of 300, plus 0.001 ETH at 2,000 (liquidated near 47,100). b: the seller.
 */
function deskWithLongs(): Desk {
  const desk = new Desk();
  desk.marks[BTC] = 500_000;
  desk.marks[ETH] = 200_000;
  desk.trader('a', 1_000n, 'isolated', 20);
  desk.trader('b', 1_000_000n);
  desk.trader('c', 300n, 'cross', 20);
  desk.order('b', 'sell', 500_000, 200);
  desk.order('a', 'buy', 500_000, 100);
  desk.order('c', 'buy', 500_000, 100);
  const eth = desk.state.position('c', ETH);
  eth.sizeLots = 1;
  eth.costTickLots = 200_000n;
  return desk;
}

describe('the liquidation watch and a stale index', () => {
  it('neither liquidates nor calls in a stale market, warns once per stale period, and resumes when fresh', () => {
    const desk = deskWithLongs();
    const stale = new Set<string>([BTC]);
    const { watch, submitted, sent, lines } = watchOver(desk, { indexStale: (id) => stale.has(id) });
    // Far under both accounts' maintenance, but the BTC index is stale: nothing.
    desk.marks[BTC] = 471_000;
    for (let pass = 0; pass < 3; pass++) expect(watch.check()).toEqual([]);
    expect(watch.candidates()).toEqual([]);
    expect(submitted).toEqual([]);
    expect(sent).toEqual([]);
    expect(lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({ market: BTC, message: expect.stringContaining('index stale') }),
    ]);
    // BTC fresh, ETH stale: the isolated BTC position goes; the cross account holds ETH, so it waits.
    stale.clear();
    stale.add(ETH);
    expect(watch.check()).toHaveLength(1);
    expect(submitted).toEqual([{ accountId: 'a', marketId: BTC }]);
    expect(sent.flat().map((row) => row.accountId)).toEqual(['a']);
    expect(lines.map((l) => `${l.level} ${l.market}`)).toEqual([`warn ${BTC}`, `info ${BTC}`, `warn ${ETH}`]);
    // Everything fresh: the cross account's positions go too (a is in flight), and its call is sent now.
    stale.clear();
    watch.check();
    expect(submitted.slice(1)).toEqual([
      { accountId: 'c', marketId: BTC },
      { accountId: 'c', marketId: ETH },
    ]);
    expect(sent.flat().map((row) => row.accountId)).toEqual(['a', 'c']);
    expect(lines.at(-1)).toMatchObject({ level: 'info', market: ETH });
    // A new stale period warns again.
    stale.add(BTC);
    watch.check();
    watch.check();
    expect(lines.filter((l) => l.level === 'warn' && l.market === BTC)).toHaveLength(2);
  });

  it('keeps a margin call decided in a stale market for when it is fresh (neither sent nor forgotten)', () => {
    const desk = deskWithLongs();
    const stale = new Set<string>();
    const { watch, sent } = watchOver(desk, { indexStale: (id) => stale.has(id) });
    // 47,790: a's margin ratio is past 0.8 (call at 47,798.74), not liquidatable.
    desk.marks[BTC] = 477_900;
    stale.add(BTC);
    watch.check();
    expect(sent).toEqual([]);
    stale.clear();
    watch.check();
    expect(sent.flat().map((row) => row.accountId)).toEqual(['a']);
    // Called once: a stale pass in between does not reset it.
    stale.add(BTC);
    watch.check();
    stale.clear();
    watch.check();
    expect(sent.flat()).toHaveLength(1);
  });

  it('with the marks module: a dead feed stops liquidations at the standing mark, a fresh quote resumes them', async () => {
    const desk = deskWithLongs();
    let nowMs = Date.UTC(2026, 0, 5, 9, 30);
    let quotes: { price: string; atMs: number }[] = [{ price: '50000', atMs: nowMs }];
    const marks = createFuturesMarks({
      markets: () => [...desk.markets.values()].filter((spec) => spec.id === BTC),
      indexSources: (base) => (base === 'BTC' ? quotes : []),
      bookTop: () => ({ bestBidTicks: null, bestAskTicks: null }),
      bookLevels: () => [],
      clock: () => new Date(nowMs),
      publish: () => {},
      config: { indexStaleMs: 30_000 },
    });
    const markOf = (id: string) => marks.mark(id)?.markTicks ?? null;
    const { watch, submitted, lines } = watchOver(desk, marks, markOf);
    marks.sampleAll();
    expect(markOf(BTC)).toBe(500_000);
    watch.start();
    // The feed dies; 31 s later the index is stale and the marks say so: one pass, one warning.
    nowMs += 31_000;
    marks.sampleAll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(marks.indexStale(BTC)).toBe(true);
    // (The other markets have no mark at all in this test: stale from the start, warned at the first pass.)
    expect(lines.filter((l) => l.market === BTC).map((l) => l.level)).toEqual(['warn']);
    // a's isolated margin drops (as a funding payment would) under maintenance at the standing mark:
    // MM at 50,000 is 25, so 20 of margin is liquidatable, but not on a stale index.
    desk.state.position('a', BTC).isolatedMargin = 20n * USD;
    watch.refresh();
    watch.check();
    expect(submitted).toEqual([]);
    // A fresh quote at the same price: a new publication, a pass, the liquidation.
    quotes = [{ price: '50000', atMs: nowMs }];
    nowMs += 1_000;
    marks.sampleAll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(submitted).toEqual([{ accountId: 'a', marketId: BTC }]);
    expect(lines.at(-1)).toMatchObject({ level: 'info', market: BTC });
    // (Not awaited: the recorded commands never settle.)
    void watch.stop();
  });
});
