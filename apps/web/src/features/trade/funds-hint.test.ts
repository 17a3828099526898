import { describe, expect, it } from 'vitest';
import { lacksFunds } from './funds-hint.ts';
import type { OrderSummary } from './order-form.ts';

const preview = (overrides: Partial<OrderSummary>): OrderSummary => ({
  spendCurrency: 'USD',
  available: '0',
  price: null,
  estimated: false,
  quantity: null,
  total: null,
  fee: null,
  feeRatePercent: '0.1',
  ...overrides,
});

describe('the /trade funds hint (issue 13)', () => {
  it('shows when the spend currency is empty, or less than the order needs', () => {
    expect(lacksFunds(preview({ available: '0' }), 'buy')).toBe(true);
    expect(lacksFunds(preview({ available: '100', total: '99.95', fee: '0.1' }), 'buy')).toBe(true);
    expect(lacksFunds(preview({ available: '100', total: '99.9', fee: '0.1' }), 'buy')).toBe(false);
    expect(lacksFunds(preview({ spendCurrency: 'BTC', available: '0.5', quantity: '0.6' }), 'sell')).toBe(true);
    expect(lacksFunds(preview({ spendCurrency: 'BTC', available: '0.5', quantity: '0.5' }), 'sell')).toBe(false);
  });

  it('stays hidden while the balance is unknown (signed out, not loaded)', () => {
    expect(lacksFunds(preview({ available: null }), 'buy')).toBe(false);
  });
});
