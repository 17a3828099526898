import { withdrawalNetwork } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import {
  localWithdrawalFee,
  toWithdrawalRequest,
  type WithdrawFormValues,
  withdrawFormErrors,
} from './withdraw-form.ts';

const TRON = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const trx = withdrawalNetwork('USDT', 'TRX');
const eth = withdrawalNetwork('USDT', 'ETH');
const sol = withdrawalNetwork('USDT', 'SOL');

const values = (address: string, amount = '20'): WithdrawFormValues => ({
  currency: 'USDT',
  amount,
  address,
  extraId: '',
  twoFactorCode: '',
});
const context = (network: typeof trx) => ({
  supportedCurrencies: ['USDT'],
  available: new Map([['USDT', '100']]),
  minimum: () => (network && !network.is_default ? network.minimum : '50'),
  twoFactorRequired: false,
  network,
});

describe('withdrawing USDT on a network (issue 13)', () => {
  it('checks the address in the chosen network’s format, naming the network', () => {
    expect(withdrawFormErrors(values(TRON), context(trx))).toEqual([]);
    expect(withdrawFormErrors(values(ETH_ADDRESS), context(trx))).toEqual([
      {
        field: 'address',
        key: 'wallet.withdraw.errors.addressFormatNetwork',
        values: { currency: 'USDT', network: 'Tron (TRC-20)' },
      },
    ]);
    expect(withdrawFormErrors(values(ETH_ADDRESS), context(sol))[0]?.values?.network).toBe('Solana (SPL)');
    // The default network keeps §5's Ethereum format and §9's 50 USDT minimum.
    expect(withdrawFormErrors(values(TRON, '60'), context(eth))[0]?.key).toBe('wallet.withdraw.errors.addressFormat');
    expect(withdrawFormErrors(values(ETH_ADDRESS), context(eth))[0]?.key).toBe('wallet.withdraw.errors.belowMinimum');
  });

  it('uses the network’s fee when the live estimate is unavailable, and sends the network', () => {
    expect(localWithdrawalFee('USDT', '20', withdrawalNetwork('USDT', 'BSC'))).toMatchObject({
      fee: '0.3',
      total_amount: '20.3',
    });
    expect(localWithdrawalFee('USDT', '20', eth)).toMatchObject({ fee: '1' });
    expect(toWithdrawalRequest(values(TRON), false, trx)).toEqual({
      currency: 'usdt',
      amount: '20',
      address: TRON,
      network: 'TRX',
    });
  });
});
