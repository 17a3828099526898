import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import {
  createQuickTradeReducer,
  initialQuickTradeState,
  quickTradeFailureField,
  quickTradeSummary,
} from './quick-trade-form.ts';

function keys() {
  let next = 0;
  return () => `key-${++next}`;
}

describe('quick trade form (spec §3.5 Trade)', () => {
  it('keeps the idempotency key while the values stay and takes a new one on each edit', () => {
    const newKey = keys();
    const reduce = createQuickTradeReducer(newKey);
    let state = initialQuickTradeState('USDT', 'BTC', newKey);
    expect(state.idempotencyKey).toBe('key-1');
    state = reduce(state, { type: 'edit', field: 'amount', value: '10' });
    expect(state.idempotencyKey).toBe('key-2');
    expect(reduce(state, { type: 'edit', field: 'amount', value: '10' })).toBe(state);
    state = reduce(state, { type: 'submitAttempted' });
    expect(state.idempotencyKey).toBe('key-2');
    state = reduce(state, { type: 'executed' });
    expect(state.values).toEqual({ sell: 'USDT', buy: 'BTC', amount: '', target: '' });
    expect(state.idempotencyKey).toBe('key-3');
  });

  it('swaps the currencies and forgets a minimum set for the other currency', () => {
    const reduce = createQuickTradeReducer(keys());
    let state = initialQuickTradeState('USDT', 'BTC', keys());
    state = reduce(state, { type: 'edit', field: 'target', value: '0.001' });
    state = reduce(state, { type: 'swap' });
    expect(state.values).toMatchObject({ sell: 'BTC', buy: 'USDT', target: '' });
    state = reduce(state, { type: 'edit', field: 'target', value: '5' });
    state = reduce(state, { type: 'edit', field: 'buy', value: 'ETH' });
    expect(state.values.target).toBe('');
  });

  it('checks the sell amount with the balance and the minimum with the buy decimals', () => {
    const reduce = createQuickTradeReducer(keys());
    let state = initialQuickTradeState('USDT', 'BTC', keys());
    state = reduce(state, { type: 'edit', field: 'amount', value: '12' });
    state = reduce(state, { type: 'edit', field: 'target', value: '0.000000001' });
    let summary = quickTradeSummary(state, '10');
    expect(summary.errors.amount).toEqual({ key: 'errors.insufficientBalance' });
    expect(summary.errors.target).toMatchObject({ key: 'wallet.convert.errors.tooManyDecimals' });
    expect(summary.visibleErrors).toEqual({});
    expect(summary.request).toBeNull();

    state = reduce(state, { type: 'submitAttempted' });
    expect(Object.keys(quickTradeSummary(state, '10').visibleErrors)).toEqual(['amount', 'target']);

    state = reduce(state, { type: 'edit', field: 'amount', value: '10' });
    state = reduce(state, { type: 'edit', field: 'target', value: '0.0001' });
    summary = quickTradeSummary(state, '10');
    expect(summary.request).toEqual({
      sell_currency: 'USDT',
      buy_currency: 'BTC',
      sell_amount: '10',
      target_amount: '0.0001',
    });
    state = reduce(state, { type: 'edit', field: 'target', value: '' });
    expect(quickTradeSummary(state, '10').request?.target_amount).toBeUndefined();
  });

  it('refuses the same currency on both sides', () => {
    const state = {
      ...initialQuickTradeState('BTC', 'BTC', keys()),
      values: { sell: 'BTC', buy: 'btc', amount: '1', target: '' },
    };
    expect(quickTradeSummary(state, null).visibleErrors.buy).toEqual({ key: 'wallet.convert.errors.samePair' });
  });

  it('places a refused trade next to the field it is about', () => {
    expect(quickTradeFailureField(new ApiError(409, 'SLIPPAGE_EXCEEDED', 'x'))).toBe('target');
    expect(quickTradeFailureField(new ApiError(422, 'INSUFFICIENT_BALANCE', 'x'))).toBe('amount');
    expect(quickTradeFailureField(new ApiError(400, 'CONVERSION_NOT_SUPPORTED', 'x'))).toBe('buy');
    expect(quickTradeFailureField(new ApiError(0, 'NETWORK_ERROR', 'x'))).toBe('form');
  });
});
