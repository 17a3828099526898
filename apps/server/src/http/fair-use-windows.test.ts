import { describe, expect, it } from 'vitest';
import { FixedWindowCounter } from './fair-use-windows.ts';

const MINUTE_START = 1_700_000_040_000; // a whole minute of the clock

describe('FixedWindowCounter', () => {
  it('counts within a window, refuses past the limit without counting, and starts again at the next window', () => {
    const counter = new FixedWindowCounter(60_000);
    expect(counter.check('a', 6, 10, MINUTE_START)).toEqual({ used: 0, accepted: true, msUntilReset: 60_000 });
    expect(counter.add('a', 6, MINUTE_START)).toBe(6);
    expect(counter.check('a', 5, 10, MINUTE_START + 15_000)).toEqual({
      used: 6,
      accepted: false,
      msUntilReset: 45_000,
    });
    expect(counter.check('a', 4, 10, MINUTE_START + 15_000).accepted).toBe(true);
    expect(counter.check('b', 10, 10, MINUTE_START + 15_000).accepted).toBe(true);
    expect(counter.check('a', 10, 10, MINUTE_START + 60_000)).toEqual({
      used: 0,
      accepted: true,
      msUntilReset: 60_000,
    });
  });

  it('lets go of every key of a past window, and of a window that holds too many keys', () => {
    const counter = new FixedWindowCounter(10_000, 3);
    for (const key of ['a', 'b', 'c']) counter.add(key, 1, MINUTE_START);
    expect(counter.size).toBe(3);
    counter.add('d', 1, MINUTE_START);
    expect(counter.size).toBe(1);
    counter.add('a', 1, MINUTE_START + 10_000);
    expect(counter.size).toBe(1);
    expect(counter.check('d', 0, 0, MINUTE_START + 10_000).used).toBe(0);
  });
});
