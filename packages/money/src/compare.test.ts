import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sub } from './arithmetic.ts';
import { compare, eq, gt, gte, isNegative, isPositive, isZero, lt, lte, max, min, sign } from './compare.ts';
import { decimal as d } from './parse.ts';
import { mixedAmountArbitrary } from './test-arbitraries.ts';

describe('compare', () => {
  it.each([
    ['1', '1.000', 0],
    ['0.1', '0.10', 0],
    ['-0', '0.00', 0],
    ['0.3', '0.29999999999999999999', 1],
    ['-0.3', '-0.29999999999999999999', -1],
    ['-1', '0.00000001', -1],
    [`1${'0'.repeat(40)}`, `${'9'.repeat(40)}.999999`, 1],
  ])('%s vs %s -> %i', (a, b, expected) => {
    expect(compare(d(a), d(b))).toBe(expected);
    expect(compare(d(b), d(a))).toBe(-expected || 0);
  });

  it('derives the relations', () => {
    const [one, two] = [d('1'), d('2.0')];
    expect([lt(one, two), lte(one, two), gt(one, two), gte(one, two), eq(one, two)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([lte(one, d('1.00')), gte(one, d('1.00')), eq(one, d('1.00'))]).toEqual([true, true, true]);
  });

  it('tells the sign', () => {
    expect([sign(d('-0.1')), sign(d('0.000')), sign(d('3'))]).toEqual([-1, 0, 1]);
    expect([isZero(d('0.00')), isNegative(d('-0.01')), isPositive(d('0.01')), isNegative(d('-0'))]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('picks min and max, keeping the first on a tie', () => {
    const [a, b] = [d('1.0'), d('1.00')];
    expect(min(a, b)).toBe(a);
    expect(max(a, b)).toBe(a);
    expect(min(d('-1'), d('0.5'))).toEqual(d('-1'));
    expect(max(d('-1'), d('0.5'))).toEqual(d('0.5'));
  });

  it('is a total order: antisymmetric, transitive, total, and agrees with subtraction', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, mixedAmountArbitrary, mixedAmountArbitrary, (a, b, c) => {
        expect(compare(a, b)).toBe(-compare(b, a) || 0);
        expect(compare(a, a)).toBe(0);
        expect(lte(a, b) || lte(b, a)).toBe(true);
        if (lte(a, b) && lte(b, c)) expect(lte(a, c)).toBe(true);
        if (eq(a, b)) expect(compare(a, c)).toBe(compare(b, c));
        expect(compare(a, b)).toBe(sign(sub(a, b)));
      }),
    );
  });

  it('does not care about scale', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, fc.integer({ min: 0, max: 20 }), (a, extra) => {
        const deeper = { units: a.units * 10n ** BigInt(extra), scale: a.scale + extra };
        expect(eq(a, deeper)).toBe(true);
      }),
    );
  });
});
