import { describe, expect, it } from 'vitest';
import {
  minimumTransfer,
  minimumWithdrawal,
  parseCurrency,
  parseMemo,
  parseRecipient,
  parseTransferAmount,
  parseWalletAmount,
  unitsText,
  WALLET_CURRENCIES,
  withdrawalFee,
} from './rules.ts';

describe('wallet rules (spec §5, §9)', () => {
  it('reads currency codes in any case and refuses unknown ones by name', () => {
    expect(parseCurrency('btc')).toEqual({ ok: true, value: 'BTC' });
    expect(parseCurrency(' Usdt ')).toEqual({ ok: true, value: 'USDT' });
    expect(parseCurrency('usd')).toEqual({ ok: true, value: 'USD' });
    expect(parseCurrency('xyz')).toMatchObject({
      ok: false,
      code: 'CURRENCY_NOT_SUPPORTED',
      message: 'Currency XYZ is not supported',
    });
    expect(WALLET_CURRENCIES).toContain('DOGE');
  });

  it.each([
    ['BTC', '0.000001'],
    ['ETH', '0.000001'],
    ['USDT', '1'],
    ['XRP', '0.0001'],
    ['DOT', '0.01'],
    ['SOL', '0.000001'],
  ])('the minimum %s transfer is %s', (currency, minimum) => {
    expect(minimumTransfer(currency)).toBe(minimum);
  });

  it.each([
    ['1.5', 'BTC', { ok: true, value: '1.5' }],
    [2.25, 'USDT', { ok: true, value: '2.25' }],
    ['0001.10', 'USDT', { ok: true, value: '1.1' }],
    ['0', 'BTC', { ok: false, code: 'AMOUNT_NOT_POSITIVE' }],
    ['-3', 'BTC', { ok: false, code: 'AMOUNT_NOT_POSITIVE' }],
    ['', 'BTC', { ok: false, code: 'INVALID_AMOUNT' }],
    ['1,5', 'BTC', { ok: false, code: 'INVALID_AMOUNT' }],
    [Number.NaN, 'BTC', { ok: false, code: 'INVALID_AMOUNT' }],
    ['1.001', 'USDT', { ok: false, code: 'INVALID_AMOUNT', message: 'Amount has more than 2 decimals for USDT' }],
    ['0.99', 'USDT', { ok: false, code: 'AMOUNT_BELOW_MINIMUM', message: 'Minimum transfer amount is 1 USDT' }],
  ])('amount %s %s', (input, currency, expected) => {
    expect(parseTransferAmount(input, currency)).toMatchObject(expected);
  });

  it('needs a username of at least 2 characters after trimming, and a memo of at most 140', () => {
    expect(parseRecipient('  bo ')).toEqual({ ok: true, value: 'bo' });
    expect(parseRecipient('@alice')).toEqual({ ok: true, value: 'alice' });
    expect(parseRecipient(' b ')).toMatchObject({ ok: false, code: 'USERNAME_INVALID' });
    expect(parseMemo(undefined)).toEqual({ ok: true, value: null });
    expect(parseMemo('   ')).toEqual({ ok: true, value: null });
    expect(parseMemo('x'.repeat(141))).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
  });

  // §9: the larger of the base fee and 0.1 % of the amount, at the currency's decimals, rounded up.
  it.each([
    ['BTC', '0.05', '0.0001', '0.0501'],
    ['BTC', '2', '0.002', '2.002'],
    ['BTC', '0.12345678', '0.00012346', '0.12358024'],
    ['ETH', '1', '0.002', '1.002'],
    ['USDT', '100', '1', '101'],
    ['USDT', '5000', '5', '5005'],
    ['XRP', '150', '0.15', '150.15'],
    ['SOL', '3', '0.003', '3.003'],
    ['SOL', '0.5', '0.001', '0.501'],
  ])('withdrawing %s %s costs %s, %s in all', (currency, amount, fee, total) => {
    const units = parseWalletAmount(amount, currency);
    if (!units.ok) throw new Error('amount refused');
    const result = withdrawalFee(units.value, currency);
    expect([unitsText(result.fee, currency), unitsText(result.total, currency)]).toEqual([fee, total]);
  });

  it('has the §9 minimums, 0.001 for any other currency', () => {
    expect(minimumWithdrawal('BTC')).toBe('0.01');
    expect(minimumWithdrawal('DOGE')).toBe('500');
    expect(minimumWithdrawal('SOL')).toBe('0.001');
  });
});
