import { REFERENCE_PRICES_USD, TRADING_PAIRS } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { MISSING_VALUE } from './format.ts';
import {
  displayDecimals,
  formatCurrencyAmount,
  formatCurrencyAmountFull,
  formatMoney,
  formatQuantity,
  formatTickPrice,
  formatTickPriceFull,
} from './number-format.ts';
import { compressZeros, subscriptNumber } from './subscript-zeros.ts';

describe('compressZeros', () => {
  it.each([
    ['0.0000000002106', '0.0₉2106'],
    ['0.000000002106', '0.0₈2106'],
    ['$0.00000000210600', '$0.0₈210600'],
    ['-0.00001', '-0.0₄1'],
    ['0.0001', '0.0001'],
    ['0.00021 USD', '0.00021 USD'],
    ['0.00002450 BTC', '0.0₄2450 BTC'],
    ['10.000001', '10.000001'],
    ['1,000.000001', '1,000.000001'],
    ['0.00000000', '0.00000000'],
    ['from 0.000001 to 0.0000000001', 'from 0.0₅1 to 0.0₉1'],
    ['0.000000000000001', '0.0₁₄1'],
  ])('%s -> %s', (text, expected) => {
    expect(compressZeros(text)).toBe(expected);
  });

  it('writes any count in subscript digits', () => {
    expect(subscriptNumber(4)).toBe('₄');
    expect(subscriptNumber(17)).toBe('₁₇');
  });
});

describe('formatTickPrice: a price at the pair tick', () => {
  it.each([
    ['67234.5', 2, '67,234.50', '67,234.50'],
    ['0.00000000209874', 14, '0.0₈209874', '0.00000000209874'],
    ['0.000000002098745', 14, '0.0₈209875', '0.00000000209875'],
    ['0.0000245469', 10, '0.0₄245469', '0.0000245469'],
    ['0.000210147', 9, '0.000210147', '0.000210147'],
    ['0.5', 5, '0.50000', '0.50000'],
    ['0', 14, '0.00000000000000', '0.00000000000000'],
  ])('%s at %i -> %s', (value, precision, shown, full) => {
    expect(formatTickPrice(value, precision)).toBe(shown);
    expect(formatTickPriceFull(value, precision)).toBe(full);
  });

  it('shows a dash for a missing price', () => {
    expect(formatTickPrice(undefined, 2)).toBe(MISSING_VALUE);
    expect(formatTickPrice('abc', 2)).toBe(MISSING_VALUE);
  });
});

describe('formatQuantity', () => {
  it('keeps the lot precision below a million and shortens above it when asked', () => {
    expect(formatQuantity('0.05', 7)).toBe('0.0500000');
    expect(formatQuantity('999999', 0, { compact: true })).toBe('999,999');
    expect(formatQuantity('2380952380952', 0, { compact: true })).toBe('2.38T');
    expect(formatQuantity('190476190476', 0, { compact: true })).toBe('190.48B');
    expect(formatQuantity('2380952380952', 0)).toBe('2,380,952,380,952');
  });
});

describe('formatCurrencyAmount: totals and fees at the currency display precision', () => {
  it.each([
    ['0.069', 'USD', '0.07'],
    ['0.069000', 'USDT', '0.07'],
    ['1234.5', 'USD', '1,234.50'],
    ['1234.567891234', 'USD', '1,234.57'],
    ['0.000123456789', 'BTC', '0.00012346'],
    ['0.5000000000', 'ETH', '0.5'],
    ['100000000', 'BABYDOGE', '100,000,000'],
    // A real fee below a cent keeps two significant digits instead of reading 0.00.
    ['0.000210147', 'USD', '0.00021'],
    ['0.000000002098', 'USD', '0.0₈21'],
    ['0', 'USD', '0.00'],
    ['-12.345', 'USD', '-12.35'],
  ])('%s %s -> %s', (value, currency, expected) => {
    expect(formatCurrencyAmount(value, currency)).toBe(expected);
  });

  it('rounds in the direction asked (balances round down)', () => {
    expect(formatCurrencyAmount('0.069', 'USD', 'down')).toBe('0.06');
    expect(formatCurrencyAmountFull('0.0000000020989', 'USD', 'down')).toBe('0.000000002');
  });

  it('puts the dollar sign before dollar currencies and the code after others', () => {
    expect(formatMoney('0.069', 'USD')).toBe('$0.07');
    expect(formatMoney('-0.5', 'USDT')).toBe('-$0.50');
    expect(formatMoney('0.00123', 'BTC')).toBe('0.00123 BTC');
    expect(formatMoney(null, 'BTC')).toBe(MISSING_VALUE);
  });

  it('knows the spec amount decimals', () => {
    expect(displayDecimals('usd')).toBe(2);
    expect(displayDecimals('XRP')).toBe(6);
    expect(displayDecimals('BABYDOGE')).toBe(8);
  });
});

describe('every USD pair', () => {
  const significantDigits = (text: string) => text.replace(/[^\d]/g, '').replace(/^0+/, '').length;

  it('reads its reference price to at least four significant digits at its tick (BABYDOGE too)', () => {
    const usdPairs = TRADING_PAIRS.filter((pair) => pair.quote_currency === 'USD');
    expect(usdPairs.map((pair) => pair.base_currency)).toEqual(
      expect.arrayContaining(['BABYDOGE', 'SHIB', 'PEPE', 'FLOKI']),
    );
    for (const pair of usdPairs) {
      const reference = REFERENCE_PRICES_USD[pair.base_currency];
      if (!reference) continue;
      const shown = formatTickPriceFull(reference, pair.price_precision);
      expect({ pair: pair.id, digits: significantDigits(shown) >= 4 }).toEqual({ pair: pair.id, digits: true });
    }
  });
});
