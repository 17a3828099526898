import { notificationSchema } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import type { OrderEventBatch } from '../../events/orders.ts';
import type { OrderChange } from '../trading/batch-effects.ts';
import { type OrderState, toOrderView } from '../trading/order-state.ts';
import { pairSpecFromRow } from '../trading/pair-spec.ts';
import { orderNotifications } from './order-notifications.ts';

const spec = pairSpecFromRow({
  id: 'BTC_USD',
  base_currency: 'BTC',
  quote_currency: 'USD',
  symbol: 'BTC/USD',
  min_trade_amount: '0.0001',
  max_trade_amount: '1000',
  price_precision: 2,
  quantity_precision: 4,
  maker_fee: '0.1',
  taker_fee: '0.1',
  is_active: true,
  is_enabled_by_admin: true,
});

/** A batch of order changes as trading announces them. */
function batchOf(changes: OrderChange[]): OrderEventBatch {
  return { market: spec, events: changes, view: (index) => toOrderView(spec, changes[index]!.order) };
}

const ALICE = '00000000-0000-4000-8000-00000000000a';
const HOUSE = '00000000-0000-4000-8000-0000000000ff';
const at = new Date('2025-01-02T03:04:05.000Z');

/** A limit buy of 0.5 BTC at 67,250.00 USD (ticks of 0.01, lots of 0.0001), nothing filled. */
function order(overrides: Partial<OrderState> = {}): OrderState {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    accountId: ALICE,
    clientOrderId: null,
    pairId: 'BTC_USD',
    side: 'buy',
    type: 'limit',
    timeInForce: 'GTC',
    postOnly: false,
    selfTradePrevention: null,
    priceTicks: 6_725_000,
    stopPriceTicks: null,
    stopLimitPriceTicks: null,
    quantityLots: 5_000,
    quoteNotional: null,
    lotCap: 5_000,
    filledLots: 0,
    filledTotal: 0n,
    fee: 0n,
    reserveCurrency: 'USD',
    reserved: 0n,
    referenceTicks: null,
    status: 'pending',
    triggered: false,
    rejectReason: null,
    endReason: null,
    sequence: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/** filledTotal is in ledger atoms (18 decimals) of the quote currency. */
const atoms = (units: string) => BigInt(units) * 10n ** 18n;
const change = (kind: OrderChange['kind'], overrides: Partial<OrderState> = {}): OrderChange => ({
  kind,
  order: order(overrides),
});

describe('orderNotifications', () => {
  const cases: Array<{
    name: string;
    change: OrderChange;
    title: string;
    severity: string;
    message: string;
    metadata: Record<string, string>;
  }> = [
    {
      name: 'placed limit',
      change: change('placed'),
      title: 'Order placed',
      severity: 'info',
      message: 'Buy 0.5 BTC at 67,250.00 USD',
      metadata: { amount: '0.5000', price: '67250.00' },
    },
    {
      name: 'placed market',
      change: change('placed', { type: 'market', priceTicks: null, side: 'sell' }),
      title: 'Order placed',
      severity: 'info',
      message: 'Sell 0.5 BTC at market',
      metadata: { amount: '0.5000' },
    },
    {
      name: 'placed stop limit',
      change: change('placed', { type: 'stop_limit', side: 'sell', stopPriceTicks: 6_600_000, priceTicks: 6_590_000 }),
      title: 'Order placed',
      severity: 'info',
      message: 'Sell 0.5 BTC at 65,900.00 USD, stop 66,000.00 USD',
      metadata: { amount: '0.5000', price: '65900.00' },
    },
    {
      name: 'filled',
      change: change('filled', { status: 'filled', filledLots: 5_000, filledTotal: atoms('33625') }),
      title: 'Order filled',
      severity: 'success',
      message: 'Bought 0.5 BTC at 67,250.00 USD',
      metadata: { amount: '0.5000', price: '67250.00' },
    },
    {
      name: 'filled market order by quote amount',
      change: change('filled', {
        type: 'market',
        priceTicks: null,
        quantityLots: 2_000,
        quoteNotional: 13_450_000_000n,
        status: 'filled',
        filledLots: 2_000,
        filledTotal: atoms('13450'),
      }),
      title: 'Order filled',
      severity: 'success',
      message: 'Bought 0.2 BTC at 67,250.00 USD',
      metadata: { amount: '0.2000', price: '67250.00' },
    },
    {
      name: 'cancelled, nothing filled',
      change: change('cancelled', { status: 'cancelled' }),
      title: 'Order cancelled',
      severity: 'warning',
      message: 'Buy 0.5 BTC at 67,250.00 USD',
      metadata: { amount: '0.5000', price: '67250.00' },
    },
    {
      name: 'cancelled after a partial fill',
      change: change('cancelled', { status: 'cancelled', filledLots: 2_000, filledTotal: atoms('13450') }),
      title: 'Order cancelled',
      severity: 'warning',
      message: 'Buy 0.5 BTC at 67,250.00 USD (0.2 BTC filled at 67,250.00 USD)',
      metadata: { amount: '0.5000', price: '67250.00' },
    },
    {
      name: 'rejected',
      change: change('rejected', { status: 'rejected', rejectReason: 'post_only_would_cross', postOnly: true }),
      title: 'Order rejected',
      severity: 'error',
      message: 'Buy 0.5 BTC at 67,250.00 USD: post only would cross',
      metadata: { amount: '0.5000', price: '67250.00' },
    },
    {
      name: 'expired',
      change: change('expired', { status: 'expired', timeInForce: 'IOC' }),
      title: 'Order expired',
      severity: 'warning',
      message: 'Buy 0.5 BTC at 67,250.00 USD: nothing could be filled',
      metadata: { amount: '0.5000', price: '67250.00' },
    },
    {
      name: 'completed (closed partly filled)',
      change: change('completed', {
        status: 'completed',
        timeInForce: 'IOC',
        filledLots: 1_234,
        filledTotal: atoms('8298') + 65n * 10n ** 16n,
      }),
      title: 'Order closed',
      severity: 'warning',
      message: 'Buy 0.5 BTC at 67,250.00 USD: 0.1234 BTC filled at 67,250.00 USD, the rest was closed',
      metadata: { amount: '0.1234', price: '67250.00' },
    },
  ];

  it.each(cases)('$name', (testCase) => {
    const [notification, ...rest] = orderNotifications(batchOf([testCase.change]), new Set());
    expect(rest).toEqual([]);
    expect(notification).toEqual({
      accountId: ALICE,
      type: 'order',
      title: testCase.title,
      severity: testCase.severity,
      message: testCase.message,
      actionUrl: '/trade?pair=BTC/USD',
      metadata: { tradingPair: 'BTC_USD', orderId: testCase.change.order.id, ...testCase.metadata },
      textKey: `order${{ completed: 'Completed' }[testCase.change.kind as 'completed'] ?? testCase.change.kind.replace(/^./, (c) => c.toUpperCase())}`,
      params: expect.objectContaining({
        pair: 'BTC_USD',
        base: 'BTC',
        quote: 'USD',
        side: testCase.change.order.side,
        type: testCase.change.order.type,
      }),
      createdAt: at,
    });
    // The client formats the values in its language: raw decimal strings and codes, never English.
    for (const value of Object.values(notification!.params ?? {})) expect(String(value)).toMatch(/^[A-Za-z0-9_.]+$/);
    if (testCase.change.kind === 'rejected') expect(notification!.params?.reason).toBe('post_only_would_cross');
    // What is stored must also be a valid wire notification.
    const { accountId: _accountId, createdAt, ...wire } = notification!;
    notificationSchema.parse({ ...wire, id: crypto.randomUUID(), timestamp: createdAt.getTime(), isRead: false });
  });

  it('groups thousands and keeps every decimal a quantity has', () => {
    const [notification] = orderNotifications(
      batchOf([change('placed', { quantityLots: 12_345_678, priceTicks: 123_456_789 })]),
      new Set(),
    );
    expect(notification?.message).toBe('Buy 1,234.5678 BTC at 1,234,567.89 USD');
  });

  it('says nothing for the skipped accounts', () => {
    const changes = [change('placed', { accountId: HOUSE }), change('placed')];
    expect(orderNotifications(batchOf(changes), new Set([HOUSE])).map((n) => n.accountId)).toEqual([ALICE]);
  });

  it('gives an order placed and closed in the same batch only its closing notice', () => {
    const resting = order({ id: '22222222-2222-4222-8222-222222222222' });
    const changes: OrderChange[] = [
      change('placed', { type: 'market', priceTicks: null }),
      { kind: 'placed', order: resting },
      change('filled', {
        type: 'market',
        priceTicks: null,
        status: 'filled',
        filledLots: 5_000,
        filledTotal: atoms('33625'),
      }),
    ];
    expect(orderNotifications(batchOf(changes), new Set()).map((n) => n.title)).toEqual([
      'Order placed',
      'Order filled',
    ]);
    expect(orderNotifications(batchOf(changes), new Set())[0]?.metadata.orderId).toBe(resting.id);
  });

  it('returns nothing for no changes', () => {
    expect(orderNotifications(batchOf([]), new Set())).toEqual([]);
  });
});
