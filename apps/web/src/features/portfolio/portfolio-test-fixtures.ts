import type { PortfolioHolding, PortfolioPosition, PortfolioSummary } from '@platform/contracts';

/** Summaries as GET /v1/portfolio answers them (exact decimal strings, trailing zeros trimmed). */

export function makeHolding(overrides: Partial<PortfolioHolding> = {}): PortfolioHolding {
  return {
    asset: 'BTC',
    amount: '0.12345678',
    available: '0.10345678',
    locked: '0.02',
    price: '60123.45',
    price_source: 'reference',
    value: '7422.4103927910',
    price_24h_ago: '59000',
    change_24h_percent: '1.9',
    share_percent: '70.12',
    average_cost: '55000.5',
    cost_basis: '6790.18',
    unrealised_pnl: '632.2303927910',
    unrealised_pnl_percent: '9.31',
    ...overrides,
  };
}

export function makePortfolioPosition(overrides: Partial<PortfolioPosition> = {}): PortfolioPosition {
  return {
    market: 'BTC_USD_PERP',
    side: 'long',
    size: '0.015',
    entry_price: '59000',
    mark_price: '60000',
    liquidation_price: '48012.5',
    margin_ratio: '0.0412',
    distance_to_liquidation_percent: '19.97',
    unrealised_pnl: '15',
    ...overrides,
  };
}

/** An account with BTC (part in an open order), ETH, USD, a dust of DOGE, and a futures long. */
export function makeSummary(overrides: Partial<PortfolioSummary> = {}): PortfolioSummary {
  return {
    currency: 'USD',
    total_value: '10585.4103927910',
    total_value_24h_ago: '10400.1',
    change_24h: '185.310392791',
    change_24h_percent: '1.78',
    locked_value: '1202.469',
    allocation: {
      by_asset: [
        { key: 'BTC', value: '7422.4103927910', share_percent: '70.12' },
        { key: 'USD', value: '2100.5', share_percent: '19.84' },
        { key: 'ETH', value: '1062', share_percent: '10.03' },
        { key: 'DOGE', value: '0.5', share_percent: '0.01' },
      ],
      by_product: [
        { key: 'spot', value: '9470.4103927910', share_percent: '89.47' },
        { key: 'futures', value: '1115', share_percent: '10.53' },
      ],
    },
    holdings: [
      makeHolding(),
      makeHolding({
        asset: 'ETH',
        amount: '0.5',
        available: '0.5',
        locked: '0',
        price: '2124',
        value: '1062',
        price_24h_ago: '2200',
        change_24h_percent: '-3.45',
        share_percent: '10.03',
        average_cost: '2400',
        cost_basis: '1200',
        unrealised_pnl: '-138',
        unrealised_pnl_percent: '-11.5',
      }),
      makeHolding({
        asset: 'USD',
        amount: '985.5',
        available: '985.5',
        locked: '0',
        price: '1',
        price_source: 'unit',
        value: '985.5',
        price_24h_ago: '1',
        change_24h_percent: '0',
        share_percent: '9.31',
        average_cost: null,
        cost_basis: null,
        unrealised_pnl: null,
        unrealised_pnl_percent: null,
      }),
      makeHolding({
        asset: 'DOGE',
        amount: '4.2',
        available: '4.2',
        locked: '0',
        price: '0.1190476',
        value: '0.49999992',
        price_24h_ago: '0.12',
        change_24h_percent: '-0.79',
        share_percent: '0.01',
        average_cost: '0.2',
        cost_basis: '0.84',
        unrealised_pnl: '-0.34000008',
        unrealised_pnl_percent: '-40.48',
      }),
    ],
    futures: {
      available: '600',
      isolated_margin: '500',
      wallet_balance: '1100',
      unrealised_pnl: '15',
      equity: '1115',
      share_percent: '10.53',
      positions: [makePortfolioPosition()],
    },
    method: 'fifo',
    timestamp: 1_760_000_000_000,
    ...overrides,
  };
}

export function emptySummary(): PortfolioSummary {
  return makeSummary({
    total_value: '0',
    total_value_24h_ago: '0',
    change_24h: '0',
    change_24h_percent: null,
    locked_value: '0',
    allocation: {
      by_asset: [],
      by_product: [
        { key: 'spot', value: '0', share_percent: '0' },
        { key: 'futures', value: '0', share_percent: '0' },
      ],
    },
    holdings: [],
    futures: {
      available: '0',
      isolated_margin: '0',
      wallet_balance: '0',
      unrealised_pnl: '0',
      equity: '0',
      share_percent: '0',
      positions: [],
    },
  });
}
