import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { depositsApi } from '../../api/payments.ts';
import { useDebouncedValue } from '../wallet/use-timers.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { type DepositEstimateView, localDepositEstimate } from './deposit-model.ts';
import { paymentQueryKeys } from './query-keys.ts';

/**
 * The deposit screen's reads. Their keys (./query-keys.ts) live under the wallet's, so a balance
 * update from the socket, which marks the wallet stale, refreshes them too.
 */

/** How long typing settles before an estimate is asked for. */
export const ESTIMATE_DEBOUNCE_MS = 300;
/** How often the recent deposits are read while one of them is still pending. */
export const DEPOSITS_POLL_INTERVAL_MS = 3_000;
export const RECENT_DEPOSITS_LIMIT = 5;

export function useDepositAddress(currency: string, network: string | null) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: paymentQueryKeys.depositAddress(accountId ?? '', currency, network ?? ''),
    queryFn: () => depositsApi.address(currency, network ?? undefined),
    enabled: accountId !== null && currency !== '',
    // An address stays the account's: no need to ask again while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** Spec §7.8: when the estimate cannot be read, the local default (deposits are free) stands in. */
export async function depositEstimateOrDefault(currency: string, amount: string): Promise<DepositEstimateView> {
  try {
    return { ...(await depositsApi.estimate(currency, amount)), source: 'server' };
  } catch {
    return localDepositEstimate(currency, amount);
  }
}

export function useDepositEstimate(currency: string, amount: string | null) {
  const accountId = useSignedInAccountId();
  const settled = useDebouncedValue(amount, ESTIMATE_DEBOUNCE_MS);
  return useQuery({
    queryKey: paymentQueryKeys.depositEstimate(accountId ?? '', currency, settled ?? ''),
    queryFn: () => depositEstimateOrDefault(currency, settled ?? ''),
    enabled: accountId !== null && settled !== null && settled === amount,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
}

export function useRecentDeposits() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: paymentQueryKeys.recentDeposits(accountId ?? '', RECENT_DEPOSITS_LIMIT),
    queryFn: () => depositsApi.history({ limit: RECENT_DEPOSITS_LIMIT, page: 1 }),
    enabled: accountId !== null,
    refetchInterval: (query) =>
      query.state.data?.deposits.some((deposit) => deposit.status === 'pending') ? DEPOSITS_POLL_INTERVAL_MS : false,
    refetchOnWindowFocus: true,
  });
}

/** A checkout deposit, read every 2 s while it is pending. */
export function useCheckoutDeposit(id: string) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: paymentQueryKeys.checkoutDeposit(accountId ?? '', id),
    queryFn: () => depositsApi.checkout(id),
    enabled: accountId !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'completed' || query.state.data?.status === 'failed' ? false : 2_000,
  });
}
