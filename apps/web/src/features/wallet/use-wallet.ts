import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { type PageRequest, type WalletTransactionsFilter, walletApi } from '../../api/wallet.ts';
import { useAppStore } from '../../state/app-store.ts';
import { getMarketData } from '../market-data/index.ts';
import { walletQueryKeys } from './query-keys.ts';

/**
 * How often the balances are read again while a page shows them, in case the socket is down:
 * live changes arrive through the socket's `balances` channel (useLiveBalances); this is the
 * spec's fallback cadence for live data (§9 price polling).
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
    queryKey: walletQueryKeys.balances(accountId ?? ''),
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
    queryKey: walletQueryKeys.transactions(accountId ?? '', filter),
    queryFn: () => walletApi.transactions(filter),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useTransferHistory(page: PageRequest) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: walletQueryKeys.transfers(accountId ?? '', page),
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
    if (accountId) void queryClient.invalidateQueries({ queryKey: walletQueryKeys.all(accountId) });
  }, [queryClient, accountId]);
}

/**
 * Live balances (spec §7.6 balance_update): while signed in, the product socket proves the
 * account with the access token (again after each refresh) and listens on the `balances` user
 * channel; each update marks the wallet's queries stale, so every view of a balance reads the
 * ledger again. Mounted once, in the shell.
 */
export function useLiveBalances(): void {
  const accountId = useSignedInAccountId();
  const token = useAppStore((state) => state.accessToken);
  const queryClient = useQueryClient();
  useEffect(() => {
    const { socket } = getMarketData();
    if (accountId === null || token === null) {
      socket.authenticate(null);
      return;
    }
    socket.authenticate(token);
    socket.connect();
  }, [accountId, token]);
  useEffect(() => {
    if (accountId === null) return;
    const { socket } = getMarketData();
    return socket.subscribe('balances', () => {
      void queryClient.invalidateQueries({ queryKey: walletQueryKeys.all(accountId) });
    });
  }, [accountId, queryClient]);
}
