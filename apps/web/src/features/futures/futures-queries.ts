import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { futuresApi } from '../../api/futures.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';

/**
 * The futures screen's reads. Public ones (markets, tiers, mark) poll slowly as a back-up to the
 * socket; the account's reads run only while signed in and refresh on the user channels
 * (use-futures-live.ts), with a poll behind them. A failed read retries twice before it shows.
 */

export const futuresKeys = {
  all: ['futures'] as const,
  markets: () => ['futures', 'markets'] as const,
  tiers: (market: string) => ['futures', 'tiers', market] as const,
  mark: (market: string) => ['futures', 'mark', market] as const,
  account: (accountId: string) => ['futures', 'account', accountId] as const,
  mine: (accountId: string) => ['futures', 'mine', accountId] as const,
  positions: (accountId: string) => ['futures', 'mine', accountId, 'positions'] as const,
  settings: (accountId: string) => ['futures', 'mine', accountId, 'settings'] as const,
  orders: (accountId: string, status: 'open' | 'closed') => ['futures', 'mine', accountId, 'orders', status] as const,
  fills: (accountId: string) => ['futures', 'mine', accountId, 'fills'] as const,
  income: (accountId: string) => ['futures', 'mine', accountId, 'income'] as const,
};

const RETRY = 2;
export const FUTURES_POLL_MS = 15_000;
export const MARK_POLL_MS = 5_000;

export function useFuturesMarkets() {
  return useQuery({
    queryKey: futuresKeys.markets(),
    queryFn: futuresApi.markets,
    retry: RETRY,
    refetchInterval: FUTURES_POLL_MS,
    staleTime: 5_000,
  });
}

export function useFuturesTiers(market: string) {
  return useQuery({ queryKey: futuresKeys.tiers(market), queryFn: () => futuresApi.tiers(market), retry: RETRY });
}

export function useMarkPrice(market: string) {
  return useQuery({
    queryKey: futuresKeys.mark(market),
    queryFn: () => futuresApi.mark(market),
    retry: RETRY,
    refetchInterval: MARK_POLL_MS,
  });
}

function useAccountQuery<T>(key: (accountId: string) => readonly unknown[], read: () => Promise<T>) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: key(accountId ?? ''),
    queryFn: read,
    enabled: accountId !== null,
    retry: RETRY,
    refetchInterval: FUTURES_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

export const useFuturesAccount = () => useAccountQuery(futuresKeys.account, futuresApi.account);
export const usePositions = () => useAccountQuery(futuresKeys.positions, futuresApi.positions);
export const useFuturesSettings = () => useAccountQuery(futuresKeys.settings, futuresApi.settings);
export const useOpenFuturesOrders = () =>
  useAccountQuery(
    (id) => futuresKeys.orders(id, 'open'),
    () => futuresApi.orders('open', { limit: 100 }),
  );
export const useClosedFuturesOrders = () =>
  useAccountQuery(
    (id) => futuresKeys.orders(id, 'closed'),
    () => futuresApi.orders('closed', { limit: 50 }),
  );
export const useFuturesFills = () => useAccountQuery(futuresKeys.fills, () => futuresApi.fills({ limit: 50 }));
export const useFuturesIncome = () => useAccountQuery(futuresKeys.income, () => futuresApi.income({ limit: 50 }));
