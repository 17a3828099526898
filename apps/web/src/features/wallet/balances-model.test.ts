import { describe, expect, it } from 'vitest';
import { availableByCurrency, balanceMenuItems, balanceRows, balanceTotal, isZeroBalance } from './balances-model.ts';

const zero = (currency: string) => ({ currency, available: '0', locked: '0' });

describe('wallet balances (spec §3.5, §5)', () => {
  it('totals available and locked exactly', () => {
    expect(balanceTotal({ currency: 'BTC', available: '0.1', locked: '0.2' })).toBe('0.3');
    expect(balanceTotal({ currency: 'ETH', available: '1.000000000000000001', locked: '2' })).toBe(
      '3.000000000000000001',
    );
  });

  it('counts a balance with only locked funds as non-zero', () => {
    expect(isZeroBalance(zero('BTC'))).toBe(true);
    expect(isZeroBalance({ currency: 'BTC', available: '0.00', locked: '0' })).toBe(true);
    expect(isZeroBalance({ currency: 'BTC', available: '0', locked: '0.00000001' })).toBe(false);
  });

  it('hides zero rows on request and keeps the server order', () => {
    const balances = [zero('BTC'), { currency: 'ETH', available: '1', locked: '0' }, zero('USDT')];
    expect(balanceRows(balances, { hideZero: true }).map((row) => row.currency)).toEqual(['ETH']);
    expect(balanceRows(balances, { hideZero: false }).map((row) => row.currency)).toEqual(['BTC', 'ETH', 'USDT']);
  });

  it('maps available balances by upper-case currency', () => {
    expect(availableByCurrency([{ currency: 'usdt', available: '3', locked: '1' }]).get('USDT')).toBe('3');
  });
});

describe('balances menu items (spec §2.3, §5: 2 decimals, 8 for BTC)', () => {
  it('lists only non-zero balances, formatted for display', () => {
    const items = balanceMenuItems([
      zero('ETH'),
      { currency: 'BTC', available: '0.123456789', locked: '0' },
      { currency: 'USDT', available: '1234.567', locked: '10.5' },
      { currency: 'DOGE', available: '2', locked: '0' },
    ]);
    expect(items).toEqual([
      {
        currency: 'BTC',
        total: '0.12345678',
        available: '0.12345678',
        locked: '0.00000000',
        hasLocked: false,
        exactTotal: '0.123456789',
      },
      {
        currency: 'USDT',
        total: '1,245.06',
        available: '1,234.56',
        locked: '10.50',
        hasLocked: true,
        exactTotal: '1245.067',
      },
      { currency: 'DOGE', total: '2.00', available: '2.00', locked: '0.00', hasLocked: false, exactTotal: '2' },
    ]);
  });

  it('rounds down, so a balance never shows more than there is', () => {
    expect(balanceMenuItems([{ currency: 'ETH', available: '0.999', locked: '0' }])[0]?.total).toBe('0.99');
    expect(balanceMenuItems([{ currency: 'BTC', available: '1.999999999', locked: '0' }])[0]?.total).toBe('1.99999999');
  });

  it('is empty when every balance is zero', () => {
    expect(balanceMenuItems([zero('BTC'), zero('USDT')])).toEqual([]);
  });
});
