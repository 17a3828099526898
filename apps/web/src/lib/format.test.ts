import { describe, expect, it } from 'vitest';
import {
  formatBalance,
  formatCompact,
  formatCompactNumber,
  formatPercent,
  formatPriceNumberFull,
  formatQuotePrice,
  formatUsdPrice,
  groupThousands,
  MISSING_VALUE,
  pairSymbol,
  percentDirection,
} from './format.ts';

describe('formatUsdPrice (spec §5)', () => {
  it.each([
    ['67234.5', '$67,234.50'],
    ['67234', '$67,234.00'],
    ['1', '$1.00'],
    ['1.5', '$1.50'],
    ['1.123456', '$1.123456'],
    ['1.1234564', '$1.123456'],
    ['1.1234565', '$1.123457'],
    ['1.120000', '$1.12'],
    ['1234567.891', '$1,234,567.891'],
    ['0.5', '$0.500000'],
    ['0.12345678', '$0.12345678'],
    ['0.123456789', '$0.12345679'],
    ['0.00001234', '$0.0₄1234'],
    ['0.000012340000', '$0.0₄1234'],
    ['0.00021015', '$0.00021015'],
    ['0', '$0.000000'],
    ['0.999999999', '$1.00'],
  ])('%s -> %s', (input, expected) => {
    expect(formatUsdPrice(input)).toBe(expected);
  });

  it('shows a dash for missing or unreadable prices', () => {
    expect(formatUsdPrice(null)).toBe(MISSING_VALUE);
    expect(formatUsdPrice(undefined)).toBe(MISSING_VALUE);
    expect(formatUsdPrice('abc')).toBe(MISSING_VALUE);
    expect(formatUsdPrice('1e5')).toBe(MISSING_VALUE);
  });

  it('quotes other currencies by their code', () => {
    expect(formatQuotePrice('0.0523', 'BTC')).toBe('0.052300 BTC');
    expect(formatQuotePrice('2.5', 'USDT')).toBe('$2.50');
    expect(formatQuotePrice(null, 'ETH')).toBe(MISSING_VALUE);
  });
});

describe('tiny prices (issue 13: BABYDOGE, SHIB, PEPE, FLOKI)', () => {
  it.each([
    // Four significant digits where 8 decimals would show fewer; subscript from 4 zeros.
    ['0.00000000209874', '$0.0₈2099', '$0.000000002099'],
    ['0.0000000021', '$0.0₈21', '$0.0000000021'],
    ['0.00000000209849', '$0.0₈2098', '$0.000000002098'],
    ['0.0000245469', '$0.0₄2455', '$0.00002455'],
    ['0.0000118314', '$0.0₄1183', '$0.00001183'],
    ['0.000210147', '$0.00021015', '$0.00021015'],
    ['0.0000000000002106', '$0.0₁₂2106', '$0.0000000000002106'],
    ['-0.00000000009874', '-$0.0₁₀9874', '-$0.00000000009874'],
    // Rounding goes half up on the last shown digit, and may carry into a shorter run of zeros.
    ['0.0000999996', '$0.000100', '$0.000100'],
  ])('%s -> %s (full %s)', (input, shown, full) => {
    expect(formatUsdPrice(input)).toBe(shown);
    const fullText = formatPriceNumberFull(input);
    expect(fullText.startsWith('-') ? `-$${fullText.slice(1)}` : `$${fullText}`).toBe(full);
  });

  it('quotes a tiny price in a coin by its code', () => {
    expect(formatQuotePrice('0.000000000031', 'BTC')).toBe('0.0₁₀31 BTC');
  });
});

describe('formatPercent (spec §5)', () => {
  it.each([
    ['1.234', '+1.23%'],
    ['1.235', '+1.24%'],
    ['0', '+0.00%'],
    ['-0.5', '-0.50%'],
    ['-0.001', '+0.00%'],
    ['12', '+12.00%'],
    ['-100', '-100.00%'],
  ])('%s -> %s', (input, expected) => {
    expect(formatPercent(input)).toBe(expected);
  });

  it.each([null, undefined, 'abc', '', 12, Number.NaN, {}])('counts non-numeric %s as zero', (input) => {
    expect(formatPercent(input)).toBe('+0.00%');
  });

  it('tells the direction after rounding', () => {
    expect(percentDirection('2.1')).toBe(1);
    expect(percentDirection('-2.1')).toBe(-1);
    expect(percentDirection('-0.001')).toBe(0);
    expect(percentDirection('x')).toBe(0);
  });
});

describe('formatBalance (spec §5)', () => {
  it('shows 2 decimals, rounded down', () => {
    expect(formatBalance('1234.567', 'USD')).toBe('1,234.56');
    expect(formatBalance('5', 'ETH')).toBe('5.00');
  });

  it('shows 8 decimals for BTC', () => {
    expect(formatBalance('0.123456789', 'BTC')).toBe('0.12345678');
    expect(formatBalance('2', 'btc')).toBe('2.00000000');
  });

  it('keeps two significant digits, rounded down, of a non-zero balance below one shown unit', () => {
    expect(formatBalance('0.0049', 'ETH')).toBe('0.0049');
    expect(formatBalance('0.004999', 'ETH')).toBe('0.0049');
    expect(formatBalance('0.000000001', 'BTC')).toBe('0.0₈1');
    expect(formatBalance('0.0000001234', 'USDT')).toBe('0.0₆12');
    expect(formatBalance('0', 'ETH')).toBe('0.00');
    expect(formatBalance('-0.001', 'ETH')).toBe('-0.001');
  });
});

describe('formatCompact', () => {
  it.each([
    ['1234567890', '$1.23B'],
    ['1235000000', '$1.24B'],
    ['456780000', '$456.78M'],
    ['12345', '$12.35K'],
    ['999.99', '$999.99'],
    ['999.996', '$1.00K'],
    ['999996000', '$1.00B'],
    ['2500000000000', '$2.50T'],
    ['0', '$0.00'],
    ['0.004', '$0.00'],
    ['-1500000', '-$1.50M'],
  ])('%s -> %s', (input, expected) => {
    expect(formatCompact(input)).toBe(expected);
  });

  it('names non-dollar currencies and keeps a dash for missing values', () => {
    expect(formatCompact('12500', 'BTC')).toBe('12.50K BTC');
    expect(formatCompactNumber(null)).toBe(MISSING_VALUE);
    expect(formatCompact(undefined)).toBe(MISSING_VALUE);
  });
});

describe('helpers', () => {
  it('groups thousands without touching the fraction', () => {
    expect(groupThousands('1234567.1234')).toBe('1,234,567.1234');
    expect(groupThousands('-1000')).toBe('-1,000');
    expect(groupThousands('999')).toBe('999');
  });

  it('turns a pair id into its symbol', () => {
    expect(pairSymbol('BTC_USD')).toBe('BTC/USD');
  });
});
