import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

/** A load the test finishes by hand, so that an invalidation can land while it is in flight. */
function heldLoad<T>(value: T) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    load: async () => {
      await released;
      return value;
    },
    release: () => release(),
  };
}

describe('ReadCache', () => {
  it('answers from memory after the first load, and loads again once invalidated', async () => {
    const cache = new ReadCache<string, number>(10);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.read('a', load)).toBe(1);
    expect(await cache.read('a', load)).toBe(1);
    cache.invalidate('a');
    expect(await cache.read('a', load)).toBe(2);
  });

  it('does not store a load that an invalidation overtook (the value it read is older than the change)', async () => {
    const cache = new ReadCache<string, string>(10);
    const before = heldLoad('before the change');
    const reading = cache.read('a', before.load);
    cache.invalidate('a');
    before.release();
    // The caller still gets what it read: it asked before the change was announced.
    expect(await reading).toBe('before the change');
    expect(cache.get('a')).toBeUndefined();
    expect(await cache.read('a', async () => 'after the change')).toBe('after the change');
    expect(cache.get('a')).toBe('after the change');
  });

  it('stores a load that began after the invalidation, even while an older one is still in flight', async () => {
    const cache = new ReadCache<string, string>(10);
    const older = heldLoad('older');
    const olderReading = cache.read('a', older.load);
    cache.invalidate('a');
    const newer = heldLoad('newer');
    const newerReading = cache.read('a', newer.load);
    newer.release();
    expect(await newerReading).toBe('newer');
    older.release();
    expect(await olderReading).toBe('older');
    expect(cache.get('a')).toBe('newer');
  });

  it('clear() makes every load in flight leave nothing behind', async () => {
    const cache = new ReadCache<string, string>(10);
    const held = heldLoad('x');
    const reading = cache.read('a', held.load);
    cache.clear();
    held.release();
    await reading;
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const cache = new ReadCache<string, number>(2);
    await cache.read('a', async () => 1);
    await cache.read('b', async () => 2);
    cache.get('a');
    await cache.read('c', async () => 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('keeps the weight of what it holds under maxWeight, dropping the least recently used', async () => {
    const cache = new ReadCache<string, number[]>(10, { weigh: (list) => list.length, maxWeight: 5 });
    await cache.read('a', async () => [1, 2]);
    await cache.read('b', async () => [1, 2]);
    expect(cache.totalWeight).toBe(4);
    await cache.read('c', async () => [1, 2, 3]);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.totalWeight).toBe(5);
    cache.invalidate('b');
    expect(cache.totalWeight).toBe(3);
  });

  it('answers but does not store a value keep() refuses', async () => {
    const cache = new ReadCache<string, number | null>(10);
    expect(
      await cache.read(
        'a',
        async () => null,
        (value) => value !== null,
      ),
    ).toBeNull();
    expect(cache.size).toBe(0);
  });
});
