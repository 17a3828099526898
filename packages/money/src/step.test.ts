import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Amount } from './amount.ts';
import { add, sub } from './arithmetic.ts';
import { gt, gte, lt, lte } from './compare.ts';
import { formatDecimal } from './format.ts';
import { decimal as d } from './parse.ts';
import { ceilToStep, floorToStep, isMultipleOf, roundToStep } from './step.ts';
import { mixedAmountArbitrary, positiveAmountArbitrary } from './test-arbitraries.ts';

const text = (value: Amount) => formatDecimal(value);

describe('step helpers', () => {
  it.each([
    // value, step, multiple?, floor, ceil
    ['1.23', '0.01', true, '1.23', '1.23'],
    ['1.234', '0.01', false, '1.230', '1.240'],
    ['1.2', '0.001', true, '1.200', '1.200'],
    ['7.3', '0.5', false, '7.0', '7.5'],
    ['7.5', '0.5', true, '7.5', '7.5'],
    ['100.26', '0.25', false, '100.25', '100.50'],
    ['0.00000001', '0.00001', false, '0.00000000', '0.00001000'],
    ['0', '0.1', true, '0.0', '0.0'],
    ['-1.234', '0.01', false, '-1.240', '-1.230'],
    ['123', '10', false, '120', '130'],
    ['0.3', '0.1', true, '0.3', '0.3'],
  ])('%s with step %s: multiple %s, floor %s, ceil %s', (value, step, multiple, floor, ceil) => {
    expect(isMultipleOf(d(value), d(step))).toBe(multiple);
    expect(text(floorToStep(d(value), d(step)))).toBe(floor);
    expect(text(ceilToStep(d(value), d(step)))).toBe(ceil);
  });

  it('rounds to the nearest step', () => {
    expect(text(roundToStep(d('7.25'), d('0.5'), 'half_even'))).toBe('7.00');
    expect(text(roundToStep(d('7.25'), d('0.5'), 'half_up'))).toBe('7.50');
    expect(text(roundToStep(d('7.75'), d('0.5'), 'half_even'))).toBe('8.00');
  });

  it('refuses a zero or negative step as a bug', () => {
    expect(() => floorToStep(d('1'), d('0'))).toThrow(/step/);
    expect(() => isMultipleOf(d('1'), d('-0.1'))).toThrow(/step/);
  });

  it('brackets the value by multiples of the step', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, positiveAmountArbitrary, (value, step) => {
        const floor = floorToStep(value, step);
        const ceil = ceilToStep(value, step);
        expect(isMultipleOf(floor, step) && isMultipleOf(ceil, step)).toBe(true);
        expect(lte(floor, value) && gt(add(floor, step), value)).toBe(true);
        expect(gte(ceil, value) && lt(sub(ceil, step), value)).toBe(true);
        expect(isMultipleOf(value, step)).toBe(lte(ceil, floor));
      }),
    );
  });
});
