import type { AppContext, ModuleParts } from '../../context.ts';
import type { Conversions } from '../conversions/index.ts';
import type { FuturesHistory } from '../futures/index.ts';
import type { Payments } from '../payments/index.ts';
import type { Trading } from '../trading/index.ts';
import type { Wallet } from '../wallet/index.ts';
import type { Withdrawals } from '../withdrawals/index.ts';
import { exportRoutes } from './routes.ts';
import { EXPORT_PAGE_ROWS } from './service.ts';

/** What the exports read: each history from the service of the module that owns it. */
export type ExportsUses = {
  trading: Pick<Trading, 'spotFillsPage'>;
  futures: FuturesHistory;
  conversions: Pick<Conversions, 'conversionsPage'>;
  wallet: Pick<Wallet, 'userTransfersPage'>;
  payments: Pick<Payments, 'depositsPage'>;
  withdrawals: Pick<Withdrawals, 'withdrawalsPage'>;
};

/**
 * CSV exports of an account's trades (spot, futures and conversions), transfers, deposits and withdrawals (docs/portfolio.md,
 * "Exports"). A module of its own rather than part of the portfolio: it reads six other modules'
 * histories and none of the portfolio's valuation, and the portfolio stays about what an account
 * owns.
 */
export function createExports(context: AppContext, uses: ExportsUses): ModuleParts {
  const deps = {
    pageRows: EXPORT_PAGE_ROWS,
    sources: {
      spotFills: uses.trading.spotFillsPage,
      futuresFills: uses.futures.fillsPage,
      conversions: uses.conversions.conversionsPage,
      userTransfers: uses.wallet.userTransfersPage,
      futuresTransfers: uses.futures.transfersPage,
      deposits: uses.payments.depositsPage,
      withdrawals: uses.withdrawals.withdrawalsPage,
    },
  };
  return { routes: (scope) => exportRoutes(scope, context, deps) };
}
