import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Amount } from './amount.ts';
import {
  abs,
  add,
  applyBps,
  applyPercent,
  div,
  mul,
  mulToScale,
  negate,
  stripTrailingZeros,
  sub,
  sum,
  toScale,
} from './arithmetic.ts';
import { compare, eq, gte, lte } from './compare.ts';
import { formatDecimal } from './format.ts';
import { decimal } from './parse.ts';
import type { Rounding } from './rounding.ts';
import { mixedAmountArbitrary, nonZeroAmountArbitrary, roundingArbitrary, scaleArbitrary } from './test-arbitraries.ts';

const text = (value: Amount) => formatDecimal(value);
const d = decimal;

describe('add and sub', () => {
  it.each([
    ['0.1', '0.2', '0.3', '-0.1'],
    ['1', '0.00000001', '1.00000001', '0.99999999'],
    ['12.50', '0.5', '13.00', '12.00'],
    ['-5', '5', '0', '-10'],
    ['0', '0.000', '0.000', '0.000'],
    [
      '99999999999999999999.999999999999999999',
      '0.000000000000000001',
      '100000000000000000000.000000000000000000',
      '99999999999999999999.999999999999999998',
    ],
    [`1${'0'.repeat(40)}`, `1${'0'.repeat(40)}`, `2${'0'.repeat(40)}`, '0'],
  ])('%s + %s = %s, %s - %s = %s', (a, b, total, difference) => {
    expect(text(add(d(a), d(b)))).toBe(total);
    expect(text(sub(d(a), d(b)))).toBe(difference);
  });

  it('sums a list exactly, where floating point would drift', () => {
    const tenths = Array.from({ length: 10 }, () => d('0.1'));
    expect(text(sum(tenths))).toBe('1.0');
    expect(text(sum([]))).toBe('0');
    expect(text(sum([d('1.5'), d('-0.25'), d('0.001')]))).toBe('1.251');
  });

  it('undoes an addition with a subtraction', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, mixedAmountArbitrary, (a, b) => {
        expect(eq(sub(add(a, b), b), a)).toBe(true);
        expect(eq(add(sub(a, b), b), a)).toBe(true);
      }),
    );
  });

  it('is commutative and associative, with zero as identity', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, mixedAmountArbitrary, mixedAmountArbitrary, (a, b, c) => {
        expect(add(a, b)).toEqual(add(b, a));
        expect(add(add(a, b), c)).toEqual(add(a, add(b, c)));
        expect(eq(add(a, { units: 0n, scale: 0 }), a)).toBe(true);
        expect(eq(sub(a, a), { units: 0n, scale: 0 })).toBe(true);
      }),
    );
  });
});

describe('mul', () => {
  it.each([
    ['0.1', '0.2', '0.02'],
    ['1.5', '2', '3.0'],
    ['-1.5', '1.5', '-2.25'],
    ['0.00000001', '0.00000001', '0.0000000000000001'],
    [
      '99999999999999999999.999999999999999999',
      '99999999999999999999.999999999999999999',
      `${'9'.repeat(37)}800.${'0'.repeat(35)}1`,
    ],
  ])('%s * %s = %s exactly', (a, b, product) => {
    expect(text(mul(d(a), d(b)))).toBe(product);
  });

  it('refuses a product deeper than MAX_SCALE as a bug', () => {
    const deep = { units: 1n, scale: 40 };
    expect(() => mul(deep, deep)).toThrow(/scale/);
  });

  it('undoes a multiplication with an exact division', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, nonZeroAmountArbitrary, roundingArbitrary, (a, b, rounding) => {
        expect(div(mul(a, b), b, a.scale, rounding)).toEqual(a);
      }),
    );
  });
});

describe('div', () => {
  it.each<[string, string, number, Rounding, string]>([
    ['1', '3', 8, 'down', '0.33333333'],
    ['1', '3', 8, 'up', '0.33333334'],
    ['2', '3', 8, 'half_even', '0.66666667'],
    ['-2', '3', 8, 'half_even', '-0.66666667'],
    ['2', '-3', 8, 'down', '-0.66666666'],
    ['-2', '-3', 8, 'floor', '0.66666666'],
    ['1', '8', 2, 'half_even', '0.12'],
    ['1', '8', 2, 'half_up', '0.13'],
    ['3', '8', 2, 'half_even', '0.38'],
    ['0.3', '0.1', 0, 'down', '3'],
    ['100', '0.0001', 0, 'down', '1000000'],
    ['0.0001', '100', 2, 'up', '0.01'],
    ['0.0001', '100', 2, 'down', '0.00'],
    ['0', '7', 3, 'up', '0.000'],
  ])('%s / %s at scale %i %s = %s', (a, b, scale, rounding, quotient) => {
    expect(text(div(d(a), d(b), scale, rounding))).toBe(quotient);
  });

  it('refuses division by zero as a bug', () => {
    expect(() => div(d('1'), d('0.00'), 2, 'down')).toThrow(/division by zero/);
  });

  it('lands within one unit of the last place of the exact quotient, half a unit for half modes', () => {
    fc.assert(
      fc.property(
        mixedAmountArbitrary,
        nonZeroAmountArbitrary,
        scaleArbitrary,
        roundingArbitrary,
        (a, b, scale, rounding) => {
          const quotient = div(a, b, scale, rounding);
          // |quotient * b - a| compared with |b| * 10^-scale (or half of it), all exact.
          const error = abs(sub(mul(quotient, b), a));
          const bound = { units: abs(b).units, scale: b.scale + scale };
          if (rounding === 'half_even' || rounding === 'half_up') {
            expect(lte(add(error, error), bound)).toBe(true);
          } else {
            expect(compare(error, bound)).toBe(-1);
          }
        },
      ),
    );
  });
});

