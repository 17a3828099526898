import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PerpSpec, RATE_SCALE } from './api.ts';
import { Fraction, frac } from './fraction.test-support.ts';
import {
  FUNDING_INTEREST_CLAMP_RATE,
  fundingPayments,
  fundingRate,
  fundingRoundsDue,
  impactPriceTicks,
  MAX_LISTED_SKIPPED_ROUNDS,
  nextFundingTime,
  PremiumAverage,
  premiumRate,
} from './funding.ts';

const specArbitrary: fc.Arbitrary<PerpSpec> = fc
  .integer({ min: 0, max: 8 })
  .chain((priceDecimals) =>
    fc.integer({ min: 0, max: 8 - priceDecimals }).map((quantityDecimals) => ({ priceDecimals, quantityDecimals })),
  );

/** Dollars per tick and base units per lot, as fractions: the reference works in USD, not in money units. */
const usdPerTick = (spec: PerpSpec): Fraction => frac(1n, 10n ** BigInt(spec.priceDecimals));
const basePerLot = (spec: PerpSpec): Fraction => frac(1n, 10n ** BigInt(spec.quantityDecimals));
const MONEY_PER_USD = frac(100_000_000n);

const rateArbitrary = fc.oneof(
  fc.bigInt({ min: -10n, max: 10n }),
  fc.bigInt({ min: -3_000_000n, max: 3_000_000n }),
  fc.bigInt({ min: -RATE_SCALE, max: RATE_SCALE }),
);

describe('fundingPayments (properties)', () => {
  const populationArbitrary = fc
    .array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 25 })
    .map((sizes) => {
      const sum = sizes.reduce((total, size) => total + size, 0);
      return sum === 0 ? sizes : [...sizes, -sum];
    });

  it('charges each payer the ceiling and credits each receiver the floor of the exact amount, and the round sums to zero', () => {
    fc.assert(
      fc.property(
        specArbitrary,
        fc.integer({ min: 1, max: 10_000_000 }),
        rateArbitrary,
        populationArbitrary,
        (spec, markTicks, rate, sizes) => {
          const positions = sizes.map((sizeLots, index) => ({
            id: `p${index}`,
            position: { sizeLots, costTickLots: BigInt(Math.abs(sizeLots)) * 7n },
          }));
          const { payments, residual } = fundingPayments(spec, markTicks, rate, positions);
          expect(payments.map((payment) => payment.id)).toEqual(positions.map((entry) => entry.id));
          const markUsd = frac(markTicks).mul(usdPerTick(spec));
          let exactResidual = frac(0n);
          let fractionalCount = 0n;
          payments.forEach((payment, index) => {
            const owedUsd = frac(sizes[index]!).mul(basePerLot(spec)).mul(markUsd).mul(frac(rate, RATE_SCALE));
            const owed = owedUsd.mul(MONEY_PER_USD);
            const expected = owed.sign() >= 0 ? owed.ceil() : -owed.abs().floor();
            expect(payment.amount).toBe(expected);
            exactResidual = exactResidual.add(frac(payment.amount).sub(owed));
            if (!owed.isInteger()) fractionalCount += 1n;
          });
          const walletMoves = payments.reduce((total, payment) => total - payment.amount, 0n);
          expect(walletMoves + residual).toBe(0n);
          expect(exactResidual.cmp(frac(residual))).toBe(0);
          expect(residual).toBeGreaterThanOrEqual(0n);
          // Each position adds ceil(v) - v, in [0, 1) and 0 when v is whole: under one unit per fractional v.
          if (fractionalCount === 0n) expect(residual).toBe(0n);
          else expect(residual < fractionalCount).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses any population whose sizes do not sum to zero', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1_000, max: 1_000 }), { minLength: 1, maxLength: 10 }).filter((sizes) => {
          return sizes.reduce((total, size) => total + size, 0) !== 0;
        }),
        (sizes) => {
          const positions = sizes.map((sizeLots, index) => ({
            id: `p${index}`,
            position: { sizeLots, costTickLots: 0n },
          }));
          expect(() => fundingPayments({ priceDecimals: 2, quantityDecimals: 3 }, 100, 1n, positions)).toThrow(
            RangeError,
          );
        },
      ),
    );
  });
});

interface Level {
  priceTicks: number;
  lots: number;
}

const bookSideArbitrary = fc
  .record({
    start: fc.integer({ min: 1_000, max: 1_000_000 }),
    ascending: fc.boolean(),
    levels: fc.array(fc.record({ step: fc.integer({ min: 1, max: 50 }), lots: fc.integer({ min: 1, max: 5_000 }) }), {
      minLength: 1,
      maxLength: 12,
    }),
  })
  .map(({ start, ascending, levels }) => {
    let price = start;
    const side: Level[] = levels.map(({ step, lots }, index) => {
      if (index > 0) price += ascending ? step : -step;
      return { priceTicks: price, lots };
    });
    return { ascending, side };
  });

/** Reference impact price: spends the notional in USD level by level, counting the base bought, as fractions. */
function referenceImpact(spec: PerpSpec, side: readonly Level[], ascending: boolean, notional: Fraction) {
  let remaining = notional;
  let base = frac(0n);
  let lastPrice = 0;
  for (const level of side) {
    if (remaining.sign() === 0) break;
    const priceUsd = frac(level.priceTicks).mul(usdPerTick(spec));
    const levelUsd = priceUsd.mul(frac(level.lots).mul(basePerLot(spec)));
    const spent = Fraction.min(remaining, levelUsd);
    base = base.add(spent.div(priceUsd));
    remaining = remaining.sub(spent);
    lastPrice = level.priceTicks;
  }
  if (remaining.sign() > 0) return null;
  const averageTicks = notional.div(base).div(usdPerTick(spec));
  return { ticks: ascending ? averageTicks.ceil() : averageTicks.floor(), lastPrice };
}

