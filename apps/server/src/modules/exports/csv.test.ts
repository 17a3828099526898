import { describe, expect, it } from 'vitest';
import { csvDecimal, csvField, csvHeader, csvOptional, csvProduct, csvRecord, csvTime } from './csv.ts';

describe('csvField', () => {
  it.each([
    ['plain text', 'BTC/USD', 'BTC/USD'],
    ['a comma is quoted', 'a,b', '"a,b"'],
    ['quotes are doubled', 'say "hi"', '"say ""hi"""'],
    ['a line break is quoted', 'line\nbreak', '"line\nbreak"'],
    ['a CRLF is quoted', 'a\r\nb', '"a\r\nb"'],
    ['the empty string stays empty', '', ''],
  ])('%s', (_name, input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it.each([
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-1+2', "'-1+2"],
    ['-A1', "'-A1"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tcmd', "'\tcmd"],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['\r=1', `"'\r=1"`],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['-', "'-"],
    ['-.5', "'-.5"],
    ['-1e5', "'-1e5"],
    ['+1.5', "'+1.5"],
  ])('neutralises a formula start: %j', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it.each(['0', '42', '-1.5', '-0.000000000000000001', '123456789012345678901234567890.5'])(
    'leaves a plain number bare so it stays a number: %s',
    (input) => {
      expect(csvField(input)).toBe(input);
    },
  );

  it('writes null as an empty field', () => {
    expect(csvOptional(null)).toBe('');
    expect(csvOptional('=x')).toBe("'=x");
  });
});

describe('csvDecimal', () => {
  it.each([
    ['1.50000000', '1.5'],
    ['100', '100'],
    ['100.000', '100'],
    ['-2.500', '-2.5'],
    ['-0.000', '0'],
    ['0.000000000000000001', '0.000000000000000001'],
  ])('%s -> %s (exact, trailing zeros dropped)', (input, expected) => {
    expect(csvDecimal(input)).toBe(expected);
  });

  it.each(['', '1e5', '=1', 'NaN', ' 1', '1.'])('refuses what is not a stored decimal: %j', (input) => {
    expect(() => csvDecimal(input)).toThrow(RangeError);
  });

  it('multiplies exactly, beyond a float', () => {
    expect(csvProduct('0.1', '0.2')).toBe('0.02');
    expect(csvProduct('12345678.123456789', '3.000000000000000001')).toBe('37037034.370370367012345678123456789');
    expect(csvProduct('50000.00', '0.0100')).toBe('500');
  });
});

describe('csvTime and records', () => {
  it('writes the second, UTC', () => {
    expect(csvTime('2026-11-26T06:22:00.123456Z')).toBe('2026-11-26T06:22:00Z');
    expect(() => csvTime('2026-11-26 06:22:00+00')).toThrow(RangeError);
  });

  it('ends records with CRLF and encodes the header', () => {
    expect(csvRecord(['a', 'b'])).toBe('a,b\r\n');
    expect(csvHeader(['Date', 'Realised P&L', 'Method/Network'])).toBe('Date,Realised P&L,Method/Network\r\n');
  });
});
