import { describe, expect, it } from 'vitest';
import {
  checkoutAmountProblem,
  confirmationProgress,
  confirmationsNeeded,
  depositNetworks,
  localDepositEstimate,
  networkName,
  newlyCompletedDeposits,
} from './deposit-model.ts';

describe('deposit networks', () => {
  it('offers every network of a stablecoin and the own chain of a native coin', () => {
    expect(depositNetworks('usdt')).toEqual(['TRX', 'ETH', 'BSC', 'SOL', 'XTZ', 'EOS']);
    expect(depositNetworks('BTC')).toEqual(['BTC']);
    expect(depositNetworks('LINK')).toEqual(['ETH']);
    expect(depositNetworks('NOPE')).toEqual(['NOPE']);
  });

  it('names networks and knows their confirmations', () => {
    expect(networkName('trx')).toBe('Tron (TRC20)');
    expect(networkName('ZZZ')).toBe('ZZZ');
    expect(confirmationsNeeded('BTC')).toBe(2);
    expect(confirmationsNeeded('XRP')).toBe(1);
    expect(confirmationsNeeded('unknown')).toBe(12);
  });
});

describe('checkout amount (§5, §9)', () => {
  it('needs a positive amount with the currency decimals', () => {
    expect(checkoutAmountProblem('BTC', '0.5')).toBeNull();
    expect(checkoutAmountProblem('BTC', ' 0,5 ')).toBeNull();
    expect(checkoutAmountProblem('BTC', '')).toEqual({ key: 'wallet.deposit.errors.amountNotPositive' });
    expect(checkoutAmountProblem('BTC', '0')).toEqual({ key: 'wallet.deposit.errors.amountNotPositive' });
    expect(checkoutAmountProblem('BTC', 'x')).toEqual({ key: 'errors.invalidAmount' });
    expect(checkoutAmountProblem('usdt', '1.234')).toEqual({
      key: 'wallet.deposit.errors.tooManyDecimals',
      values: { decimals: '2', currency: 'USDT' },
    });
  });
});

describe('estimate and progress', () => {
  it('falls back to a free deposit (§7.8, §9)', () => {
    expect(localDepositEstimate('btc', '0.5')).toEqual({
      currency: 'BTC',
      amount: '0.5',
      estimated_amount: '0.5',
      fee: '0',
      total: '0.5',
      source: 'local',
    });
  });

  it('reads confirmations of a pending address deposit', () => {
    expect(confirmationProgress(1, 2)).toEqual({ confirmations: 1, required: 2 });
    expect(confirmationProgress(5, 2)).toEqual({ confirmations: 2, required: 2 });
    expect(confirmationProgress(null, 2)).toBeNull();
    expect(confirmationProgress(0, null)).toBeNull();
  });

  it('tells which deposits were just credited', () => {
    const before = new Map([
      ['a', 'pending' as const],
      ['b', 'completed' as const],
      ['c', 'pending' as const],
    ]);
    expect(
      newlyCompletedDeposits(before, [
        { id: 'a', status: 'completed' },
        { id: 'b', status: 'completed' },
        { id: 'c', status: 'failed' },
        { id: 'd', status: 'completed' },
      ]),
    ).toEqual(['a']);
  });
});
