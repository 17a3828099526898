import type { AppContext, ModuleParts } from '../../context.ts';
import type { FuturesHistory } from '../futures/index.ts';
import type { Markets } from '../markets/index.ts';
import type { Portfolio } from '../portfolio/index.ts';
import type { Trading } from '../trading/index.ts';
import { analyticsRoutes } from './routes.ts';
import type { AnalyticsDeps } from './service.ts';
import { dailySnapshots } from './snapshots.ts';

export type AnalyticsUses = {
  /** Spot fills of a period. */
  trading: Pick<Trading, 'periodTrades'>;
  /** Futures fills and income (funding) of a period. */
  futures: FuturesHistory;
  /** The spot lots and their realised rows (the spot P&L). */
  portfolio: Pick<Portfolio, 'lots'>;
  /** Recorded USD prices of quote currencies (USDT, BTC, ETH) at a fill's time. */
  markets: Pick<Markets, 'usdPriceAt'>;
};

/**
 * Trading analytics over a period (docs/analytics.md). It owns no table: the daily snapshots it
 * reads for TWR and drawdown are the portfolio's, read through one query of this module until the
 * snapshot module offers a read of its own.
 */
export function createAnalytics(context: AppContext, uses: AnalyticsUses): ModuleParts {
  const deps: AnalyticsDeps = {
    spotTrades: (accountId, fromMs, toMs) => uses.trading.periodTrades(accountId, fromMs, toMs),
    futuresFills: (accountId, fromMs, toMs) => uses.futures.fills(accountId, fromMs, toMs),
    futuresIncome: (accountId, type, fromMs, toMs) => uses.futures.income(accountId, type, fromMs, toMs),
    lots: (accountId, method) => uses.portfolio.lots(accountId, method),
    usdPriceAt: (currency, timeMs) => uses.markets.usdPriceAt(currency, timeMs),
    snapshots: (accountId, fromMs, toMs) => dailySnapshots(context.db, accountId, fromMs, toMs),
    clock: context.clock,
  };
  return { routes: (scope) => analyticsRoutes(scope, context, deps) };
}
