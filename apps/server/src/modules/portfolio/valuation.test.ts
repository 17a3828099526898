import { type Amount, decimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { distanceToLiquidation, shares, text, usdPriceLookup, valueHolding } from './valuation.ts';

const texts = (values: Amount[]) => values.map(text);

describe('shares', () => {
  it.each([
    [
      ['1', '1', '1'],
      ['33.34', '33.33', '33.33'],
    ],
    [
      ['2', '1', '1'],
      ['50', '25', '25'],
    ],
    // 1/7 = 14.2857..%: six shares of 14.28 leave 0.04 (+ 14.28) to the largest (the 4).
    [
      ['1', '1', '1', '4'],
      ['14.28', '14.28', '14.28', '57.16'],
    ],
    [
      ['0.00000001', '99999.99999999'],
      ['0', '100'],
    ],
    [['5'], ['100']],
    [
      ['0', '0'],
      ['0', '0'],
    ],
    [[], []],
  ])('%j -> %j (sum 100, remainder on the largest)', (values, expected) => {
    expect(texts(shares(values.map(decimal)))).toEqual(expected);
  });

  it('gives zeros when the sum is not positive, and sums to 100 with a negative part', () => {
    expect(texts(shares([decimal('-5'), decimal('5')]))).toEqual(['0', '0']);
    const mixed = shares([decimal('150'), decimal('-50')]);
    expect(texts(mixed)).toEqual(['150', '-50']);
  });
});

describe('USD prices', () => {
  const quotes: Record<string, { price: string; open24h: string }> = {
    BTC_USD: { price: '50000.00', open24h: '48000.00' },
    ETH_USD: { price: '0', open24h: '0' },
  };
  const prices = usdPriceLookup((pairId) => quotes[pairId]);

  it('reads USD as 1, a reference price with its open, else the catalogue price, else none', () => {
    expect(prices('USD')).toMatchObject({ source: 'unit', price: decimal('1') });
    expect(prices('BTC')).toMatchObject({
      source: 'reference',
      price: decimal('50000.00'),
      open24h: decimal('48000.00'),
    });
    // A zero reference is no price: the catalogue's static one stands in, with no 24 h move.
    expect(prices('ETH')).toMatchObject({
      source: 'catalogue',
      price: decimal('3450.00'),
      open24h: decimal('3450.00'),
    });
    expect(prices('USDT')).toMatchObject({ source: 'catalogue', price: decimal('1.0000') });
    expect(prices('NOPE')).toBeUndefined();
  });

  it('values a holding exactly and leaves an unpriced one out', () => {
    const btc = valueHolding({ currency: 'BTC', available: '0.06', locked: '0.04' }, prices);
    expect(btc.row).toMatchObject({ amount: '0.1', value: '5000', price_24h_ago: '48000', change_24h_percent: '4.17' });
    expect(text(btc.lockedValue)).toBe('2000');
    expect(text(btc.value24hAgo!)).toBe('4800');
    const dust = valueHolding({ currency: 'BTC', available: '0.000000000000000001', locked: '0' }, prices);
    expect(dust.row.value).toBe('0.00000000000005');
    const none = valueHolding({ currency: 'NOPE', available: '1', locked: '0' }, prices);
    expect(none.row).toMatchObject({ price: null, value: null, price_source: null, change_24h_percent: null });
  });
});

describe('distance to liquidation', () => {
  it('is measured against the position, floored, negative once past, null without a price', () => {
    expect(text(distanceToLiquidation('long', '50000', '45000')!)).toBe('10');
    expect(text(distanceToLiquidation('short', '30000', '31000')!)).toBe('3.33');
    expect(text(distanceToLiquidation('long', '30000', '29000')!)).toBe('3.33');
    expect(text(distanceToLiquidation('long', '30000', '30001')!)).toBe('-0.01');
    expect(distanceToLiquidation('long', '30000', null)).toBeNull();
  });
});
