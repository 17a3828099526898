import { describe, expect, it } from 'vitest';
import { amount, MAX_SCALE, pow10, unitsAtScale, zero } from './amount.ts';

describe('amount', () => {
  it('builds an amount at a valid scale', () => {
    expect(amount(150n, 2)).toEqual({ units: 150n, scale: 2 });
    expect(zero()).toEqual({ units: 0n, scale: 0 });
    expect(zero(8)).toEqual({ units: 0n, scale: 8 });
    expect(amount(1n, MAX_SCALE).scale).toBe(MAX_SCALE);
  });

  it.each([-1, 1.5, MAX_SCALE + 1, Number.NaN, Number.POSITIVE_INFINITY])('rejects scale %s as a bug', (scale) => {
    expect(() => amount(1n, scale)).toThrow(/scale/);
  });

  it('rejects a number for units as a bug', () => {
    expect(() => amount(1 as unknown as bigint, 0)).toThrow(/bigint/);
  });
});

describe('pow10', () => {
  it('answers from the table and beyond it', () => {
    expect(pow10(0)).toBe(1n);
    expect(pow10(18)).toBe(1_000_000_000_000_000_000n);
    expect(pow10(2 * MAX_SCALE + 5)).toBe(10n ** BigInt(2 * MAX_SCALE + 5));
  });

  it('rejects a negative or fractional exponent as a bug', () => {
    expect(() => pow10(-1)).toThrow();
    expect(() => pow10(0.5)).toThrow();
  });
});

describe('unitsAtScale', () => {
  it('deepens exactly and refuses to shorten', () => {
    expect(unitsAtScale({ units: 15n, scale: 1 }, 4)).toBe(15000n);
    expect(() => unitsAtScale({ units: 15n, scale: 2 }, 1)).toThrow();
  });
});
