import type { lots } from '@platform/engine';
import { describe, expect, it } from 'vitest';
import { LotsMemo } from './lots-memo.ts';

/** A fake ledger version per account and a pass that counts its runs. */
function harness(rows = 1, limits = { entries: 3, rows: 25, entryRows: 10 }) {
  const versions = new Map<string, number>();
  const runs: string[] = [];
  let fail = false;
  const result = (asset: string): lots.LotResult =>
    ({ asset, openLots: Array.from({ length: rows }), realised: [], totals: {} }) as unknown as lots.LotResult;
  const memo = new LotsMemo(
    { version: (accountId) => String(versions.get(accountId) ?? 0) },
    async (accountId, method) => {
      runs.push(`${accountId}:${method}`);
      await Promise.resolve();
      if (fail) throw new Error('read failed');
      return [result(accountId)];
    },
    limits,
  );
  const bump = (accountId: string) => versions.set(accountId, (versions.get(accountId) ?? 0) + 1);
  return { memo, runs, bump, failNext: (value: boolean) => (fail = value) };
}

describe('LotsMemo: lot results kept until the account ledger changes', () => {
  it('two reads with nothing new run one pass; a ledger change runs another', async () => {
    const { memo, runs, bump } = harness();
    const first = await memo.lots('a', 'fifo');
    expect(await memo.lots('a', 'fifo')).toBe(first);
    expect(runs).toEqual(['a:fifo']);
    bump('a');
    expect(await memo.lots('a', 'fifo')).not.toBe(first);
    expect(runs).toEqual(['a:fifo', 'a:fifo']);
  });

  it('a change during the pass is not hidden: the result was kept under the version read before it', async () => {
    const { memo, runs, bump } = harness();
    const pending = memo.lots('a', 'fifo');
    bump('a');
    await pending;
    await memo.lots('a', 'fifo');
    expect(runs).toHaveLength(2);
  });

  it('300 concurrent reads share one pass; methods and accounts are apart; another account’s change keeps it', async () => {
    const { memo, runs, bump } = harness();
    const answers = await Promise.all(Array.from({ length: 300 }, () => memo.lots('a', 'fifo')));
    expect(new Set(answers).size).toBe(1);
    await memo.lots('a', 'hifo');
    await memo.lots('b', 'fifo');
    bump('b');
    await memo.lots('a', 'fifo');
    expect(runs).toEqual(['a:fifo', 'a:hifo', 'b:fifo']);
  });

  it('a failed pass is not kept; the least recently read entry goes first past the bound', async () => {
    const { memo, runs, failNext } = harness();
    failNext(true);
    await expect(memo.lots('a', 'fifo')).rejects.toThrow('read failed');
    failNext(false);
    await memo.lots('a', 'fifo');
    expect(runs).toEqual(['a:fifo', 'a:fifo']);
    await memo.lots('b', 'fifo');
    await memo.lots('c', 'fifo');
    await memo.lots('a', 'fifo');
    await memo.lots('d', 'fifo');
    expect(memo.size).toEqual({ entries: 3, rows: 3 });
    await memo.lots('a', 'fifo');
    await memo.lots('b', 'fifo');
    expect(runs).toEqual(['a:fifo', 'a:fifo', 'b:fifo', 'c:fifo', 'd:fifo', 'b:fifo']);
  });

  it('a result over the row bound is answered but not kept', async () => {
    const { memo, runs } = harness(11);
    await memo.lots('a', 'fifo');
    await memo.lots('a', 'fifo');
    expect(runs).toEqual(['a:fifo', 'a:fifo']);
    expect(memo.size).toEqual({ entries: 0, rows: 0 });
  });

  it('the rows kept over all entries are bounded: the least recently read go first', async () => {
    const { memo, runs, bump } = harness(10);
    await memo.lots('a', 'fifo');
    await memo.lots('b', 'fifo');
    expect(memo.size).toEqual({ entries: 2, rows: 20 });
    await memo.lots('c', 'fifo');
    expect(memo.size).toEqual({ entries: 2, rows: 20 });
    await memo.lots('b', 'fifo');
    await memo.lots('a', 'fifo');
    expect(runs).toEqual(['a:fifo', 'b:fifo', 'c:fifo', 'a:fifo']);
    // A recomputed entry replaces its rows, never adds to them.
    bump('a');
    await memo.lots('a', 'fifo');
    expect(memo.size.rows).toBeLessThanOrEqual(20);
  });
});
