import { afterEach, describe, expect, it } from 'vitest';
import {
  formatCountdown,
  lightningFormProblems,
  lightningUri,
  paymentFormProblems,
  paymentPayWith,
  REMEMBERED_PAYMENTS_MAX,
  readRememberedPayments,
  rememberPayment,
  secondsLeft,
  writeRememberedPayments,
} from './payment-model.ts';

afterEach(() => localStorage.clear());

describe('payment forms (§3.5, §5)', () => {
  it('checks the amount against the order currency decimals and the description length', () => {
    expect(paymentFormProblems({ description: 'Order 1', amount: '25', currency: 'USD', payWith: '' })).toEqual({});
    expect(paymentFormProblems({ description: '', amount: '0', currency: 'USD', payWith: '' })).toEqual({
      amount: { key: 'wallet.payment.errors.amountNotPositive' },
    });
    expect(paymentFormProblems({ description: '', amount: '1.001', currency: 'USD', payWith: '' })).toEqual({
      amount: { key: 'wallet.payment.errors.tooManyDecimals', values: { decimals: '2', currency: 'USD' } },
    });
    expect(paymentFormProblems({ description: 'x'.repeat(201), amount: '1', currency: 'BTC', payWith: '' })).toEqual({
      description: { key: 'wallet.payment.errors.descriptionTooLong', values: { max: '200' } },
    });
  });

  it('reads Lightning amounts in BTC to the satoshi', () => {
    expect(lightningFormProblems({ description: '', amount: '0.00010000' })).toEqual({});
    expect(lightningFormProblems({ description: '', amount: '0.000000001' }).amount?.key).toBe(
      'wallet.payment.errors.tooManyDecimals',
    );
    expect(lightningFormProblems({ description: '', amount: '' }).amount?.key).toBe(
      'wallet.payment.errors.amountNotPositive',
    );
  });
});

describe('expiry countdown', () => {
  it('counts whole seconds down to zero', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    expect(secondsLeft('2026-01-01T00:25:00.000Z', now)).toBe(1500);
    expect(secondsLeft('2026-01-01T00:00:00.900Z', now)).toBe(0);
    expect(secondsLeft('2025-12-31T00:00:00.000Z', now)).toBe(0);
    expect(secondsLeft('not a date', now)).toBeNull();
  });

  it('shows minutes and seconds, hours when there are some', () => {
    expect(formatCountdown(1500)).toBe('25:00');
    expect(formatCountdown(59)).toBe('00:59');
    expect(formatCountdown(3600)).toBe('1:00:00');
    expect(formatCountdown(-3)).toBe('00:00');
  });
});

describe('helpers', () => {
  it('builds the lightning URI and the pay-with line', () => {
    expect(lightningUri('lntb1abc')).toBe('LIGHTNING:LNTB1ABC');
    expect(paymentPayWith({ crypto_currency: 'BTC', crypto_amount: '0.0005' })).toBe('0.0005 BTC');
    expect(paymentPayWith({ crypto_currency: 'LNBC', crypto_amount: '0.0004' })).toBe('0.0004 BTC ⚡');
    expect(paymentPayWith({ crypto_currency: 'LNBC', crypto_amount: null })).toBe('BTC ⚡');
    expect(paymentPayWith({ crypto_currency: null, crypto_amount: null })).toBeNull();
  });

  it('remembers payments per account, newest first, without duplicates, up to a limit', () => {
    let list = rememberPayment([], { kind: 'payment', id: 'p1' });
    list = rememberPayment(list, { kind: 'lightning', id: 'l1' });
    list = rememberPayment(list, { kind: 'payment', id: 'p1' });
    expect(list).toEqual([
      { kind: 'payment', id: 'p1' },
      { kind: 'lightning', id: 'l1' },
    ]);
    writeRememberedPayments('acc', list);
    expect(readRememberedPayments('acc')).toEqual(list);
    expect(readRememberedPayments('other')).toEqual([]);
    for (let index = 0; index < 30; index++) list = rememberPayment(list, { kind: 'payment', id: `x${index}` });
    expect(list).toHaveLength(REMEMBERED_PAYMENTS_MAX);
    localStorage.setItem(
      'wallet.payments.bad',
      JSON.stringify([
        { kind: 'nope', id: 1 },
        { kind: 'payment', id: 'ok' },
      ]),
    );
    expect(readRememberedPayments('bad')).toEqual([{ kind: 'payment', id: 'ok' }]);
  });
});
