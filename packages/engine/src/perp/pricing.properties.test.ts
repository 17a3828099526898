import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RATE_SCALE } from './api.ts';
import { Fraction, frac } from './fraction.test-support.ts';
import { indexPriceTicks, MarkPriceTracker } from './pricing.ts';

const priceArbitrary = fc.integer({ min: 1, max: 2_000_000_000 });

describe('indexPriceTicks (properties)', () => {
  it('has at most half the sources strictly on either side, and is a source for an odd count', () => {
    fc.assert(
      fc.property(fc.array(priceArbitrary, { minLength: 1, maxLength: 15 }), (prices) => {
        const index = indexPriceTicks(prices)!;
        const below = prices.filter((price) => price < index).length;
        const above = prices.filter((price) => price > index).length;
        expect(2 * below).toBeLessThanOrEqual(prices.length);
        expect(2 * above).toBeLessThanOrEqual(prices.length);
        if (prices.length % 2 === 1) expect(prices).toContain(index);
        expect(index).toBeGreaterThanOrEqual(Math.min(...prices));
        expect(index).toBeLessThanOrEqual(Math.max(...prices));
      }),
      { numRuns: 500 },
    );
  });

  it('is the exact middle rounded half up for an even count, and does not depend on the order', () => {
    fc.assert(
      fc.property(fc.array(priceArbitrary, { minLength: 1, maxLength: 14 }), fc.nat(), (prices, seed) => {
        const sorted = [...prices].sort((a, b) => a - b);
        const middle = sorted.length / 2;
        const expected =
          sorted.length % 2 === 1
            ? BigInt(sorted[Math.floor(middle)]!)
            : frac(BigInt(sorted[middle - 1]!) + BigInt(sorted[middle]!), 2n)
                .add(frac(1n, 2n))
                .floor();
        const rotated = prices.map((_, position) => prices[(position + seed) % prices.length]!).reverse();
        expect(BigInt(indexPriceTicks(prices)!)).toBe(expected);
        expect(indexPriceTicks(rotated)).toBe(indexPriceTicks(prices));
      }),
      { numRuns: 500 },
    );
  });

  it('stays within the honest sources whatever one wild source says (two honest sources or more)', () => {
    fc.assert(
      fc.property(fc.array(priceArbitrary, { minLength: 2, maxLength: 9 }), priceArbitrary, (honest, wild) => {
        const index = indexPriceTicks([...honest, wild])!;
        expect(index).toBeGreaterThanOrEqual(Math.min(...honest));
        expect(index).toBeLessThanOrEqual(Math.max(...honest));
      }),
      { numRuns: 500 },
    );
  });
});

interface Sample {
  indexTicks: number;
  bestBidTicks: number | null;
  bestAskTicks: number | null;
}

/** The band: the whole ticks within indexTicks x rate (rounded down, so the mark never exceeds the rate). */
const bandTicks = (indexTicks: number, rate: bigint): Fraction =>
  frac(frac(BigInt(indexTicks) * rate, RATE_SCALE).floor());

const clampFraction = (value: Fraction, band: Fraction): Fraction =>
  Fraction.min(band, Fraction.max(band.neg(), value));

/**
 * Reference mark: all samples kept in a list; the basis of a sample is its mid (a fraction) minus its
 * index, 0 without a sane two-sided book, clamped to its index's band; the mark is the latest index
 * plus the mean of the last `window` bases, to the nearest tick (a tie towards the index), clamped.
 */
function referenceMark(samples: readonly Sample[], window: number, rate: bigint): number | null {
  const last = samples.at(-1);
  if (last === undefined) return null;
  const recent = samples.slice(-window);
  let sum = frac(0n);
  for (const sample of recent) {
    const { bestBidTicks: bid, bestAskTicks: ask } = sample;
    const basis =
      bid !== null && ask !== null && bid < ask ? frac(bid + ask, 2).sub(frac(sample.indexTicks)) : frac(0n);
    sum = sum.add(clampFraction(basis, bandTicks(sample.indexTicks, rate)));
  }
  const mean = sum.div(frac(recent.length));
  const rounded = frac(mean.roundHalfTowardZero());
  return last.indexTicks + Number(clampFraction(rounded, bandTicks(last.indexTicks, rate)).num);
}

