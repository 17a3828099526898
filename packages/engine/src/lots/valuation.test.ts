import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frac } from '../perp/fraction.test-support.ts';
import type { OpenLot } from './api.ts';
import { averageCostUsd, valueOpenLots } from './valuation.ts';

const USD = 100_000_000n;

const open = (lotId: string, remainingAmount: bigint, remainingCostUsd: bigint): OpenLot => ({
  lotId,
  kind: 'buy',
  acquiredTimeMs: 0,
  sequence: 0,
  amount: remainingAmount,
  costUsd: remainingCostUsd,
  remainingAmount,
  remainingCostUsd,
});

describe('valueOpenLots', () => {
  it('values each lot at the price and gives its unrealised P&L', () => {
    // 0.5 BTC at 20,000 and 0.25 BTC at 60,000 a BTC; price 40,000.
    const lots = [open('a', 50_000_000n, 10_000n * USD), open('b', 25_000_000n, 15_000n * USD)];
    const valued = valueOpenLots(lots, 8, 40_000n * USD);
    expect(valued.lots.map((lot) => [lot.lotId, lot.valueUsd, lot.unrealisedUsd])).toEqual([
      ['a', 20_000n * USD, 10_000n * USD],
      ['b', 10_000n * USD, -5_000n * USD],
    ]);
    expect(valued).toMatchObject({
      amount: 75_000_000n,
      costUsd: 25_000n * USD,
      valueUsd: 30_000n * USD,
      unrealisedUsd: 5_000n * USD,
    });
  });

  it('rounds the value down and splits the holding value over the lots so that they add up to it', () => {
    // Three lots of 0.1 (scale 1). At 10 USD units a whole unit each is worth exactly 1 unit.
    const lots = [open('a', 1n, 0n), open('b', 1n, 0n), open('c', 1n, 0n)];
    const valued = valueOpenLots(lots, 1, 10n);
    expect(valued.lots.map((lot) => lot.valueUsd)).toEqual([1n, 1n, 1n]);
    // At 5, each is worth 0.5: cumulatively floor(0.5) = 0, floor(1.0) = 1, floor(1.5) = 1.
    const thirds = valueOpenLots(lots, 1, 5n);
    expect(thirds.lots.map((lot) => lot.valueUsd)).toEqual([0n, 1n, 0n]);
    expect(thirds.valueUsd).toBe(1n);
  });

  it('property: the lots add up to floor(amount x price / 10^scale), each within a unit of exact', () => {
    const lotArbitrary = fc.record({
      amount: fc.bigInt({ min: 1n, max: 10n ** 20n }),
      cost: fc.bigInt({ min: 0n, max: 10n ** 20n }),
    });
    fc.assert(
      fc.property(
        fc.array(lotArbitrary, { maxLength: 20 }),
        fc.integer({ min: 0, max: 18 }),
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        (entries, scale, priceUsd) => {
          const lots = entries.map((entry, index) => open(`l${index}`, entry.amount, entry.cost));
          const valued = valueOpenLots(lots, scale, priceUsd);
          const unitsPerWhole = 10n ** BigInt(scale);
          const total = lots.reduce((sum, lot) => sum + lot.remainingAmount, 0n);
          expect(valued.valueUsd).toBe(frac(total * priceUsd, unitsPerWhole).floor());
          expect(valued.lots.reduce((sum, lot) => sum + lot.valueUsd, 0n)).toBe(valued.valueUsd);
          expect(valued.lots.reduce((sum, lot) => sum + lot.unrealisedUsd, 0n)).toBe(valued.unrealisedUsd);
          valued.lots.forEach((lot, index) => {
            const exact = frac(lots[index]!.remainingAmount * priceUsd, unitsPerWhole);
            expect(frac(lot.valueUsd).sub(exact).abs().cmp(frac(1n))).toBeLessThan(0);
            expect(lot.unrealisedUsd).toBe(lot.valueUsd - lot.remainingCostUsd);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a negative price or a bad scale (a bug in the caller)', () => {
    expect(() => valueOpenLots([], 8, -1n)).toThrow(RangeError);
    expect(() => valueOpenLots([], 19, 1n)).toThrow(RangeError);
  });
});

describe('averageCostUsd', () => {
  it('is the cost per whole unit, rounded down, or null with nothing open', () => {
    // 0.3 BTC for 10,000 USD: 33,333.33333333(3) a BTC.
    expect(averageCostUsd([open('a', 30_000_000n, 10_000n * USD)], 8)).toBe(3_333_333_333_333n);
    expect(averageCostUsd([open('a', 1n, 5n), open('b', 1n, 6n)], 0)).toBe(5n);
    expect(averageCostUsd([], 8)).toBeNull();
  });
});
