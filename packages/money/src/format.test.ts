import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eq } from './compare.ts';
import { type FormatOptions, formatDecimal } from './format.ts';
import { parseDecimal } from './parse.ts';
import { amountArbitrary, mixedAmountArbitrary } from './test-arbitraries.ts';

const table: { units: bigint; scale: number; options?: FormatOptions; expected: string }[] = [
  { units: 0n, scale: 0, expected: '0' },
  { units: 0n, scale: 2, expected: '0.00' },
  { units: 1n, scale: 8, expected: '0.00000001' },
  { units: -1n, scale: 8, expected: '-0.00000001' },
  { units: 1250n, scale: 2, expected: '12.50' },
  { units: 1250n, scale: 2, options: { trimZeros: true }, expected: '12.5' },
  { units: 1200n, scale: 2, options: { trimZeros: true }, expected: '12' },
  { units: 1000n, scale: 0, options: { trimZeros: true }, expected: '1000' },
  { units: 0n, scale: 5, options: { trimZeros: true }, expected: '0' },
  { units: -120n, scale: 1, expected: '-12.0' },
  { units: 125n, scale: 1, options: { scale: 4 }, expected: '12.5000' },
  { units: 125n, scale: 1, options: { scale: 4, trimZeros: true }, expected: '12.5' },
  { units: 129n, scale: 1, options: { scale: 0 }, expected: '12' },
  { units: 129n, scale: 1, options: { scale: 0, rounding: 'half_up' }, expected: '13' },
  { units: -129n, scale: 1, options: { scale: 0 }, expected: '-12' },
  // A negative amount that rounds to zero prints without a sign.
  { units: -4n, scale: 3, options: { scale: 2 }, expected: '0.00' },
  { units: -4n, scale: 3, options: { scale: 2, trimZeros: true }, expected: '0' },
  { units: -4n, scale: 3, options: { scale: 0, rounding: 'half_even' }, expected: '0' },
  { units: -0n, scale: 0, expected: '0' },
  { units: 10n ** 60n, scale: 0, expected: `1${'0'.repeat(60)}` },
  { units: 10n ** 60n + 1n, scale: 50, expected: `10000000000.${'0'.repeat(49)}1` },
];

describe('formatDecimal', () => {
  it.each(table)('$units at scale $scale $options -> $expected', ({ units, scale, options, expected }) => {
    expect(formatDecimal({ units, scale }, options)).toBe(expected);
  });

  it('round-trips through parseDecimal at the same scale', () => {
    fc.assert(
      fc.property(amountArbitrary, (value) => {
        const parsed = parseDecimal(formatDecimal(value), {
          allowNegative: true,
          maxIntegerDigits: 100,
        });
        expect(parsed).toEqual({ ok: true, value });
      }),
    );
  });

  it('round-trips the value with trimZeros, and never ends in a point or zero decimal', () => {
    fc.assert(
      fc.property(mixedAmountArbitrary, (value) => {
        const text = formatDecimal(value, { trimZeros: true });
        expect(text).not.toMatch(/\.$|\.[0-9]*0$|^-0$|^-?0[0-9]/);
        const parsed = parseDecimal(text, { allowNegative: true, maxIntegerDigits: 100 });
        expect(parsed.ok && eq(parsed.value, value)).toBe(true);
      }),
    );
  });
});
