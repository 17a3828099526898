import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import type { SpotValueRow } from '../wallet/index.ts';
import { type RecorderDeps, SnapshotRecorder } from './snapshot-recorder.ts';
import { usdPriceLookup } from './valuation.ts';

const HOUR_MS = 3_600_000;
const MIDNIGHT = Date.UTC(2026, 10, 26);

/** A recorder over fakes: one account with 10 USD, a database that records the inserts. */
function recorder(options: { failures?: number } = {}) {
  let failures = options.failures ?? 0;
  let nowMs = MIDNIGHT + 5 * 60_000;
  const inserted: { granularities: string[]; at: string[] }[] = [];
  const db = {
    query: async (sql: string, params: unknown[] = []) => {
      if (sql.includes('INSERT INTO portfolio_snapshots')) {
        inserted.push({ granularities: params[1] as string[], at: params[2] as string[] });
        return { rows: [], rowCount: (params[0] as string[]).length };
      }
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Database;
  const page: SpotValueRow[] = [{ accountId: 'a', spotValue: '10', holds: true }];
  const deps: RecorderDeps = {
    db,
    wallet: {
      spotValues: async ({ afterAccountId }) => {
        if (failures-- > 0) throw new Error('database down');
        return afterAccountId === null ? page : [];
      },
      flows: async () => [],
    },
    futures: { accounts: { equities: async () => new Map() } } as unknown as RecorderDeps['futures'],
    balances: {} as RecorderDeps['balances'],
    changes: { version: () => '0', watch: () => ({ changed: new Set(), stop: () => {} }) },
    prices: usdPriceLookup(() => undefined),
    priceAt: async () => null,
    clock: () => new Date(nowMs),
    batchSize: 100,
    hourlyRetentionDays: 8,
    log: { info: () => {}, warn: () => {} },
  };
  return { recorder: new SnapshotRecorder(deps), inserted, advance: (ms: number) => (nowMs += ms) };
}

describe('snapshot recorder timing', () => {
  it('records each hour once, with the day on its first run of the day only', async () => {
    const { recorder: r, inserted, advance } = recorder();
    expect(await r.tick()).toMatchObject({ at: new Date(MIDNIGHT).toISOString(), granularities: ['hour', 'day'] });
    expect(await r.tick()).toBeNull();
    advance(HOUR_MS);
    expect(await r.tick()).toMatchObject({ granularities: ['hour'], written: 1 });
    expect(inserted.map((insert) => insert.granularities)).toEqual([['hour', 'day'], ['hour']]);
  });

  it('one run at a time: a tick during a run gets that run', async () => {
    const { recorder: r } = recorder();
    const first = r.tick();
    expect(r.tick()).toBe(first);
    await first;
  });

  it('a failed run is retried on the next tick, for the bucket current then; past hours are never recorded', async () => {
    const { recorder: r, inserted, advance } = recorder({ failures: 1 });
    await expect(r.tick()).rejects.toThrow('database down');
    advance(2 * HOUR_MS);
    expect(await r.tick()).toMatchObject({ at: new Date(MIDNIGHT + 2 * HOUR_MS).toISOString() });
    expect(inserted.map((insert) => insert.at)).toEqual([
      [new Date(MIDNIGHT + 2 * HOUR_MS).toISOString(), new Date(MIDNIGHT).toISOString()],
    ]);
  });
});
