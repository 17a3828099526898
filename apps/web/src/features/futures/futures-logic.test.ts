import { describe, expect, it } from 'vitest';
import { countdown, formatRatePercent, formatSignedUsd, stepDecimals } from './futures-format.ts';
import { normalizeMarketId, resolveMarketId } from './futures-route.ts';
import { makeMarket, makePosition, tiers } from './futures-test-fixtures.ts';
import { maxLeverageFor, tierForNotional } from './leverage/tiers.ts';
import { initialFormState, quantityForPercent, toOrderRequest, validate } from './order-form/futures-order-model.ts';
import { revalueAtMark, riskLevel } from './position-maths.ts';

const market = makeMarket();

describe('futures address', () => {
  it('accepts any case and separator and rewrites to the canonical id', () => {
    expect(normalizeMarketId('eth_usd_perp')).toBe('ETH_USD_PERP');
    expect(normalizeMarketId('BTCUSD-PERP')).toBe('BTC_USD_PERP');
    expect(normalizeMarketId('BTC_USD')).toBeNull();
  });

  it('falls back to the stored market, then BTC, for an unknown one', () => {
    const known = new Set(['BTC_USD_PERP', 'ETH_USD_PERP']);
    expect(resolveMarketId('DOGE_USD_PERP', 'ETH_USD_PERP', known)).toBe('ETH_USD_PERP');
    expect(resolveMarketId('nonsense', null, known)).toBe('BTC_USD_PERP');
    expect(resolveMarketId('DOGE_USD_PERP', null, null)).toBe('DOGE_USD_PERP');
  });
});

describe('futures figures', () => {
  it('reads precision from the steps and formats rates, signs and countdowns', () => {
    expect(stepDecimals('0.10')).toBe(1);
    expect(stepDecimals('1')).toBe(0);
    expect(stepDecimals('0.001')).toBe(3);
    expect(formatRatePercent('0.0001')).toBe('0.0100%');
    expect(formatSignedUsd('3000')).toBe('+3,000.00');
    expect(formatSignedUsd('-0.005')).toBe('-0.01');
    expect(countdown(3_725_000, 0)).toBe('01:02:05');
    expect(countdown(0, 10)).toBe('00:00:00');
  });
});

describe('order form rules', () => {
  it('validates in the spec words', () => {
    expect(validate({ ...initialFormState, price: '60000' }, market)).toBe('required');
    expect(validate({ ...initialFormState, price: '60000', quantity: '0.0005' }, market)).toBe('invalidQuantity');
    expect(validate({ ...initialFormState, price: '60000', quantity: '0.0011' }, market)).toBe('invalidQuantity');
    expect(validate({ ...initialFormState, price: '60000.05', quantity: '0.1' }, market)).toBe('invalidPrice');
    expect(validate({ ...initialFormState, type: 'market', quantity: '0.1' }, market)).toBeNull();
  });

  it('builds the request of each type', () => {
    const stop = toOrderRequest(
      {
        ...initialFormState,
        side: 'sell',
        type: 'stop_limit',
        price: '59000',
        stopPrice: '59500',
        quantity: '0.2',
        reduceOnly: true,
      },
      market,
      'web-1',
    );
    expect(stop).toEqual({
      market: 'BTC_USD_PERP',
      side: 'sell',
      type: 'stop_limit',
      quantity: '0.2',
      price: '59000',
      time_in_force: 'GTC',
      stop_price: '59500',
      reduce_only: true,
      client_order_id: 'web-1',
    });
    const withTpsl = toOrderRequest(
      { ...initialFormState, type: 'market', quantity: '0.1', tpsl: true, takeProfit: '65000', stopLoss: '' },
      market,
    );
    expect(withTpsl).toMatchObject({ type: 'market', take_profit_price: '65000' });
    expect(withTpsl).not.toHaveProperty('stop_loss_price');
    expect(withTpsl).not.toHaveProperty('price');
  });

  it('sizes a percent of the available margin with its fee, floored to the lot', () => {
    // 10,000 x 50% x 20 / (1 + 20 x 0.0004) = 99,206.349...; / 60,000 = 1.6534... -> 1.653
    expect(quantityForPercent('10000', 50, 20, '60000', market)).toBe('1.653');
    expect(quantityForPercent('0', 50, 20, '60000', market)).toBeNull();
  });
});

describe('tiers and positions', () => {
  it('finds the tier of a notional and caps the slider at its maximum', () => {
    expect(tierForNotional(tiers, null)?.tier).toBe(1);
    expect(tierForNotional(tiers, '50000')?.tier).toBe(2);
    expect(tierForNotional(tiers, '300000')?.tier).toBe(3);
    expect(maxLeverageFor(tiers, '90000', 100)).toBe(50);
    expect(maxLeverageFor(tiers, null, 75)).toBe(75);
  });

  it('revalues a position at a new mark exactly', () => {
    const long = revalueAtMark(makePosition(), '61000.5');
    expect(long.unrealised_pnl).toBe('4500.75000000');
    expect(long.notional).toBe('91500.75000000');
    // ROE = 4500.75 / (1.5 x 58000 / 10) = 0.51732759 (half up)
    expect(long.roe).toBe('0.51732759');
    const short = revalueAtMark(makePosition({ side: 'short' }), '61000.5');
    expect(short.unrealised_pnl).toBe('-4500.75000000');
  });

  it('bands the margin ratio by risk', () => {
    expect(riskLevel('0.2')).toBe('low');
    expect(riskLevel('0.5')).toBe('medium');
    expect(riskLevel('0.85')).toBe('high');
  });
});