const sampleArbitrary = (indexArbitrary: fc.Arbitrary<number>): fc.Arbitrary<Sample> =>
  fc
    .record({
      indexTicks: indexArbitrary,
      bid: fc.option(fc.integer({ min: 1, max: 20_000 }), { freq: 6 }),
      ask: fc.option(fc.integer({ min: 1, max: 20_000 }), { freq: 6 }),
    })
    .map(({ indexTicks, bid, ask }) => ({ indexTicks, bestBidTicks: bid, bestAskTicks: ask }));

const rateArbitrary = fc.oneof(
  fc.constant(0n),
  fc.bigInt({ min: 1n, max: 5_000_000n }),
  fc.bigInt({ min: 1n, max: RATE_SCALE - 1n }),
);

describe('MarkPriceTracker (properties)', () => {
  it('equals the reference after every sample and never leaves the band of the latest index', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        rateArbitrary,
        fc.array(sampleArbitrary(fc.integer({ min: 1, max: 20_000 })), { maxLength: 40 }),
        (window, rate, samples) => {
          const tracker = new MarkPriceTracker({ window, maxBasisRate: rate });
          samples.forEach((sample, position) => {
            tracker.sample(sample.indexTicks, sample.bestBidTicks, sample.bestAskTicks);
            const mark = tracker.markTicks()!;
            expect(mark).toBe(referenceMark(samples.slice(0, position + 1), window, rate));
            const band = (BigInt(sample.indexTicks) * rate) / RATE_SCALE;
            expect(BigInt(Math.abs(mark - sample.indexTicks))).toBeLessThanOrEqual(band);
            expect(mark).toBeGreaterThan(0);
            expect(tracker.indexTicks()).toBe(sample.indexTicks);
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('with a full window and a steady index, one sample moves the mark by at most floor(2 x band / window) + 1 ticks', () => {
    // The bound proved: each basis is within [-band, band], so replacing one changes the exact mean by
    // at most 2 x band / window; rounding before and after adds less than one tick, and the move is whole.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        rateArbitrary,
        fc.integer({ min: 1, max: 20_000 }),
        fc.array(
          fc.tuple(fc.option(fc.integer({ min: 1, max: 40_000 })), fc.option(fc.integer({ min: 1, max: 40_000 }))),
          {
            minLength: 1,
            maxLength: 80,
          },
        ),
        fc.tuple(fc.option(fc.integer({ min: 1, max: 40_000 })), fc.option(fc.integer({ min: 1, max: 40_000 }))),
        (window, rate, indexTicks, history, [bid, ask]) => {
          const tracker = new MarkPriceTracker({ window, maxBasisRate: rate });
          for (let filled = 0; filled < window; filled += 1) {
            const [historyBid, historyAsk] = history[filled % history.length]!;
            tracker.sample(indexTicks, historyBid, historyAsk);
          }
          const before = tracker.markTicks()!;
          tracker.sample(indexTicks, bid, ask);
          const band = (BigInt(indexTicks) * rate) / RATE_SCALE;
          const bound = (2n * band) / BigInt(window) + 1n;
          expect(BigInt(Math.abs(tracker.markTicks()! - before))).toBeLessThanOrEqual(bound);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('from a full window at the index, one extreme sample moves the mark by at most ceil(band / window)', () => {
    // The mean is then basis / window with |basis| <= band; rounding to the nearest tick stays within the ceiling.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        rateArbitrary,
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 1_000_000_000 }),
        (window, rate, indexTicks, up, distance) => {
          const tracker = new MarkPriceTracker({ window, maxBasisRate: rate });
          for (let second = 0; second < window; second += 1) tracker.sample(indexTicks, null, null);
          expect(tracker.markTicks()).toBe(indexTicks);
          const bid = up ? indexTicks + distance : 1;
          const ask = up ? bid + 1 : 2;
          tracker.sample(indexTicks, bid, ask);
          const band = (BigInt(indexTicks) * rate) / RATE_SCALE;
          const bound = frac(band, BigInt(window)).ceil();
          expect(BigInt(Math.abs(tracker.markTicks()! - indexTicks))).toBeLessThanOrEqual(bound);
        },
      ),
      { numRuns: 400 },
    );
  });
});
