import { describe, expect, it } from 'vitest';
import { formatDecimal } from './format.ts';
import { decimal } from './parse.ts';
import { magnitude, significantScale, toSignificant } from './significant.ts';

describe('magnitude', () => {
  it.each([
    ['67250', 4],
    ['1', 0],
    ['0.52', -1],
    ['0.0000000021', -9],
    ['0.00000000210000', -9],
    ['-0.005', -3],
  ])('%s -> %i', (text, expected) => {
    expect(magnitude(decimal(text))).toBe(expected);
  });

  it('has none for zero', () => {
    expect(magnitude(decimal('0.000'))).toBeNull();
  });
});

describe('toSignificant', () => {
  it.each([
    ['0.0000000021064', 4, 'half_up', '0.000000002106'],
    ['0.0000000021065', 4, 'half_up', '0.000000002107'],
    ['0.0000000021069', 4, 'down', '0.000000002106'],
    ['0.000099996', 4, 'half_up', '0.00010000'],
    ['-0.00012345', 2, 'half_up', '-0.00012'],
    ['67250.4', 3, 'half_up', '67250'],
    ['0', 4, 'half_up', '0'],
  ] as const)('%s at %i (%s) -> %s', (text, digits, rounding, expected) => {
    expect(formatDecimal(toSignificant(decimal(text), digits, rounding))).toBe(expected);
  });

  it('refuses a digit count that is not a positive integer', () => {
    expect(() => significantScale(decimal('1'), 0)).toThrow();
  });
});
