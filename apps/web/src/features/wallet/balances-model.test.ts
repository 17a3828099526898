import type { TradingPair } from '@platform/contracts';
import { decimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import {
  availableByCurrency,
  balanceMenuItems,
  balanceRows,
  balanceTotal,
  isSmallBalance,
  isZeroBalance,
  usdPrices,
} from './balances-model.ts';

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

describe('hide small balances (Settings > Preferences)', () => {
  const pair = (base: string, quote: string, price: string | null, active = true): TradingPair =>
    ({
      id: `${base}_${quote}`,
      base_currency: base,
      quote_currency: quote,
      current_price: price,
      is_active: active,
    }) as TradingPair;
  const pairs = [
    pair('BTC', 'USD', '50000.00'),
    pair('ETH', 'USDT', '3000.00'),
    pair('ETH', 'USD', '2500.00'),
    pair('DOGE', 'BTC', '0.000002'),
    pair('SOL', 'USD', '150.00', false),
  ];
  const rule = { usdPrices: usdPrices(pairs), thresholdUsd: decimal('1') };
  const balance = (currency: string, available: string, locked = '0') => ({ currency, available, locked });

  it('values currencies in dollars: a USD pair first, else a stablecoin pair; stablecoins at one dollar', () => {
    const prices = usdPrices(pairs);
    expect(prices.get('BTC')).toEqual(decimal('50000.00'));
    expect(prices.get('ETH')).toEqual(decimal('2500.00'));
    expect(prices.get('USDT')).toEqual(decimal('1'));
    expect(prices.get('USD')).toEqual(decimal('1'));
    // No dollar pair (DOGE is quoted in BTC), or an inactive one: no price, so never hidden on a guess.
    expect(prices.has('DOGE')).toBe(false);
    expect(prices.has('SOL')).toBe(false);
  });

  it('hides balances worth less than the threshold, counting locked funds, and zeros', () => {
    expect(isSmallBalance(balance('BTC', '0.00001'), rule)).toBe(true); // $0.50
    expect(isSmallBalance(balance('BTC', '0.00001', '0.00001'), rule)).toBe(false); // $1.00 is not under $1
    expect(isSmallBalance(balance('USD', '0.99'), rule)).toBe(true);
    expect(isSmallBalance(balance('USD', '1'), rule)).toBe(false);
    expect(isSmallBalance(balance('DOGE', '0.5'), rule)).toBe(false);
    expect(isSmallBalance(balance('DOGE', '0'), rule)).toBe(true);
  });

  it('the wallet list and the top bar leave them out only when the rule is on', () => {
    const wallet = [balance('BTC', '0.00001'), balance('ETH', '1'), balance('USD', '0.5'), balance('DOGE', '3')];
    expect(balanceRows(wallet, { hideZero: true, small: rule }).map((row) => row.currency)).toEqual(['ETH', 'DOGE']);
    expect(balanceRows(wallet, { hideZero: true, small: null }).map((row) => row.currency)).toEqual([
      'BTC',
      'ETH',
      'USD',
      'DOGE',
    ]);
    expect(balanceMenuItems(wallet, rule).map((item) => item.currency)).toEqual(['ETH', 'DOGE']);
    const tenDollars = { ...rule, thresholdUsd: decimal('10') };
    expect(balanceMenuItems([balance('USD', '9.99'), balance('ETH', '0.001')], tenDollars)).toEqual([]);
  });
});
