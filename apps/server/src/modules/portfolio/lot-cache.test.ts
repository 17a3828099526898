import { lots } from '@platform/engine';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AccountMovement, MovementCursor } from '../wallet/index.ts';
import { LOT_ASSET_SCALE, lotHistories } from './ledger-lots.ts';
import { LotCache, type LotCacheDeps } from './lot-cache.ts';
import { type LotCheckpointState, type PreparedCheckpoint, restoreCheckpoint } from './lot-checkpoints.ts';

/**
 * A fake ledger: the account's movements so far; a cursor is how many the reader has seen (the
 * cache treats it as opaque), and a read gives whatever was appended since.
 */
class FakeLedger {
  readonly movements: AccountMovement[] = [];
  full = 0;
  reads = 0;
  private nextEntry = 1;

  read: LotCacheDeps['movements'] = async (_accountId, after?: MovementCursor) => {
    this.reads++;
    // Shaped like the wallet's (a currency and a posting id), so checkpoints accept it.
    const seen = Number(after?.SEEN ?? 0);
    if (after?.SEEN === undefined) this.full++;
    await Promise.resolve();
    return { movements: this.movements.slice(seen), cursor: { SEEN: String(this.movements.length) } };
  };

  /** One entry: legs as [currency, signed amount]. */
  entry(kind: string, legs: readonly (readonly [string, string])[], createdAtMs: number): void {
    const entryId = String(this.nextEntry++);
    for (const [currency, amount] of [...legs].sort(([a], [b]) => (a < b ? -1 : 1))) {
      this.movements.push({ entryId, kind, reference: `ref-${entryId}`, currency, amount, createdAtMs });
    }
  }
}

const priceAt = async (currency: string) => (currency === 'BTC' ? '50000' : currency === 'ETH' ? '3000' : null);

/** The reference: the whole history at once through computeLots. */
async function fullComputation(movements: readonly AccountMovement[], method: lots.LotMethod) {
  const histories = await lotHistories(movements, priceAt);
  const byAsset = new Map<string, { openLots: lots.OpenLot[]; totals: lots.LotTotals }>();
  for (const [asset, events] of histories) {
    const result = lots.computeLots({ asset, scale: LOT_ASSET_SCALE, events }, { method, realisedRows: false });
    if (!result.ok) throw new Error(result.reason);
    byAsset.set(asset, { openLots: result.openLots, totals: result.totals });
  }
  return byAsset;
}

type Step =
  | { type: 'buy' | 'sell'; asset: 'BTC' | 'ETH'; units: number; usd: number; dtMs: number }
  | { type: 'deposit' | 'withdraw'; asset: 'BTC' | 'ETH'; units: number; dtMs: number }
  | { type: 'convert'; units: number; dtMs: number }
  | { type: 'read' }
  | { type: 'restart' };

const asset = fc.constantFrom('BTC' as const, 'ETH' as const);
// dtMs may be negative: two transactions' clocks crossing.
const dtMs = fc.integer({ min: -500, max: 60_000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    type: fc.constantFrom('buy' as const, 'sell' as const),
    asset,
    units: fc.integer({ min: 1, max: 500 }),
    usd: fc.integer({ min: 1, max: 100_000 }),
    dtMs,
  }),
  fc.record({
    type: fc.constantFrom('deposit' as const, 'withdraw' as const),
    asset,
    units: fc.integer({ min: 1, max: 500 }),
    dtMs,
  }),
  fc.record({ type: fc.constant('convert' as const), units: fc.integer({ min: 1, max: 300 }), dtMs }),
  fc.constant({ type: 'read' as const }),
);

/** Plays the steps on the fake ledger, never below zero (as the real ledger), reading the cache at each 'read'. */
async function play(steps: readonly Step[], method: lots.LotMethod, checkpoints?: MemoryCheckpoints) {
  const ledger = new FakeLedger();
  const open = () => new LotCache({ movements: ledger.read, priceAt, checkpoints }, limits);
  let cache = open();
  const held = { BTC: 0, ETH: 0 };
  let timeMs = 1_700_000_000_000;
  const amount = (units: number) => `${(units / 1000).toFixed(3)}`;
  for (const s of steps) {
    if (s.type === 'read') {
      await cache.lots('a', method);
      continue;
    }
    if (s.type === 'restart') {
      // A new server over the same ledger and checkpoints, once the old one's writes are done.
      await cache.settled();
      cache = open();
      continue;
    }
    timeMs += s.dtMs;
    if (s.type === 'buy' || s.type === 'deposit') {
      held[s.asset] += s.units;
      const legs: [string, string][] = [[s.asset, amount(s.units)]];
      if (s.type === 'buy') legs.push(['USD', `-${s.usd}`]);
      ledger.entry(s.type === 'buy' ? 'trade' : 'deposit', legs, timeMs);
    } else if (s.type === 'sell' || s.type === 'withdraw') {
      const units = Math.min(s.units, held[s.asset]);
      if (units === 0) continue;
      held[s.asset] -= units;
      const legs: [string, string][] = [[s.asset, `-${amount(units)}`]];
      if (s.type === 'sell') legs.push(['USD', String(s.usd)]);
      ledger.entry(s.type === 'sell' ? 'trade' : 'withdrawal', legs, timeMs);
    } else {
      const units = Math.min(s.units, held.BTC);
      if (units === 0) continue;
      held.BTC -= units;
      held.ETH += units * 10;
      ledger.entry(
        'conversion',
        [
          ['BTC', `-${amount(units)}`],
          ['ETH', amount(units * 10)],
        ],
        timeMs,
      );
    }
  }
  return { ledger, cache };
}

