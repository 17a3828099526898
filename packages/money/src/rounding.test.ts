import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRounded, type Rounding, rescaleUnits } from './rounding.ts';

// The reference table of java.math.RoundingMode, in tenths: each input divided by 10.
const table: { tenths: bigint; expected: Record<Rounding, bigint> }[] = [
  { tenths: 55n, expected: { up: 6n, down: 5n, ceil: 6n, floor: 5n, half_up: 6n, half_even: 6n } },
  { tenths: 25n, expected: { up: 3n, down: 2n, ceil: 3n, floor: 2n, half_up: 3n, half_even: 2n } },
  { tenths: 16n, expected: { up: 2n, down: 1n, ceil: 2n, floor: 1n, half_up: 2n, half_even: 2n } },
  { tenths: 11n, expected: { up: 2n, down: 1n, ceil: 2n, floor: 1n, half_up: 1n, half_even: 1n } },
  { tenths: 10n, expected: { up: 1n, down: 1n, ceil: 1n, floor: 1n, half_up: 1n, half_even: 1n } },
  { tenths: 0n, expected: { up: 0n, down: 0n, ceil: 0n, floor: 0n, half_up: 0n, half_even: 0n } },
  { tenths: -10n, expected: { up: -1n, down: -1n, ceil: -1n, floor: -1n, half_up: -1n, half_even: -1n } },
  { tenths: -11n, expected: { up: -2n, down: -1n, ceil: -1n, floor: -2n, half_up: -1n, half_even: -1n } },
  { tenths: -16n, expected: { up: -2n, down: -1n, ceil: -1n, floor: -2n, half_up: -2n, half_even: -2n } },
  { tenths: -25n, expected: { up: -3n, down: -2n, ceil: -2n, floor: -3n, half_up: -3n, half_even: -2n } },
  { tenths: -55n, expected: { up: -6n, down: -5n, ceil: -5n, floor: -6n, half_up: -6n, half_even: -6n } },
];

const roundingArbitrary = fc.constantFrom<Rounding>('down', 'up', 'floor', 'ceil', 'half_even', 'half_up');

describe('divideRounded', () => {
  for (const { tenths, expected } of table) {
    for (const [rounding, result] of Object.entries(expected) as [Rounding, bigint][]) {
      it(`${tenths}/10 ${rounding} -> ${result}`, () => {
        expect(divideRounded(tenths, 10n, rounding)).toBe(result);
      });
    }
  }

  it('rounds ties of 0.5 to even in both directions', () => {
    expect([5n, 15n, 25n, 35n, -5n, -15n].map((n) => divideRounded(n, 10n, 'half_even'))).toEqual([
      0n,
      2n,
      2n,
      4n,
      0n,
      -2n,
    ]);
  });

  it('rejects a zero or negative denominator as a bug', () => {
    expect(() => divideRounded(1n, 0n, 'down')).toThrow(/denominator/);
    expect(() => divideRounded(1n, -1n, 'down')).toThrow(/denominator/);
  });

  it('rejects an unknown rounding as a bug', () => {
    expect(() => divideRounded(1n, 3n, 'sideways' as Rounding)).toThrow(/unreachable/);
  });

  it('brackets the exact quotient as each mode promises', () => {
    fc.assert(
      fc.property(fc.bigInt(), fc.bigInt({ min: 1n, max: 10n ** 30n }), roundingArbitrary, (n, d, rounding) => {
        const r = divideRounded(n, d, rounding);
        const floor = n >= 0n || n % d === 0n ? n / d : n / d - 1n;
        const ceil = n % d === 0n ? n / d : floor + 1n;
        expect(r === floor || r === ceil).toBe(true);
        const distance = n - r * d;
        const absoluteDistance = distance < 0n ? -distance : distance;
        switch (rounding) {
          case 'floor':
            expect(r).toBe(floor);
            break;
          case 'ceil':
            expect(r).toBe(ceil);
            break;
          case 'down':
            expect(r).toBe(n >= 0n ? floor : ceil);
            break;
          case 'up':
            expect(r).toBe(n >= 0n ? ceil : floor);
            break;
          default:
            expect(absoluteDistance * 2n <= d).toBe(true);
        }
      }),
    );
  });
});

describe('rescaleUnits', () => {
  it('deepens exactly and shortens with rounding', () => {
    expect(rescaleUnits(125n, 2, 4, 'down')).toBe(12500n);
    expect(rescaleUnits(125n, 2, 1, 'half_even')).toBe(12n);
    expect(rescaleUnits(135n, 2, 1, 'half_even')).toBe(14n);
    expect(rescaleUnits(125n, 2, 1, 'half_up')).toBe(13n);
    expect(rescaleUnits(125n, 2, 2, 'up')).toBe(125n);
  });
});
