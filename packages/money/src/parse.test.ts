import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SCALE } from './amount.ts';
import { formatDecimal } from './format.ts';
import { decimal, MAX_DECIMAL_TEXT_LENGTH, type ParseError, type ParseOptions, parseDecimal } from './parse.ts';
import { canonicalDecimalTextArbitrary } from './test-arbitraries.ts';

const accepted: { text: string; options?: ParseOptions; units: bigint; scale: number }[] = [
  { text: '12', units: 12n, scale: 0 },
  { text: '12.5', units: 125n, scale: 1 },
  { text: '12.50', units: 1250n, scale: 2 },
  { text: '0', units: 0n, scale: 0 },
  { text: '0.00000001', units: 1n, scale: 8 },
  { text: '007', units: 7n, scale: 0 },
  { text: '00.10', units: 10n, scale: 2 },
  { text: '-0', units: 0n, scale: 0 },
  { text: '-0.000', units: 0n, scale: 3 },
  { text: '-1', options: { allowNegative: true }, units: -1n, scale: 0 },
  { text: '-0.5', options: { allowNegative: true }, units: -5n, scale: 1 },
  { text: '99999999999999999999.999999999999999999', units: 10n ** 38n - 1n, scale: 18 },
  { text: '000000099999999999999999999', units: 10n ** 20n - 1n, scale: 0 },
  { text: '0.123456789012345678', units: 123456789012345678n, scale: 18 },
  // Trailing zeros past maxScale do not change the value, so they are dropped rather than refused.
  { text: '1.1000', options: { maxScale: 2 }, units: 110n, scale: 2 },
  { text: '0.0000000000000000010000', units: 1n, scale: 18 },
  { text: '5.000', options: { maxScale: 0 }, units: 5n, scale: 0 },
  { text: '123', options: { maxIntegerDigits: 3 }, units: 123n, scale: 0 },
];

const rejected: { text: string; options?: ParseOptions; error: ParseError }[] = [
  { text: '', error: 'empty' },
  { text: ' ', error: 'empty' },
  { text: '\t\n ', error: 'empty' },
  { text: ' 1', error: 'not_a_number' },
  { text: '1 ', error: 'not_a_number' },
  { text: '1 000', error: 'not_a_number' },
  { text: '1,5', error: 'not_a_number' },
  { text: '1e5', error: 'not_a_number' },
  { text: '1E-5', error: 'not_a_number' },
  { text: '1.2.3', error: 'not_a_number' },
  { text: '.5', error: 'not_a_number' },
  { text: '5.', error: 'not_a_number' },
  { text: '.', error: 'not_a_number' },
  { text: '-', error: 'not_a_number' },
  { text: '+5', error: 'not_a_number' },
  { text: '--1', error: 'not_a_number' },
  { text: '0x10', error: 'not_a_number' },
  { text: 'NaN', error: 'not_a_number' },
  { text: 'Infinity', error: 'not_a_number' },
  { text: 'abc', error: 'not_a_number' },
  { text: '-abc', error: 'not_a_number' },
  { text: '١٢', error: 'not_a_number' },
  { text: '１２', error: 'not_a_number' },
  { text: '-1', error: 'negative' },
  { text: '-0.00000001', error: 'negative' },
  { text: '0.1234567890123456789', error: 'too_many_decimals' },
  { text: '1.001', options: { maxScale: 2 }, error: 'too_many_decimals' },
  { text: '1.5', options: { maxScale: 0 }, error: 'too_many_decimals' },
  { text: '100000000000000000000', error: 'too_large' },
  { text: '1234', options: { maxIntegerDigits: 3 }, error: 'too_large' },
  { text: '1'.repeat(MAX_DECIMAL_TEXT_LENGTH + 1), error: 'too_large' },
  { text: `0.${'0'.repeat(MAX_DECIMAL_TEXT_LENGTH)}`, error: 'too_large' },
  // Several problems: the coarser one is reported.
  { text: '-100000000000000000000.1234567890123456789', error: 'negative' },
  { text: '100000000000000000000.1234567890123456789', error: 'too_large' },
];

describe('parseDecimal', () => {
  it.each(accepted)('accepts $text', ({ text, options, units, scale }) => {
    expect(parseDecimal(text, options)).toEqual({ ok: true, value: { units, scale } });
  });

  it.each(rejected)('rejects "$text" as $error', ({ text, options, error }) => {
    expect(parseDecimal(text, options)).toEqual({ ok: false, error });
  });

  it('rejects a bad maxScale or maxIntegerDigits as a bug', () => {
    expect(() => parseDecimal('1', { maxScale: -1 })).toThrow();
    expect(() => parseDecimal('1', { maxScale: MAX_SCALE + 1 })).toThrow();
    expect(() => parseDecimal('1', { maxIntegerDigits: 0 })).toThrow();
  });

  it('gives back canonical text unchanged after formatting', () => {
    fc.assert(
      fc.property(canonicalDecimalTextArbitrary, (text) => {
        const parsed = parseDecimal(text, { allowNegative: true });
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(formatDecimal(parsed.value)).toBe(text);
      }),
    );
  });

  it('never throws on arbitrary text, and every error is a named one', () => {
    const errors = new Set(['empty', 'not_a_number', 'negative', 'too_many_decimals', 'too_large']);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[-+.0-9eE ]{0,30}$/)), (text) => {
        const parsed = parseDecimal(text);
        if (!parsed.ok) expect(errors.has(parsed.error)).toBe(true);
        else expect(parsed.value.units >= 0n).toBe(true);
      }),
    );
  });
});

describe('decimal', () => {
  it('parses programmer literals, signed and deep', () => {
    expect(decimal('-1.5')).toEqual({ units: -15n, scale: 1 });
    expect(decimal(`0.${'0'.repeat(29)}1`)).toEqual({ units: 1n, scale: 30 });
  });

  it('throws on a bad literal', () => {
    expect(() => decimal('1e5')).toThrow(/not_a_number/);
  });
});