describe('lot cache', () => {
  it('incremental reads equal one computation of the whole history (random histories and page cuts)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 80 }),
        fc.constantFrom(...lots.LOT_METHODS),
        async (steps, method) => {
          const { ledger, cache } = await play(steps, method);
          const cached = await cache.lots('a', method);
          const expected = await fullComputation(ledger.movements, method);
          for (const name of ['BTC', 'ETH']) {
            expect(cached(name)?.openLots ?? []).toEqual(expected.get(name)?.openLots ?? []);
            expect(cached(name)?.totals).toEqual(expected.get(name)?.totals);
          }
          expect(ledger.full).toBe(1);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('two requests at once build once; 300 at once read the ledger twice at most', async () => {
    const ledger = new FakeLedger();
    ledger.entry(
      'trade',
      [
        ['BTC', '1'],
        ['USD', '-50000'],
      ],
      1,
    );
    const cache = new LotCache({ movements: ledger.read, priceAt });
    const [a, b] = await Promise.all([cache.lots('a', 'fifo'), cache.lots('a', 'fifo')]);
    expect(a('BTC')?.totals.openAmount).toBe(10n ** 18n);
    expect(b('BTC')?.totals).toEqual(a('BTC')?.totals);
    expect(ledger.full).toBe(1);
    expect(ledger.reads).toBe(2);

    ledger.entry(
      'trade',
      [
        ['BTC', '1'],
        ['USD', '-60000'],
      ],
      2,
    );
    const many = await Promise.all(Array.from({ length: 300 }, () => cache.lots('a', 'fifo')));
    expect(ledger.full).toBe(1);
    expect(ledger.reads).toBeLessThanOrEqual(4);
    for (const view of many) expect(view('BTC')?.totals.openCostUsd).toBe(110_000n * lots.USD_UNITS_PER_DOLLAR);
  });

  it('keeps at most its limits of books and events, least recently used out first', async () => {
    const ledger = new FakeLedger();
    for (let i = 1; i <= 10; i++) ledger.entry('deposit', [['BTC', '1']], i);
    const cache = new LotCache({ movements: ledger.read, priceAt }, { books: 3, events: 25 });
    for (const account of ['a', 'b', 'c']) await cache.lots(account, 'fifo');
    expect(cache.size()).toEqual({ books: 2, events: 20 });
    await cache.lots('b', 'fifo'); // b is now the most recent: c goes first, then b stays
    await cache.lots('a', 'hifo');
    expect(cache.size()).toEqual({ books: 2, events: 20 });
    const fullBefore = ledger.full;
    await cache.lots('a', 'hifo');
    await cache.lots('b', 'fifo');
    expect(ledger.full).toBe(fullBefore);
    await cache.lots('c', 'fifo');
    expect(ledger.full).toBe(fullBefore + 1);
    // An account larger than the whole budget is not kept.
    const tiny = new LotCache({ movements: ledger.read, priceAt }, { books: 3, events: 5 });
    await tiny.lots('a', 'fifo');
    expect(tiny.size()).toEqual({ books: 0, events: 0 });
  });

  it('a failed read drops the entry; the next request builds it afresh', async () => {
    const ledger = new FakeLedger();
    ledger.entry('deposit', [['BTC', '1']], 1);
    const failing = vi.fn(ledger.read);
    const cache = new LotCache({ movements: failing, priceAt });
    await cache.lots('a', 'fifo');
    failing.mockRejectedValueOnce(new Error('connection lost'));
    await expect(cache.lots('a', 'fifo')).rejects.toThrow('connection lost');
    expect(cache.size().books).toBe(0);
    ledger.entry('deposit', [['BTC', '2']], 2);
    const view = await cache.lots('a', 'fifo');
    expect(view('BTC')?.totals.openAmount).toBe(3n * 10n ** 18n);
  });

  it('restarts from checkpoints at random points give the books of one pass (each method)', async () => {
    let restored = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof({ arbitrary: step, weight: 5 }, { arbitrary: fc.constant({ type: 'restart' as const }), weight: 1 }),
          { maxLength: 80, size: 'medium' },
        ),
        fc.constantFrom(...lots.LOT_METHODS),
        async (steps, method) => {
          const store = new MemoryCheckpoints();
          const { ledger, cache } = await play(steps, method, store);
          const cached = await cache.lots('a', method);
          const expected = await fullComputation(ledger.movements, method);
          for (const name of ['BTC', 'ETH']) {
            expect(cached(name)?.openLots ?? []).toEqual(expected.get(name)?.openLots ?? []);
            expect(cached(name)?.totals).toEqual(expected.get(name)?.totals);
          }
          await cache.settled();
          restored += store.restored;
        },
      ),
      { numRuns: 150 },
    );
    expect(restored).toBeGreaterThan(100);
  });

  it('300 cold requests at once read the checkpoint once', async () => {
    const { ledger, store } = await checkpointed();
    const cache = new LotCache({ movements: ledger.read, priceAt, checkpoints: store }, limits);
    const views = await Promise.all(Array.from({ length: 300 }, () => cache.lots('a', 'fifo')));
    expect(store.reads).toBe(2);
    expect(ledger.full).toBe(1);
    for (const view of views) expect(view('BTC')?.totals.openAmount).toBe(10n * 10n ** 18n);
  });

  it('a checkpoint whose tail the books refuse is discarded and the account rebuilt in the same request', async () => {
    const { ledger, store } = await checkpointed();
    // A cursor behind its books (in the row and the payload alike): the tail repeats open lots' ids.
    const row = store.rows.get('a:fifo')!;
    const payload = JSON.parse(row.json) as { cursor: MovementCursor };
    payload.cursor = { SEEN: '3' };
    store.rows.set('a:fifo', { ...row, json: JSON.stringify(payload), cursor: { SEEN: '3' } });
    const warnings: string[] = [];
    const log = { warn: (_details: object, message: string) => warnings.push(message) };
    const cache = new LotCache({ movements: ledger.read, priceAt, checkpoints: store, log }, limits);
    const view = await cache.lots('a', 'fifo');
    expect(view('BTC')?.totals).toEqual((await fullComputation(ledger.movements, 'fifo')).get('BTC')?.totals);
    expect(warnings).toEqual(['lot checkpoint: its tail failed, building from the ledger']);
    expect(store.discarded).toBe(1);
    await cache.settled();
    expect(JSON.parse(store.rows.get('a:fifo')!.json).cursor).toEqual({ SEEN: '10' });
  });

  it('one checkpoint write at a time per key, after the answer', async () => {
    const ledger = new FakeLedger();
    for (let i = 1; i <= 10; i++) ledger.entry('deposit', [['BTC', '1']], i);
    const store = new MemoryCheckpoints();
    let running = 0;
    let most = 0;
    const write = store.write.bind(store);
    store.write = async (...args) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return write(...args);
    };
    const cache = new LotCache({ movements: ledger.read, priceAt, checkpoints: store }, limits);
    await cache.lots('a', 'fifo');
    expect(store.writes).toBe(0);
    for (let round = 0; round < 5; round++) {
      ledger.entry('deposit', [['BTC', '1']], 20 + round);
      await Promise.all(Array.from({ length: 30 }, () => cache.lots('a', 'fifo')));
    }
    await cache.settled();
    expect(most).toBe(1);
    expect(store.writes).toBeGreaterThan(0);
  });
});