describe('impactPriceTicks (properties)', () => {
  it('equals the average fill price of the reference walk, rounded against the taker, or null when thin', () => {
    fc.assert(
      fc.property(specArbitrary, bookSideArbitrary, fc.bigInt({ min: 1n, max: 10n ** 14n }), (spec, book, notional) => {
        const notionalUsd = frac(notional).div(MONEY_PER_USD);
        const expected = referenceImpact(spec, book.side, book.ascending, notionalUsd);
        const actual = impactPriceTicks(spec, book.side, notional);
        if (expected === null) {
          expect(actual).toBeNull();
          return;
        }
        expect(BigInt(actual!)).toBe(expected.ticks);
        const first = book.side[0]!.priceTicks;
        expect(actual!).toBeGreaterThanOrEqual(Math.min(first, expected.lastPrice));
        expect(actual!).toBeLessThanOrEqual(Math.max(first, expected.lastPrice));
      }),
      { numRuns: 400 },
    );
  });
});

describe('premium and funding rate (properties)', () => {
  const ticks = fc.integer({ min: 1, max: 10_000_000 });

  it('premiumRate is the exact premium to the nearest 10^-8, halves away from zero', () => {
    fc.assert(
      fc.property(ticks, fc.option(ticks), fc.option(ticks), (index, bid, ask) => {
        const actual = premiumRate(index, bid, ask);
        if (bid === null || ask === null) {
          expect(actual).toBe(0n);
          return;
        }
        const above = Fraction.max(frac(0n), frac(bid - index));
        const below = Fraction.max(frac(0n), frac(index - ask));
        expect(actual).toBe(above.sub(below).div(frac(index)).mul(frac(RATE_SCALE)).roundHalfAwayFromZero());
      }),
      { numRuns: 500 },
    );
  });

  it('PremiumAverage is Σ i·P_i / Σ i rounded half away from zero, between the smallest and largest premium', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -RATE_SCALE, max: RATE_SCALE }), { minLength: 1, maxLength: 200 }),
        (premiums) => {
          const average = new PremiumAverage();
          let weighted = frac(0n);
          let weights = frac(0n);
          premiums.forEach((premium, index) => {
            average.add(premium);
            weighted = weighted.add(frac(BigInt(index + 1) * premium));
            weights = weights.add(frac(index + 1));
          });
          const result = average.average();
          expect(result).toBe(weighted.div(weights).roundHalfAwayFromZero());
          expect(average.count()).toBe(premiums.length);
          expect(premiums.some((premium) => premium <= result)).toBe(true);
          expect(premiums.some((premium) => premium >= result)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fundingRate stays within the cap, is the interest rate near it, and never falls as the premium rises', () => {
    const rate = fc.bigInt({ min: -2_000_000n, max: 2_000_000n });
    fc.assert(
      fc.property(rate, rate, rate, fc.bigInt({ min: 0n, max: 3_000_000n }), (premium, other, interest, cap) => {
        const funding = fundingRate(premium, interest, cap);
        expect(funding <= cap && funding >= -cap).toBe(true);
        const gap = interest - premium;
        const interestWithinCap = interest <= cap && interest >= -cap;
        if (gap <= FUNDING_INTEREST_CLAMP_RATE && gap >= -FUNDING_INTEREST_CLAMP_RATE && interestWithinCap) {
          expect(funding).toBe(interest);
        }
        const uncapped = fundingRate(premium, interest, RATE_SCALE * 100n);
        expect(uncapped - premium <= FUNDING_INTEREST_CLAMP_RATE).toBe(true);
        expect(uncapped - premium >= -FUNDING_INTEREST_CLAMP_RATE).toBe(true);
        const [low, high] = premium <= other ? [premium, other] : [other, premium];
        expect(fundingRate(low, interest, cap) <= fundingRate(high, interest, cap)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('funding schedule (properties)', () => {
  const time = fc.integer({ min: 0, max: 4_000_000_000_000 });
  const interval = fc.oneof(
    fc.constantFrom(3_600_000, 14_400_000, 28_800_000),
    fc.integer({ min: 1, max: 100_000_000 }),
  );

  it('nextFundingTime is the first multiple of the interval strictly after now', () => {
    fc.assert(
      fc.property(time, interval, (now, intervalMs) => {
        const next = nextFundingTime(now, intervalMs);
        expect(next % intervalMs).toBe(0);
        expect(next).toBeGreaterThan(now);
        expect(next - intervalMs).toBeLessThanOrEqual(now);
      }),
      { numRuns: 500 },
    );
  });

  it('fundingRoundsDue pays the latest multiple in (last, now] and skips exactly the earlier ones', () => {
    fc.assert(
      fc.property(time, fc.integer({ min: 0, max: 300 }), fc.nat(), interval, (last, rounds, extra, intervalMs) => {
        const now = last + rounds * intervalMs + (extra % intervalMs);
        const due = fundingRoundsDue(last, now, intervalMs);
        const multiples: number[] = [];
        for (let at = nextFundingTime(last, intervalMs); at <= now; at += intervalMs) multiples.push(at);
        expect(due.payMs).toBe(multiples.at(-1) ?? null);
        expect(due.skippedCount).toBe(Math.max(0, multiples.length - 1));
        expect(due.skippedMs).toEqual(multiples.slice(0, -1).slice(0, MAX_LISTED_SKIPPED_ROUNDS));
      }),
      { numRuns: 300 },
    );
  });
});
