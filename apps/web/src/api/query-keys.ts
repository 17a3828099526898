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
};
