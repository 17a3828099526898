import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queryKeys } from '../../api/query-keys.ts';
import { type PageRequest, type WalletTransactionsFilter, walletApi } from '../../api/wallet.ts';
import { useAppStore } from '../../state/app-store.ts';

/**
 * How often the balances are read again while a page shows them. The product socket has a
 * `balances` user channel, but its client (features/market-data/product-socket.ts) does not
 * authenticate its connection yet (no {type:'auth'} is ever sent), so user channels are closed to
 * it. Until it does, balances refresh on window focus and every 30 s, the spec's fallback cadence
 * for live data (§9 price polling), and right after a transfer ends.
 */
export const WALLET_BALANCES_REFRESH_MS = 30_000;

/** Rows per page of the histories. */
export const WALLET_HISTORY_PAGE_SIZE = 20;

/** The signed-in account's id, or null. */
export function useSignedInAccountId(): string | null {
  return useAppStore((state) => (state.isAuthenticated ? (state.user?.id ?? null) : null));
}

export function useWalletBalances() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: queryKeys.walletBalances(accountId ?? ''),
    queryFn: walletApi.balances,
    enabled: accountId !== null,
    refetchInterval: WALLET_BALANCES_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
}

export function useWalletTransactions(filter: WalletTransactionsFilter) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: queryKeys.walletTransactions(accountId ?? '', filter),
    queryFn: () => walletApi.transactions(filter),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useTransferHistory(page: PageRequest) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: queryKeys.walletTransfers(accountId ?? '', page),
    queryFn: () => walletApi.transferHistory(page),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Marks balances and both histories stale (a transfer ended, a send was accepted). */
export function useInvalidateWallet(): () => void {
  const queryClient = useQueryClient();
  const accountId = useSignedInAccountId();
  return useCallback(() => {
    if (accountId) void queryClient.invalidateQueries({ queryKey: queryKeys.wallet(accountId) });
  }, [queryClient, accountId]);
}
