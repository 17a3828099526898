import type { PageRequest, WalletTransactionsFilter } from '../../api/wallet.ts';

/**
 * The wallet's TanStack Query keys. Everything of one account's wallet sits under ['wallet', id]:
 * a balance update (socket) or a finished transfer invalidates that prefix, so the keys of
 * payments, withdrawals and the conversion desk's records nest under it on purpose
 * (features/payments, features/withdrawals and features/conversions build on `all`).
 */
export const walletQueryKeys = {
  all: (accountId: string) => ['wallet', accountId] as const,
  balances: (accountId: string) => ['wallet', accountId, 'balances'] as const,
  transactions: (accountId: string, filter: WalletTransactionsFilter) =>
    ['wallet', accountId, 'transactions', filter] as const,
  transfers: (accountId: string, page: PageRequest) => ['wallet', accountId, 'transfers', page] as const,
};
