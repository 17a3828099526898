import { describe, expect, it } from 'vitest';
import type { PeriodFill, PeriodIncome } from '../futures/index.ts';
import { type AnalyticsDeps, accountAnalytics } from './service.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const AT = Date.parse('2026-03-09T08:00:00Z');

/** Deps with one futures fill and the given income rows, nothing else. */
function deps(fills: PeriodFill[], income: PeriodIncome[]): AnalyticsDeps {
  return {
    spotTrades: async () => [],
    futuresFills: async () => fills,
    futuresIncome: async (_account, type) => income.filter((row) => row.type === type),
    lots: async () => [],
    usdPriceAt: async () => null,
    snapshots: async () => ({ base: null, rows: [] }),
    clock: () => NOW,
  };
}

const fill = (realisedPnl: string, fee: string): PeriodFill => ({
  id: 'f1',
  market: 'BTC_USD_PERP',
  side: 'sell',
  price: '40000',
  quantity: '0.1',
  fee,
  realisedPnl,
  timeMs: AT,
});
const income = (type: string, amount: string): PeriodIncome => ({
  id: `${type}-${amount}`,
  type,
  market: 'BTC_USD_PERP',
  amount,
  timeMs: AT + 1,
});
const QUERY = { method: 'fifo', source: 'all' } as const;

describe('futures income in the analytics P&L', () => {
  it('an insurance clear gives back the part of a loss beyond the collateral: P&L = what the wallet lost', async () => {
    // Collateral 800, the close realised −1,000: the fund paid 200 in, the wallet went 800 → 0.
    const body = await accountAnalytics(deps([fill('-1000', '0')], [income('insurance_clear', '200')]), 'a', QUERY);
    expect([body.realised_pnl, body.insurance_cleared, body.liquidation_fees]).toEqual(['-800', '200', '0']);
    expect(body.pnl_by_asset).toEqual([{ product: 'futures', asset: 'BTC_USD_PERP', pnl: '-800' }]);
    expect(body.pnl_by_day).toEqual([{ date: '2026-03-09', pnl: '-800', closed_trades: 1 }]);
    // The closed trade keeps the fill's own figure: the clear is not a trade.
    expect(body.worst_trade?.pnl).toBe('-1000');
  });

  it('liquidation fee and surplus rows are both costs; adl and realised_pnl income rows are never added', async () => {
    const rows = [
      income('liquidation_fee', '-20'),
      income('liquidation_fee', '-5.5'),
      income('adl', '-300'),
      income('realised_pnl', '-300'),
      income('fee', '-1'),
    ];
    const body = await accountAnalytics(deps([fill('-300', '1')], rows), 'a', QUERY);
    expect([body.fees_paid, body.liquidation_fees]).toEqual(['1', '25.5']);
    expect(body.realised_pnl).toBe('-326.5');
  });

  it('an income row without a market counts under an unknown market', async () => {
    const orphan = { ...income('liquidation_fee', '-3'), market: null };
    const body = await accountAnalytics(deps([], [orphan]), 'a', QUERY);
    expect(body.pnl_by_asset).toEqual([{ product: 'futures', asset: 'unknown', pnl: '-3' }]);
    expect([body.trades, body.closed_trades, body.realised_pnl]).toEqual([0, 0, '-3']);
  });
});
