import type {
  FuturesAccount,
  FuturesMarket,
  FuturesOrderPreview,
  FuturesPosition,
  FuturesTier,
} from '@platform/contracts';
import { useAppStore } from '../../state/app-store.ts';
import { json } from '../../test/fetch-mock.ts';
import { makeAccount } from '../../test/fixtures.ts';

/** Contract-shaped answers for the futures screen's component tests. */

export function makeMarket(overrides: Partial<FuturesMarket> = {}): FuturesMarket {
  return {
    id: 'BTC_USD_PERP',
    symbol: 'BTCUSD-PERP',
    base_currency: 'BTC',
    quote_currency: 'USD',
    tick_size: '0.1',
    lot_size: '0.001',
    min_quantity: '0.001',
    max_quantity: '1000',
    min_notional: '5',
    max_leverage: 100,
    maker_fee_rate: '0.0002',
    taker_fee_rate: '0.0004',
    status: 'trading',
    mark_price: '60000.0',
    index_price: '59990.5',
    last_price: '60001.2',
    funding_rate: '0.0001',
    funding_rate_cap: '0.0075',
    funding_interval_ms: 28_800_000,
    next_funding_time: Date.now() + 3_600_000,
    open_interest: '12.345',
    volume_24h: '1000',
    price_change_percent_24h: '2.5',
    ...overrides,
  };
}

export const markets = [
  makeMarket(),
  makeMarket({
    id: 'ETH_USD_PERP',
    symbol: 'ETHUSD-PERP',
    base_currency: 'ETH',
    tick_size: '0.01',
    mark_price: '3000.00',
  }),
];

export const tiers: FuturesTier[] = [
  {
    tier: 1,
    notional_floor: '0',
    notional_cap: '50000',
    max_leverage: 100,
    maintenance_margin_rate: '0.004',
    maintenance_amount: '0',
  },
  {
    tier: 2,
    notional_floor: '50000',
    notional_cap: '250000',
    max_leverage: 50,
    maintenance_margin_rate: '0.005',
    maintenance_amount: '50',
  },
  {
    tier: 3,
    notional_floor: '250000',
    notional_cap: '1000000',
    max_leverage: 20,
    maintenance_margin_rate: '0.01',
    maintenance_amount: '1300',
  },
];

export function makePosition(overrides: Partial<FuturesPosition> = {}): FuturesPosition {
  return {
    market: 'BTC_USD_PERP',
    side: 'long',
    size: '1.5',
    entry_price: '58000',
    mark_price: '60000',
    liquidation_price: '52345.678',
    bankruptcy_price: '52000',
    margin_mode: 'isolated',
    leverage: 10,
    notional: '90000',
    margin: '8700.004',
    maintenance_margin: '450',
    margin_ratio: '0.0391',
    unrealised_pnl: '3000',
    roe: '0.3448',
    realised_pnl: '0',
    adl_rank: 3,
    take_profit_price: '65000',
    stop_loss_price: null,
    updated_at: '2026-11-25T00:00:00.000Z',
    ...overrides,
  };
}

export function makeFuturesAccount(overrides: Partial<FuturesAccount> = {}): FuturesAccount {
  return {
    currency: 'USD',
    wallet_balance: '10000',
    unrealised_pnl: '0',
    margin_balance: '10000',
    cross_initial_margin: '0',
    cross_maintenance_margin: '0',
    isolated_margin: '0',
    order_margin: '0',
    available_balance: '10000',
    transferable: '7654.321',
    margin_ratio: '0',
    ...overrides,
  };
}

export function makePreview(overrides: Partial<FuturesOrderPreview> = {}): FuturesOrderPreview {
  return {
    market: 'BTC_USD_PERP',
    price: '60000.0',
    notional: '6000',
    initial_margin: '120',
    fee: '2.4',
    cost: '122.4',
    available_balance: '10000',
    resulting_side: 'long',
    resulting_size: '0.1',
    resulting_entry_price: '60000.0',
    liquidation_price: '59123.45',
    max_leverage: 100,
    error: null,
    ...overrides,
  };
}

export function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

const page = { page: 1, limit: 50, total: 0 };

/** The reads every futures screen makes, answered; `extra` adds or replaces routes. */
export function futuresRoutes(options: { positions?: FuturesPosition[]; leverage?: number } = {}) {
  return {
    'GET /v1/futures/markets': () => json(200, { markets }),
    'GET /v1/futures/markets/BTC_USD_PERP/mark': () =>
      json(200, {
        market: 'BTC_USD_PERP',
        mark_price: '60000.0',
        index_price: '59990.5',
        funding_rate: '0.0001',
        next_funding_time: Date.now() + 3_600_000,
        timestamp: Date.now(),
      }),
    'GET /v1/futures/markets/BTC_USD_PERP/tiers': () => json(200, { market: 'BTC_USD_PERP', tiers }),
    'GET /v1/futures/account': () => json(200, makeFuturesAccount()),
    'GET /v1/futures/positions': () => json(200, { positions: options.positions ?? [] }),
    'GET /v1/futures/settings': () =>
      json(200, {
        settings: [
          { market: 'BTC_USD_PERP', leverage: options.leverage ?? 10, margin_mode: 'cross', max_leverage: 100 },
        ],
      }),
    'GET /v1/futures/orders': () => json(200, { orders: [], pagination: page }),
    'GET /v1/futures/fills': () => json(200, { fills: [], pagination: page }),
    'GET /v1/futures/income': () => json(200, { income: [], pagination: page }),
    'GET /v1/futures/markets/BTC_USD_PERP/orderbook': () =>
      json(200, {
        market: 'BTC_USD_PERP',
        sequence: 7,
        bids: [['59999.9', '1.25']],
        asks: [['60000.1', '0.5']],
        timestamp: Date.now(),
      }),
    'GET /v1/futures/markets/BTC_USD_PERP/trades': () =>
      json(200, [
        { id: 't1', market: 'BTC_USD_PERP', price: '60000.1', quantity: '0.042', side: 'buy', timestamp: Date.now() },
      ]),
    'GET /v1/futures/markets/ETH_USD_PERP/orderbook': () =>
      json(200, { market: 'ETH_USD_PERP', sequence: 1, bids: [], asks: [], timestamp: Date.now() }),
    'GET /v1/futures/markets/ETH_USD_PERP/trades': () => json(200, []),
    'GET /v1/futures/markets/BTC_USD_PERP/candles': () =>
      json(200, { pair_id: 'BTC_USD_PERP', interval: '1h', candles: [] }),
    'GET /v1/futures/markets/ETH_USD_PERP/candles': () =>
      json(200, { pair_id: 'ETH_USD_PERP', interval: '1h', candles: [] }),
    'GET /v1/wallet/balances': () => json(200, { balances: [{ currency: 'USD', available: '2500.559', locked: '0' }] }),
  };
}
