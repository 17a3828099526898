import type { PortfolioSummary } from '@platform/contracts';
import type { lots } from '@platform/engine';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { FuturesExchange } from '../futures/index.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import type { Markets } from '../markets/index.ts';
import type { Wallet } from '../wallet/index.ts';
import { historyRoutes } from './history-routes.ts';
import type { HistoryDeps } from './history-service.ts';
import { LedgerChanges } from './ledger-changes.ts';
import { LotCache } from './lot-cache.ts';
import { LotCheckpointStore } from './lot-checkpoints.ts';
import { LotsMemo } from './lots-memo.ts';
import { lotsRoutes } from './lots-routes.ts';
import { accountLots, type LotsDeps } from './lots-service.ts';
import { portfolioRoutes } from './routes.ts';
import { type PortfolioDeps, portfolioSummary } from './service.ts';
import { readSettings } from './settings.ts';
import { settingsRoutes } from './settings-routes.ts';
import { SnapshotRecorder } from './snapshot-recorder.ts';
import { usdPriceLookup } from './valuation.ts';

export type PortfolioUses = {
  /** The ledger's balance cache: the spot wallet's balances, available and locked. */
  balances: BalanceCache;
  /** The reference prices and their 24 h opens (the price sources', never a trade on our books). */
  markets: Pick<Markets, 'referenceDayQuote' | 'usdPriceAt'>;
  /** The account's history of balance changes (the ledger's entries), for the lots. */
  wallet: Pick<Wallet, 'movements' | 'spotValues' | 'flows'>;
  /** The futures wallet and open positions, from the exchange's memory. */
  futures: Pick<FuturesExchange, 'accounts' | 'markets'>;
};

/**
 * What the portfolio offers: the summary of an account (the dashboard on / reads it too), the lots
 * (analytics), and the snapshot recorder (its timer runs when PORTFOLIO_SNAPSHOTS_ENABLED; tests
 * and the bench drive it).
 */
export type Portfolio = ModuleParts & {
  summary(accountId: string): Promise<PortfolioSummary>;
  /** Every asset's lots and realised rows under a method, from the account's whole ledger history (analytics). */
  lots(accountId: string, method: lots.LotMethod): Promise<lots.LotResult[]>;
  snapshots: SnapshotRecorder;
};

/** Portfolio: what an account owns across spot and futures, valued live in USD (docs/portfolio.md). */
export function createPortfolio(context: AppContext, uses: PortfolioUses): Portfolio {
  // Per server, subscribed to the ledger until the server closes (like the balance cache).
  const changes = new LedgerChanges(context.db);
  const movements: LotsDeps['movements'] = (accountId, after) => uses.wallet.movements(accountId, after);
  const priceAt: LotsDeps['priceAt'] = (currency, timeMs) => uses.markets.usdPriceAt(currency, timeMs);
  const method = async (accountId: string) => (await readSettings(context.db, accountId)).lot_method;
  // Per server, like the balance cache: each account's lot books between requests (lot-cache.ts).
  // Checkpointed in the database (migration 0026), so a cold load reads only the tail of the history.
  const checkpoints = new LotCheckpointStore(context.db, context.log);
  const lotCache = new LotCache({ movements, priceAt, checkpoints, log: context.log, now: context.clock });
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
  // Analytics reads the whole history's realised rows on every request: kept until the account's
  // ledger changes (lots-memo.ts).
  const realised = new LotsMemo(changes, (accountId, lotMethod) => accountLots(lotsDeps, accountId, lotMethod, true));
  const historyDeps: HistoryDeps = { db: context.db, summary: deps, wallet: uses.wallet, priceAt };
  const settings = context.config.portfolioSnapshots;
  const snapshots = new SnapshotRecorder({
    db: context.db,
    wallet: uses.wallet,
    futures: uses.futures,
    balances: uses.balances,
    changes,
    prices: deps.prices,
    priceAt,
    clock: context.clock,
    batchSize: settings.batchSize,
    hourlyRetentionDays: settings.hourlyRetentionDays,
    log: context.log,
  });
  return {
    summary: (accountId) => portfolioSummary(deps, accountId),
    lots: (accountId, method) => realised.lots(accountId, method),
    snapshots,
    routes: (scope) => {
      portfolioRoutes(scope, context, deps);
      historyRoutes(scope, context, historyDeps);
      lotsRoutes(scope, context, lotsDeps);
      settingsRoutes(scope, context);
    },
    start: () => {
      if (settings.enabled) snapshots.start();
    },
    stop: async () => {
      await snapshots.stop();
      await lotCache.settled();
      changes.stop();
    },
  };
}
