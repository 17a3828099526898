import type { Analytics } from '@platform/contracts';

/** Answers of GET /v1/analytics (exact decimal strings, trailing zeros trimmed). */
export function makeAnalytics(overrides: Partial<Analytics> = {}): Analytics {
  return {
    period: { from: '2026-03-01', to: '2026-03-14', days: 14 },
    method: 'fifo',
    source: 'all',
    volume: '18810.123456',
    trades: 6,
    closed_trades: 3,
    winning_trades: 2,
    losing_trades: 1,
    win_rate_percent: '66.67',
    average_win: '52.348',
    average_loss: '-410',
    profit_factor: '0.26',
    gross_wins: '104.696',
    gross_losses: '410',
    fees_paid: '18.204',
    funding_paid: '0.061725',
    funding_received: '0',
    liquidation_fees: '0',
    insurance_cleared: '0',
    realised_pnl: '-305.565725',
    best_trade: { product: 'spot', asset: 'BTC', time: '2026-03-03T10:15:00.000Z', pnl: '94.9' },
    worst_trade: { product: 'spot', asset: 'BTC', time: '2026-03-05T08:00:00.000Z', pnl: '-410' },
    pnl_by_asset: [
      { product: 'futures', asset: 'BTC_USD_PERP', pnl: '9.534275' },
      { product: 'spot', asset: 'BTC', pnl: '-315.1' },
    ],
    pnl_by_day: [
      { date: '2026-03-03', pnl: '94.9', closed_trades: 1 },
      { date: '2026-03-05', pnl: '-410', closed_trades: 1 },
      { date: '2026-03-09', pnl: '9.534275', closed_trades: 1 },
    ],
    time_weighted_return_percent: '-1',
    max_drawdown_percent: '10',
    equity: [
      { at: '2026-03-12T00:00:00.000Z', total_value: '1100', twr_percent: '10', drawdown_percent: '0' },
      { at: '2026-03-13T00:00:00.000Z', total_value: '6100', twr_percent: '10', drawdown_percent: '0' },
      { at: '2026-03-14T00:00:00.000Z', total_value: '5490', twr_percent: '-1', drawdown_percent: '10' },
    ],
    by_source: [{ source: 'manual', trades: 6, closed_trades: 3, volume: '18810.123456', realised_pnl: '-305.565725' }],
    ...overrides,
  };
}

export function emptyAnalytics(): Analytics {
  return makeAnalytics({
    volume: '0',
    trades: 0,
    closed_trades: 0,
    winning_trades: 0,
    losing_trades: 0,
    win_rate_percent: null,
    average_win: null,
    average_loss: null,
    profit_factor: null,
    gross_wins: '0',
    gross_losses: '0',
    fees_paid: '0',
    funding_paid: '0',
    funding_received: '0',
    liquidation_fees: '0',
    insurance_cleared: '0',
    realised_pnl: '0',
    best_trade: null,
    worst_trade: null,
    pnl_by_asset: [],
    pnl_by_day: [],
    time_weighted_return_percent: null,
    max_drawdown_percent: null,
    equity: [],
    by_source: [{ source: 'manual', trades: 0, closed_trades: 0, volume: '0', realised_pnl: '0' }],
  });
}
