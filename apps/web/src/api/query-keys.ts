import type { OrdersFilter, TradesFilter } from './trading.ts';
import type { PageRequest, WalletTransactionsFilter } from './wallet.ts';

/** Every TanStack Query key of the client, in one place. */
export const queryKeys = {
  account: (accountId: string) => ['account', accountId] as const,
  tradingPairs: () => ['market', 'trading-pairs'] as const,
  marketStatistics: (pairId: string) => ['market', 'statistics', pairId] as const,
  sparkline: (pairId: string) => ['market', 'sparkline', pairId] as const,
  watchlist: (accountId: string) => ['watchlist', accountId] as const,
  /** Everything of one account's wallet: invalidating it refreshes balances and both histories. */
  wallet: (accountId: string) => ['wallet', accountId] as const,
  walletBalances: (accountId: string) => ['wallet', accountId, 'balances'] as const,
  walletTransactions: (accountId: string, filter: WalletTransactionsFilter) =>
    ['wallet', accountId, 'transactions', filter] as const,
  walletTransfers: (accountId: string, page: PageRequest) => ['wallet', accountId, 'transfers', page] as const,
  candles: (pairId: string, range: string) => ['market', 'candles', pairId, range] as const,
  /** Everything of one account's trading: invalidating it refreshes open orders and both histories. */
  trading: (accountId: string) => ['trading', accountId] as const,
  orders: (accountId: string, filter: OrdersFilter) => ['trading', accountId, 'orders', filter] as const,
  accountTrades: (accountId: string, filter: TradesFilter) => ['trading', accountId, 'trades', filter] as const,
  notifications: (accountId: string) => ['notifications', accountId] as const,
};