/** Checkpoints kept in memory, through the same JSON and checks as the database's. */
class MemoryCheckpoints {
  readonly rows = new Map<string, PreparedCheckpoint>();
  writes = 0;
  restored = 0;
  reads = 0;
  discarded = 0;
  async discard(accountId: string, method: lots.LotMethod): Promise<void> {
    this.discarded++;
    this.rows.delete(`${accountId}:${method}`);
  }
  async read(accountId: string, method: lots.LotMethod): Promise<LotCheckpointState | null> {
    this.reads++;
    const row = this.rows.get(`${accountId}:${method}`);
    if (row === undefined) return null;
    const restored = restoreCheckpoint(accountId, method, JSON.parse(row.json), row);
    if (typeof restored === 'string') throw new Error(restored);
    this.restored++;
    return restored;
  }
  async write(accountId: string, method: lots.LotMethod, checkpoint: PreparedCheckpoint): Promise<number> {
    this.writes++;
    this.rows.set(`${accountId}:${method}`, checkpoint);
    return checkpoint.json.length;
  }
}

const limits = { books: 10, events: 10_000, checkpointEvents: 2 };

/** Ten BTC deposits, built once and checkpointed in memory: what a restarted cache finds. */
async function checkpointed() {
  const ledger = new FakeLedger();
  for (let i = 1; i <= 10; i++) ledger.entry('deposit', [['BTC', '1']], i);
  const store = new MemoryCheckpoints();
  const first = new LotCache({ movements: ledger.read, priceAt, checkpoints: store }, limits);
  await first.lots('a', 'fifo');
  await first.settled();
  expect(store.writes).toBe(1);
  return { ledger, store };
}
