import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adlQueue } from './adl.ts';
import type { AdlCandidate, PerpSpec } from './api.ts';
import { type Fraction, frac } from './fraction.test-support.ts';

const specArbitrary: fc.Arbitrary<PerpSpec> = fc
  .integer({ min: 0, max: 8 })
  .chain((priceDecimals) =>
    fc.integer({ min: 0, max: 8 - priceDecimals }).map((quantityDecimals) => ({ priceDecimals, quantityDecimals })),
  );

/**
 * The reference score, BitMEX's formula taken literally in USD with signed values (shorts negative):
 * the bankruptcy price puts the collateral at zero (long EP - C/Q, short EP + C/Q), then
 *   PnL% = (MarkValue - EntryValue) / |EntryValue|, EffectiveLeverage = |MarkValue| / (MarkValue - BankruptValue),
 *   score = PnL% x leverage for a profit, PnL% / leverage for a loss, 0 for neither.
 * A loser whose MarkValue - BankruptValue <= 0 is past bankruptcy: an unbounded leverage, score "0 from
 * below" (after the flat ones, before every other loser), written as a score of 0 with a lower tie rank.
 */
function referenceScore(spec: PerpSpec, markTicks: number, candidate: AdlCandidate) {
  const usdPerTick = frac(1n, 10n ** BigInt(spec.priceDecimals));
  const basePerLot = frac(1n, 10n ** BigInt(spec.quantityDecimals));
  const side = candidate.position.sizeLots > 0 ? 1 : -1;
  const quantity = frac(Math.abs(candidate.position.sizeLots)).mul(basePerLot);
  const entryPrice = frac(candidate.position.costTickLots).mul(usdPerTick).mul(basePerLot).div(quantity);
  const collateral = frac(candidate.collateral, 100_000_000n);
  const bankruptPrice = side > 0 ? entryPrice.sub(collateral.div(quantity)) : entryPrice.add(collateral.div(quantity));
  const signed = (price: Fraction): Fraction => frac(side).mul(quantity).mul(price);
  const markValue = signed(frac(markTicks).mul(usdPerTick));
  const entryValue = signed(entryPrice);
  const bankruptValue = signed(bankruptPrice);
  const pnlPercent = markValue.sub(entryValue).div(entryValue.abs());
  const cushion = markValue.sub(bankruptValue);
  if (pnlPercent.sign() === 0) return { score: frac(0n), underwater: false };
  if (pnlPercent.sign() < 0 && cushion.sign() <= 0) return { score: frac(0n), underwater: true };
  const leverage = markValue.abs().div(cushion);
  return { score: pnlPercent.sign() > 0 ? pnlPercent.mul(leverage) : pnlPercent.div(leverage), underwater: false };
}

const candidateArbitrary = (side: 1 | -1) =>
  fc
    .record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
      lots: fc.integer({ min: 1, max: 2_000 }),
      entryTicks: fc.integer({ min: 90, max: 110 }),
      extraCost: fc.nat(),
      collateral: fc.oneof(fc.bigInt({ min: 0n, max: 50n }), fc.bigInt({ min: 0n, max: 10n ** 12n })),
    })
    .map(({ id, lots, entryTicks, extraCost, collateral }) => ({
      id,
      position: { sizeLots: side * lots, costTickLots: BigInt(lots * entryTicks + (extraCost % lots)) },
      collateral,
    }));

/** Distinct ids, as the server's positions have; the small id and value ranges make exact ties common. */
const queueArbitrary = fc
  .constantFrom(1 as const, -1 as const)
  .chain((side) => fc.uniqueArray(candidateArbitrary(side), { selector: (candidate) => candidate.id, maxLength: 8 }));

describe('adlQueue (properties)', () => {
  it("equals a brute-force selection sort on BitMEX's formula in exact fractions, with lights by fifths", () => {
    fc.assert(
      fc.property(specArbitrary, fc.integer({ min: 80, max: 120 }), queueArbitrary, (spec, markTicks, candidates) => {
        const scored = candidates.map((candidate) => ({
          id: candidate.id,
          ...referenceScore(spec, markTicks, candidate),
        }));
        const before = (a: (typeof scored)[number], b: (typeof scored)[number]): boolean => {
          const byScore = a.score.cmp(b.score);
          if (byScore !== 0) return byScore > 0;
          if (a.underwater !== b.underwater) return !a.underwater;
          return a.id < b.id;
        };
        const remaining = [...scored];
        const expected: string[] = [];
        while (remaining.length > 0) {
          let best = 0;
          for (let index = 1; index < remaining.length; index += 1) {
            if (before(remaining[index]!, remaining[best]!)) best = index;
          }
          expected.push(remaining.splice(best, 1)[0]!.id);
        }
        const queue = adlQueue(spec, markTicks, candidates);
        expect(queue.map((entry) => entry.id)).toEqual(expected);
        queue.forEach((entry, position) => {
          // The light r covers the positions whose place k / n is in [(5 - r) / 5, (6 - r) / 5).
          const place = frac(position, queue.length);
          expect(place.cmp(frac(5 - entry.rank, 5))).toBeGreaterThanOrEqual(0);
          expect(place.cmp(frac(6 - entry.rank, 5))).toBeLessThan(0);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order of its input', () => {
    fc.assert(
      fc.property(specArbitrary, fc.integer({ min: 80, max: 120 }), queueArbitrary, (spec, markTicks, candidates) => {
        expect(adlQueue(spec, markTicks, [...candidates].reverse())).toEqual(adlQueue(spec, markTicks, candidates));
      }),
      { numRuns: 200 },
    );
  });
});
