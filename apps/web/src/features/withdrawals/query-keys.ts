import { walletQueryKeys } from '../wallet/query-keys.ts';

/**
 * The withdrawals' TanStack Query keys, under the wallet's (features/wallet/query-keys.ts): a
 * balance update refreshes the fee, the limits and the recent withdrawals with the balances.
 */
export const withdrawalQueryKeys = {
  fee: (accountId: string, currency: string, network: string, amount: string) =>
    [...walletQueryKeys.all(accountId), 'withdrawal-fee', currency, network, amount] as const,
  minimums: (accountId: string) => [...walletQueryKeys.all(accountId), 'withdrawal-minimums'] as const,
  limits: (accountId: string) => [...walletQueryKeys.all(accountId), 'withdrawal-limits'] as const,
  recent: (accountId: string, limit: number) => [...walletQueryKeys.all(accountId), 'withdrawals', limit] as const,
  status: (accountId: string, id: string) => [...walletQueryKeys.all(accountId), 'withdrawal', id] as const,
};
