import { describe, expect, it } from 'vitest';
import { stopTriggered, withinPriceBand } from './price-rules.ts';

describe('stopTriggered', () => {
  it.each([
    // takeProfit, side, stop, last, fires
    [false, 'sell', 100, 101, false],
    [false, 'sell', 100, 100, true],
    [false, 'sell', 100, 99, true],
    [false, 'buy', 100, 99, false],
    [false, 'buy', 100, 100, true],
    [true, 'sell', 100, 99, false],
    [true, 'sell', 100, 101, true],
    [true, 'buy', 100, 101, false],
    [true, 'buy', 100, 99, true],
  ] as const)('take-profit %s, %s stop at %i, last %i: %s', (takeProfit, side, stop, last, fires) => {
    expect(stopTriggered(takeProfit, side, stop, last)).toBe(fires);
  });
});

describe('withinPriceBand', () => {
  it('is inclusive at the edge, on both sides, and open without a reference', () => {
    expect(withinPriceBand(110, 100, 1000)).toBe(true);
    expect(withinPriceBand(111, 100, 1000)).toBe(false);
    expect(withinPriceBand(90, 100, 1000)).toBe(true);
    expect(withinPriceBand(89, 100, 1000)).toBe(false);
    expect(withinPriceBand(1, null, 0)).toBe(true);
  });

  it('stays exact beyond 2^53 in the product', () => {
    const reference = 2 ** 52;
    expect(withinPriceBand(reference + 2 ** 40, reference, 1)).toBe(false);
    expect(withinPriceBand(reference + Math.floor(reference / 10_000), reference, 1)).toBe(true);
  });
});
