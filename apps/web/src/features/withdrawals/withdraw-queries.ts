import type { Withdrawal, WithdrawalFeeEstimate, WithdrawalNetwork } from '@platform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { accountsApi } from '../../api/accounts.ts';
import { withdrawalsApi } from '../../api/withdrawals.ts';
import { useAppStore } from '../../state/app-store.ts';
import { ESTIMATE_DEBOUNCE_MS } from '../payments/deposit-queries.ts';
import { settingsQueryKeys } from '../settings/query-keys.ts';
import { useDebouncedValue } from '../wallet/use-timers.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { withdrawalQueryKeys } from './query-keys.ts';
import { localMinimumWithdrawal, localWithdrawalFee } from './withdraw-form.ts';

/**
 * The withdrawal screen's reads, with spec §7.8's fallbacks: a fee estimate or minimums that cannot
 * be read give way to §9's local schedule. Keys live under the wallet's, so a balance update from
 * the socket refreshes them too.
 */

/** How often a withdrawal that is still pending is read again (the provider walks it in steps). */
export const WITHDRAWAL_POLL_INTERVAL_MS = 2_000;
export const RECENT_WITHDRAWALS_LIMIT = 5;

export type FeeEstimateView = WithdrawalFeeEstimate & { source: 'server' | 'local' };

export async function feeEstimateOrDefault(
  currency: string,
  amount: string,
  network?: WithdrawalNetwork | null,
): Promise<FeeEstimateView | null> {
  try {
    return { ...(await withdrawalsApi.feeEstimate(currency, amount, network?.network)), source: 'server' };
  } catch {
    const local = localWithdrawalFee(currency, amount, network);
    return local ? { ...local, source: 'local' } : null;
  }
}

/** The fee of `amount` (null while there is no amount to ask about). */
export function useWithdrawalFee(currency: string, amount: string | null, network?: WithdrawalNetwork | null) {
  const accountId = useSignedInAccountId();
  const settled = useDebouncedValue(amount, ESTIMATE_DEBOUNCE_MS);
  return useQuery({
    queryKey: withdrawalQueryKeys.fee(accountId ?? '', currency, network?.network ?? '', settled ?? ''),
    queryFn: () => feeEstimateOrDefault(currency, settled ?? '', network),
    enabled: accountId !== null && settled !== null && settled === amount,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
}

export interface MinimumsView {
  minimums: Readonly<Record<string, string>>;
  default: string | null;
  source: 'server' | 'local';
}

export async function minimumsOrDefault(): Promise<MinimumsView> {
  try {
    return { ...(await withdrawalsApi.minimumAmounts()), source: 'server' };
  } catch {
    return { minimums: {}, default: null, source: 'local' };
  }
}

/** The minimum per currency: the server's, else §9's. */
export function useWithdrawalMinimums(): (currency: string) => string {
  const accountId = useSignedInAccountId();
  const query = useQuery({
    queryKey: withdrawalQueryKeys.minimums(accountId ?? ''),
    queryFn: minimumsOrDefault,
    enabled: accountId !== null,
    staleTime: 5 * 60_000,
  });
  const data = query.data;
  return useCallback(
    (currency: string) => {
      const code = currency.trim().toUpperCase();
      return data?.minimums[code] ?? data?.default ?? localMinimumWithdrawal(code);
    },
    [data],
  );
}

export function useWithdrawalLimits() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: withdrawalQueryKeys.limits(accountId ?? ''),
    queryFn: withdrawalsApi.limits,
    enabled: accountId !== null,
    retry: false,
  });
}

export function useRecentWithdrawals() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: withdrawalQueryKeys.recent(accountId ?? '', RECENT_WITHDRAWALS_LIMIT),
    queryFn: () => withdrawalsApi.list({ limit: RECENT_WITHDRAWALS_LIMIT, page: 1 }),
    enabled: accountId !== null,
    refetchInterval: (query) =>
      query.state.data?.withdrawals.some((withdrawal) => withdrawal.status === 'pending')
        ? WITHDRAWAL_POLL_INTERVAL_MS
        : false,
  });
}

/** One withdrawal, read again every 2 s until it is completed or failed. */
export function useWithdrawalStatus(initial: Withdrawal) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: withdrawalQueryKeys.status(accountId ?? '', initial.id),
    queryFn: () => withdrawalsApi.status(initial.id),
    enabled: accountId !== null,
    initialData: initial,
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? WITHDRAWAL_POLL_INTERVAL_MS : false),
    retry: 2,
  });
}

/**
 * Whether the account has two-factor on, read fresh from the account (it may have been switched on
 * in another tab since the login stored it); the stored account answers until then.
 */
export function useTwoFactorEnabled(): boolean {
  const user = useAppStore((state) => state.user);
  const setUser = useAppStore((state) => state.setUser);
  useQuery({
    queryKey: settingsQueryKeys.account(user?.id ?? 'anonymous'),
    enabled: user !== null,
    queryFn: async () => {
      if (!user) return null;
      const account = await accountsApi.get(user.id);
      if (account.two_factor_enabled !== useAppStore.getState().user?.two_factor_enabled) setUser(account);
      return account;
    },
  });
  return user?.two_factor_enabled ?? false;
}