describe('toScale', () => {
  it.each<[string, number, Rounding, string]>([
    ['1.005', 2, 'half_even', '1.00'],
    ['1.015', 2, 'half_even', '1.02'],
    ['1.005', 2, 'half_up', '1.01'],
    ['-1.005', 2, 'half_up', '-1.01'],
    ['-1.005', 2, 'half_even', '-1.00'],
    ['1.0051', 2, 'half_even', '1.01'],
    ['1.999', 2, 'down', '1.99'],
    ['-1.999', 2, 'down', '-1.99'],
    ['-1.991', 2, 'floor', '-2.00'],
    ['1.991', 2, 'ceil', '2.00'],
    ['0.0000001', 6, 'up', '0.000001'],
    ['-0.004', 2, 'half_even', '0.00'],
    ['12.5', 4, 'down', '12.5000'],
  ])('%s to scale %i %s = %s', (value, scale, rounding, expected) => {
    expect(text(toScale(d(value), scale, rounding))).toBe(expected);
  });

  it('brackets the value between floor and ceil', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, scaleArbitrary, (value, scale) => {
        const floor = toScale(value, scale, 'floor');
        const ceil = toScale(value, scale, 'ceil');
        expect(lte(floor, value) && gte(ceil, value)).toBe(true);
        expect(lte(sub(ceil, floor), { units: 1n, scale })).toBe(true);
        expect(lte(abs(toScale(value, scale, 'down')), abs(value))).toBe(true);
        expect(gte(abs(toScale(value, scale, 'up')), abs(value))).toBe(true);
      }),
    );
  });
});

describe('fees and rates', () => {
  it.each<[string, string | bigint, number, Rounding, string]>([
    ['1000', 10n, 2, 'up', '1.00'],
    ['123.45', 10n, 8, 'down', '0.12345000'],
    ['0.00012345', '7.5', 8, 'up', '0.00000010'],
    ['0.00012345', '7.5', 8, 'down', '0.00000009'],
    ['0.00012345', '7.5', 10, 'half_even', '0.0000000926'],
    ['50', 10_000n, 2, 'down', '50.00'],
  ])('%s at %s bps to scale %i %s = %s', (value, bps, scale, rounding, expected) => {
    const rate = typeof bps === 'bigint' ? bps : d(bps);
    expect(text(applyBps(d(value), rate, scale, rounding))).toBe(expected);
  });

  it('applies a percentage', () => {
    expect(text(applyPercent(d('250'), 20n, 2, 'down'))).toBe('50.00');
    expect(text(applyPercent(d('0.12345678'), d('0.1'), 8, 'half_even'))).toBe('0.00012346');
  });

  it('multiplies to a scale in one step, even past MAX_SCALE in between', () => {
    const price = d(`0.${'1'.repeat(40)}`);
    const quantity = d(`0.${'3'.repeat(40)}`);
    expect(text(mulToScale(price, quantity, 8, 'half_even'))).toBe('0.03703704');
    expect(text(mulToScale(d('27123.45'), d('0.015'), 2, 'half_up'))).toBe('406.85');
  });

  it('agrees with mul followed by toScale', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, mixedAmountArbitrary, scaleArbitrary, roundingArbitrary, (a, b, s, r) => {
        expect(mulToScale(a, b, s, r)).toEqual(toScale(mul(a, b), s, r));
        expect(applyBps(a, b, s, r)).toEqual(toScale(mul(a, { units: b.units, scale: b.scale + 4 }), s, r));
      }),
    );
  });
});

describe('sign helpers', () => {
  it('negates and takes absolute values', () => {
    expect(text(negate(d('1.50')))).toBe('-1.50');
    expect(text(negate(d('0')))).toBe('0');
    expect(text(abs(d('-0.01')))).toBe('0.01');
    expect(text(abs(d('0.01')))).toBe('0.01');
  });

  it.each([
    ['1.500', '1.5'],
    ['2.00', '2'],
    ['0.000', '0'],
    ['-10.10', '-10.1'],
    ['100', '100'],
  ])('strips trailing zeros from %s -> %s', (value, expected) => {
    expect(text(stripTrailingZeros(d(value)))).toBe(expected);
  });
});
