import type { AccountTrade, Order, TradingPair } from '@platform/contracts';
import { accountId } from '../../test/fixtures.ts';

/** Orders, trades and a pair as the API sends them, for the tests of this folder. */

let sequence = 0;

/** A v4-shaped uuid that differs per call. */
export function nextUuid(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}

export function makeOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: nextUuid(),
    client_order_id: null,
    account_id: accountId,
    trading_pair: 'BTC_USD',
    symbol: 'BTC/USD',
    side: 'buy',
    type: 'limit',
    status: 'pending',
    time_in_force: 'GTC',
    post_only: false,
    price: '60000.00',
    stop_price: null,
    stop_limit_price: null,
    quantity: '0.01000000',
    quote_amount: null,
    filled_quantity: '0.00000000',
    remaining_quantity: '0.01000000',
    average_price: null,
    total: '0',
    fee: '0',
    fee_currency: 'USD',
    triggered: false,
    reject_reason: null,
    created_at: '2026-11-24T10:00:00.000Z',
    updated_at: '2026-11-24T10:00:00.000Z',
    ...overrides,
  };
}

export function makeTrade(overrides: Partial<AccountTrade> = {}): AccountTrade {
  return {
    id: String(1000 + sequence),
    order_id: nextUuid(),
    trading_pair: 'BTC_USD',
    symbol: 'BTC/USD',
    price: '60000.00',
    quantity: '0.01000000',
    total: '600.00',
    side: 'buy',
    role: 'taker',
    fee: '0.60',
    fee_currency: 'USD',
    timestamp: Date.parse('2026-11-24T10:00:00.000Z'),
    ...overrides,
  };
}

export function makePair(overrides: Partial<TradingPair> = {}): TradingPair {
  return {
    id: 'BTC_USD',
    base_currency: 'BTC',
    quote_currency: 'USD',
    symbol: 'BTC/USD',
    min_trade_amount: '0.0001',
    max_trade_amount: '100',
    price_precision: 2,
    quantity_precision: 6,
    trading_fee: '0.1',
    maker_fee: '0.1',
    taker_fee: '0.1',
    is_active: true,
    is_enabled_by_admin: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    supported_by_provider: true,
    current_price: '61000.00',
    volume_24h: '100',
    change_24h: '1.5',
    ...overrides,
  };
}

export function orderList(orders: Order[], total = orders.length) {
  return { orders, pagination: { page: 1, limit: 500, total } };
}
