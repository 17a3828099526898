import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toScale } from './arithmetic.ts';
import { eq } from './compare.ts';
import { decimal as d } from './parse.ts';
import { mixedAmountArbitrary, scaleArbitrary } from './test-arbitraries.ts';
import { fromUnits, toUnits } from './units.ts';

describe('toUnits and fromUnits', () => {
  it.each([
    ['1', 8, 100_000_000n],
    ['0.00000001', 8, 1n],
    ['21000000', 8, 2_100_000_000_000_000n],
    ['1.50', 1, 15n],
    ['1.5000000000', 1, 15n],
    ['-0.25', 2, -25n],
    ['0', 18, 0n],
    ['123.456', 3, 123456n],
  ])('%s at precision %i is %s units', (value, precision, units) => {
    expect(toUnits(d(value), precision)).toEqual({ ok: true, value: units });
  });

  it.each([
    ['0.000000001', 8],
    ['1.55', 1],
    ['0.5', 0],
  ])('refuses %s at precision %i', (value, precision) => {
    expect(toUnits(d(value), precision)).toEqual({ ok: false, error: 'too_many_decimals' });
  });

  it('builds amounts from minor units', () => {
    expect(fromUnits(150n, 2)).toEqual({ units: 150n, scale: 2 });
    expect(() => fromUnits(1n, -1)).toThrow();
  });

  it('round-trips whatever fits the precision, and refuses whatever does not', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, scaleArbitrary, (value, precision) => {
        const result = toUnits(value, precision);
        const fits = eq(toScale(value, precision, 'down'), value);
        expect(result.ok).toBe(fits);
        if (result.ok) expect(eq(fromUnits(result.value, precision), value)).toBe(true);
      }),
    );
  });
});
