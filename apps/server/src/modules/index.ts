import { createPaymentProviderModule, type PaymentProviderModule } from '../adapters/payments/module.ts';
import type { AppContext, ModuleParts } from '../context.ts';
import { realtimeModule } from '../realtime/routes.ts';
import { type Accounts, createAccounts } from './accounts/index.ts';
import { adminSimulatorRoutes } from './admin/simulator.ts';
import { adminTradingPairsRoutes } from './admin/trading-pairs.ts';
import { createAnalytics } from './analytics/index.ts';
import { createAuth } from './auth/index.ts';
import { type Conversions, createConversions } from './conversions/index.ts';
import { createExports } from './exports/index.ts';
import { createFutures, type Futures } from './futures/index.ts';
import { healthRoutes } from './health/routes.ts';
import { createKyc } from './kyc/index.ts';
import { BalanceCache } from './ledger/balance-cache.ts';
import { createMarkets, type Markets } from './markets/index.ts';
import { createNotifications, type Notifications } from './notifications/index.ts';
import { createPayments, type Payments } from './payments/index.ts';
import { createPortfolio, type Portfolio } from './portfolio/index.ts';
import { providerModule } from './provider/routes.ts';
import { createTrading, HOUSE_ACCOUNT_IDS, type Trading } from './trading/index.ts';
import { createWallet, type Wallet } from './wallet/index.ts';
import { watchlistModule } from './watchlist/routes.ts';
import { createWithdrawals, type Withdrawals } from './withdrawals/index.ts';

/** Every module of the server, built: what each offers the others, and its routes and workers. */
export type Services = {
  health: ModuleParts;
  ledger: Ledger;
  auth: ModuleParts;
  accounts: Accounts;
  markets: Markets;
  provider: ModuleParts;
  admin: ModuleParts;
  notifications: Notifications;
  trading: Trading;
  realtime: ModuleParts;
  watchlist: ModuleParts;
  paymentProvider: PaymentProviderModule;
  wallet: Wallet;
  kyc: ModuleParts;
  payments: Payments;
  withdrawals: Withdrawals;
  conversions: Conversions;
  futures: Futures;
  portfolio: Portfolio;
  analytics: ModuleParts;
  exports: ModuleParts;
};

/** What the server holds of the ledger beside its functions: the balance cache its readers share. */
export type Ledger = ModuleParts & { balances: BalanceCache };

/**
 * The composition root: every module is built here, in dependency order, by a factory handed the
 * services it uses, so the whole graph of services is this one function. A factory can only be
 * handed what was built above it (TypeScript refuses a `const` used before its line), so a cycle
 * cannot be written; no module finds another through the context or a registry. What modules
 * import from each other is plain code (auth's route guard, the wallet's amount rules), never a
 * running service. Building awaits the catalogue, the price feed's first quotes and the exchange's
 * books, so all of that is ready before any route opens.
 */
export async function composeModules(context: AppContext): Promise<Services> {
  const accounts = createAccounts(context);
  const auth = createAuth(context, { accounts: accounts.credentials });
  const markets = await createMarkets(context);
  const health: ModuleParts = { routes: (scope) => healthRoutes(scope, context, markets.sources) };
  const provider: ModuleParts = { routes: (scope) => providerModule(scope, context, markets) };
  const admin: ModuleParts = {
    routes: (scope) => {
      adminTradingPairsRoutes(scope, context, { markets });
      adminSimulatorRoutes(scope, context, { markets });
    },
  };
  // The ledger's balance cache, one per server: the readers (trading's account balance, the
  // wallet's balances) and the trading writer, which drops what it posts to, share it.
  const balances = new BalanceCache(context.db);
  const ledger: Ledger = { balances, stop: async () => balances.stop() };
  const notifications = createNotifications(context, HOUSE_ACCOUNT_IDS);
  const trading = await createTrading(context, {
    markets,
    balances,
    orderEvents: notifications.orderEvents,
    // The batch's order notifications commit with it: their accounts' unread counts change.
    ordersCommitted: (accountIds) => notifications.unreadCounts.invalidate(accountIds),
  });
  const realtime: ModuleParts = { routes: (scope) => realtimeModule(scope, context) };
  const watchlist: ModuleParts = { routes: (scope) => watchlistModule(scope, context) };
  const paymentProvider = createPaymentProviderModule(context, (symbol) => markets.feed.usdPrice(symbol));
  const { gateway } = paymentProvider;
  const wallet = createWallet(context, { gateway, balances, insertNotifications: notifications.insert });
  const kyc = createKyc(context, { insertNotifications: notifications.insert });
  const payments = createPayments(context, { markets, gateway, insertNotifications: notifications.insert });
  const withdrawals = createWithdrawals(context, {
    markets,
    gateway,
    accounts: accounts.credentials,
    balances,
    insertNotifications: notifications.insert,
  });
  const conversions = createConversions(context, { markets, trading });
  const futures = await createFutures(context, { markets, insertNotifications: notifications.insert });
  const portfolio = createPortfolio(context, { balances, markets, wallet, futures: futures.exchange });
  const analytics = createAnalytics(context, { trading, futures: futures.history, portfolio, markets });
  const exports = createExports(context, {
    trading,
    futures: futures.history,
    conversions,
    wallet,
    payments,
    withdrawals,
  });
  return {
    health,
    ledger,
    auth,
    accounts,
    markets,
    provider,
    admin,
    notifications,
    trading,
    realtime,
    watchlist,
    paymentProvider,
    wallet,
    kyc,
    payments,
    withdrawals,
    conversions,
    futures,
    portfolio,
    analytics,
    exports,
  };
}

/**
 * The order in which the app registers the modules' routes and hooks: workers start (onReady) in
 * this order and stop (onClose) in the reverse one, so the payout and payment workers stop before
 * the provider, and the exchange before the price feed.
 */
export function registrationOrder(services: Services): ModuleParts[] {
  return [
    services.health,
    services.ledger,
    services.auth,
    services.accounts,
    services.markets,
    services.provider,
    services.admin,
    services.trading,
    services.realtime,
    services.watchlist,
    services.notifications,
    services.wallet,
    services.paymentProvider,
    services.kyc,
    services.payments,
    services.withdrawals,
    services.conversions,
    services.futures,
    services.portfolio,
    services.analytics,
    services.exports,
  ];
}
