import { describe, expect, it } from 'vitest';
import { indexPriceTicks, MarkPriceTracker } from './pricing.ts';

// Prices in these examples are in ticks of 0.1 USD: 60,000 USD = 600,000 ticks.
const usd = (dollars: number): number => Math.round(dollars * 10);

describe('indexPriceTicks', () => {
  it('is null without sources and the price itself with one', () => {
    expect(indexPriceTicks([])).toBeNull();
    expect(indexPriceTicks([usd(60_010)])).toBe(usd(60_010));
  });

  it('takes the median of an odd count, whatever the order', () => {
    // futures-maths.md §5's three venues: the median is 60,010, not the weighted 60,008.
    expect(indexPriceTicks([usd(60_010), usd(59_990), usd(60_030)])).toBe(usd(60_010));
    expect(indexPriceTicks([usd(60_030), usd(60_010), usd(59_990)])).toBe(usd(60_010));
  });

  it('averages the two middle prices of an even count, half up', () => {
    expect(indexPriceTicks([100, 102])).toBe(101);
    expect(indexPriceTicks([100, 101])).toBe(101);
    expect(indexPriceTicks([103, 100, 1, 900])).toBe(102);
  });

  it('ignores one wild source among three', () => {
    expect(indexPriceTicks([usd(60_000), usd(60_001), 1])).toBe(usd(60_000));
    expect(indexPriceTicks([usd(60_000), usd(60_001), usd(6_000_000)])).toBe(usd(60_001));
  });

  it('refuses a price that is not a positive whole number of ticks', () => {
    expect(() => indexPriceTicks([100, 0])).toThrow(RangeError);
    expect(() => indexPriceTicks([100.5])).toThrow(RangeError);
  });
});

describe('MarkPriceTracker', () => {
  const halfPercent = 500_000n;

  it('has no mark before the first sample', () => {
    const tracker = new MarkPriceTracker({ window: 30, maxBasisRate: halfPercent });
    expect(tracker.markTicks()).toBeNull();
    expect(tracker.indexTicks()).toBeNull();
  });

  it("reproduces Binance's Price2: index 60,000 and a moving basis of +12 give 60,012", () => {
    const tracker = new MarkPriceTracker({ window: 3, maxBasisRate: halfPercent });
    const index = usd(60_000);
    // Mids 60,010, 60,012 and 60,014 (bid and ask one tick either side): bases 10, 12, 14, average 12.
    for (const basis of [10, 12, 14]) tracker.sample(index, usd(60_000 + basis) - 1, usd(60_000 + basis) + 1);
    expect(tracker.markTicks()).toBe(usd(60_012));
    expect(tracker.indexTicks()).toBe(index);
  });

  it('forgets samples older than the window', () => {
    const tracker = new MarkPriceTracker({ window: 2, maxBasisRate: 2_000_000n }); // 2 %: a band of 20 ticks
    tracker.sample(1_000, 1_009, 1_011); // basis 10
    tracker.sample(1_000, 1_001, 1_003); // basis 2
    expect(tracker.markTicks()).toBe(1_006);
    tracker.sample(1_000, 1_003, 1_005); // basis 4; the 10 leaves
    expect(tracker.markTicks()).toBe(1_003);
    expect(tracker.sampleCount()).toBe(2);
  });

  it('counts a one-sided, empty or crossed book as a basis of 0', () => {
    const tracker = new MarkPriceTracker({ window: 4, maxBasisRate: halfPercent }); // a band of 5 ticks
    tracker.sample(1_000, 1_003, 1_005); // basis 4
    tracker.sample(1_000, null, 1_005);
    tracker.sample(1_000, 1_003, null);
    tracker.sample(1_000, 1_006, 1_005); // crossed: not a market
    expect(tracker.markTicks()).toBe(1_001);
  });

  it('clamps each sample to the band before averaging', () => {
    const tracker = new MarkPriceTracker({ window: 2, maxBasisRate: halfPercent }); // a band of 5 ticks
    tracker.sample(1_000, 1_009, 1_011); // basis 10, counted as 5
    tracker.sample(1_000, 1_001, 1_003); // basis 2: average (5 + 2) / 2 = 3.5, a tie towards the index
    expect(tracker.markTicks()).toBe(1_003);
  });

  it('keeps half-tick mids exact and rounds a tie towards the index', () => {
    const tracker = new MarkPriceTracker({ window: 4, maxBasisRate: halfPercent });
    tracker.sample(1_000, 1_000, 1_001); // basis +0.5
    expect(tracker.markTicks()).toBe(1_000);
    tracker.sample(1_000, 1_000, 1_002); // basis +1: average 0.75
    expect(tracker.markTicks()).toBe(1_001);
    const below = new MarkPriceTracker({ window: 4, maxBasisRate: halfPercent });
    below.sample(1_000, 999, 1_000); // basis -0.5
    expect(below.markTicks()).toBe(1_000);
    below.sample(1_000, 997, 1_000); // basis -1.5: average -1
    expect(below.markTicks()).toBe(999);
  });

  it('never leaves the band, and one wild mid moves a full window by at most band / window', () => {
    // Band at 60,000 and 0.5 %: 300 USD = 3,000 ticks.
    const tracker = new MarkPriceTracker({ window: 30, maxBasisRate: halfPercent });
    const index = usd(60_000);
    for (let second = 0; second < 30; second += 1) tracker.sample(index, index - 5, index + 5);
    expect(tracker.markTicks()).toBe(index);
    tracker.sample(index, usd(90_000), usd(90_001)); // one sample at +50 %
    expect(tracker.markTicks()).toBe(index + 100); // 3,000 / 30
    for (let second = 0; second < 30; second += 1) tracker.sample(index, usd(90_000), usd(90_001));
    expect(tracker.markTicks()).toBe(index + 3_000);
    for (let second = 0; second < 30; second += 1) tracker.sample(index, 1, 2);
    expect(tracker.markTicks()).toBe(index - 3_000);
  });

  it('clamps to the band of the latest index when the index moves', () => {
    const tracker = new MarkPriceTracker({ window: 2, maxBasisRate: 1_000_000n }); // 1 %
    tracker.sample(10_000, 10_099, 10_101); // basis +100 (the 1 % band at 10,000)
    tracker.sample(5_000, 5_049, 5_051); // basis +50: average 75, but the band at 5,000 is 50
    expect(tracker.markTicks()).toBe(5_050);
  });

  it('refuses a window below one and a band of 100 % or more', () => {
    expect(() => new MarkPriceTracker({ window: 0, maxBasisRate: halfPercent })).toThrow(RangeError);
    expect(() => new MarkPriceTracker({ window: 3, maxBasisRate: 100_000_000n })).toThrow(RangeError);
    expect(() => new MarkPriceTracker({ window: 3, maxBasisRate: -1n })).toThrow(RangeError);
  });
});
