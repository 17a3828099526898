import { describe, expect, it } from 'vitest';
import {
  filledPercent,
  formatExact,
  formatFee,
  formatOrderPrice,
  formatOrderTotal,
  openOrderTotal,
} from './order-format.ts';
import { makeOrder, makePair } from './orders-test-fixtures.ts';

describe('order figures', () => {
  it("shows prices at the pair's precision, else in the quote's general format", () => {
    expect(formatOrderPrice('67234.5', 'BTC_USD', makePair({ price_precision: 2 }))).toBe('67,234.50');
    expect(formatOrderPrice('0.00001234', 'SHIB_USD', undefined)).toBe('0.0₄1234');
    expect(formatOrderPrice('0.00000000209874', 'BABYDOGE_USD', makePair({ price_precision: 14 }))).toBe('0.0₈209874');
    expect(formatOrderPrice('1234.5', 'ETH_BTC', undefined)).toBe('1,234.50 BTC');
    expect(formatOrderPrice(null, 'BTC_USD', undefined)).toBe('—');
  });

  it('shows amounts exactly, trailing zeros dropped', () => {
    expect(formatExact('0.01000000')).toBe('0.01');
    expect(formatExact('1250.000000000000000001')).toBe('1,250.000000000000000001');
  });

  it('rounds the filled percentage down so an order never reads 100% early', () => {
    expect(filledPercent({ quantity: '3', filled_quantity: '1' })).toBe('33.33');
    expect(filledPercent({ quantity: '1', filled_quantity: '0.99999' })).toBe('99.99');
    expect(filledPercent({ quantity: '0.01', filled_quantity: '0.005' })).toBe('50');
    expect(filledPercent({ quantity: null, filled_quantity: '0.005' })).toBeNull();
  });

  it('values an open order at price x amount', () => {
    const pair = makePair({ price_precision: 2 });
    expect(openOrderTotal(makeOrder({ price: '60000.10', quantity: '0.015' }), pair)).toBe('900.00');
    expect(openOrderTotal(makeOrder({ price: null, quantity: '0.015', total: '12.5' }), pair)).toBe('12.50');
  });

  it('shows totals and fees at the quote currency display precision, never 9 to 12 decimals', () => {
    const pair = makePair({ price_precision: 14, quote_currency: 'USD' });
    expect(formatOrderTotal('0.210147000000', 'BABYDOGE_USD', pair)).toBe('0.21');
    expect(formatOrderTotal('1234.567891234', 'BTC_USD', undefined)).toBe('1,234.57');
    expect(formatOrderTotal('0.044612345678', 'ETH_BTC', undefined)).toBe('0.04461235');
    expect(formatFee('0.000210147', 'USD')).toBe('0.00021 USD');
    expect(formatFee('0.069000', 'USDT')).toBe('0.07 USDT');
    expect(formatFee(null, 'USD')).toBe('—');
  });
});
