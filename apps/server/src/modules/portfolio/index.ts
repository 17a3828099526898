import type { PortfolioSummary } from '@platform/contracts';
import type { lots } from '@platform/engine';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { FuturesExchange } from '../futures/index.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import type { Markets } from '../markets/index.ts';
import type { Wallet } from '../wallet/index.ts';
import { LedgerChanges } from './ledger-changes.ts';
import { LotCache } from './lot-cache.ts';
import { lotsRoutes } from './lots-routes.ts';
import { accountLots, type LotsDeps } from './lots-service.ts';
import { portfolioRoutes } from './routes.ts';
import { type PortfolioDeps, portfolioSummary } from './service.ts';
import { readSettings } from './settings.ts';
import { settingsRoutes } from './settings-routes.ts';
import { usdPriceLookup } from './valuation.ts';

export type PortfolioUses = {
  /** The ledger's balance cache: the spot wallet's balances, available and locked. */
  balances: BalanceCache;
  /** The reference prices and their 24 h opens (the price sources', never a trade on our books). */
  markets: Pick<Markets, 'referenceDayQuote' | 'usdPriceAt'>;
  /** The account's history of balance changes (the ledger's entries), for the lots. */
  wallet: Pick<Wallet, 'movements'>;
  /** The futures wallet and open positions, from the exchange's memory. */
  futures: Pick<FuturesExchange, 'accounts' | 'markets'>;
};

/** What the portfolio offers: the summary of an account (the dashboard on / will read it too). */
export type Portfolio = ModuleParts & {
  summary(accountId: string): Promise<PortfolioSummary>;
  /** Every asset's lots and realised rows under a method, from the account's whole ledger history (analytics). */
  lots(accountId: string, method: lots.LotMethod): Promise<lots.LotResult[]>;
};

/** Portfolio: what an account owns across spot and futures, valued live in USD (docs/portfolio.md). */
export function createPortfolio(context: AppContext, uses: PortfolioUses): Portfolio {
  // Per server, subscribed to the ledger until the server closes (like the balance cache).
  const changes = new LedgerChanges(context.db);
  const movements: LotsDeps['movements'] = (accountId, after) => uses.wallet.movements(accountId, after);
  const priceAt: LotsDeps['priceAt'] = (currency, timeMs) => uses.markets.usdPriceAt(currency, timeMs);
  const method = async (accountId: string) => (await readSettings(context.db, accountId)).lot_method;
  // Per server, like the balance cache: each account's lot books between requests (lot-cache.ts).
  const lotCache = new LotCache({ movements, priceAt });
  const deps: PortfolioDeps = {
    balances: uses.balances,
    changes,
    futures: uses.futures,
    prices: usdPriceLookup((pairId) => uses.markets.referenceDayQuote(pairId)),
    clock: context.clock,
    method,
    lots: (accountId, lotMethod) => lotCache.lots(accountId, lotMethod),
  };
  const lotsDeps: LotsDeps = { movements, priceAt, prices: deps.prices, method };
  return {
    summary: (accountId) => portfolioSummary(deps, accountId),
    lots: (accountId, method) => accountLots(lotsDeps, accountId, method, true),
    routes: (scope) => {
      portfolioRoutes(scope, context, deps);
      lotsRoutes(scope, context, lotsDeps);
      settingsRoutes(scope, context);
    },
    stop: async () => changes.stop(),
  };
}
