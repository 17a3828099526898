import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { analyticsApi } from '../../api/analytics.ts';
import { walletQueryKeys } from '../wallet/query-keys.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import type { PeriodRange } from './analytics-model.ts';

/**
 * The analytics' TanStack Query keys, under the wallet's prefix on purpose: every `balances` socket
 * update invalidates ['wallet', id], so a fill or a funding payment re-reads the figures at once.
 */
export const analyticsKeys = {
  period: (accountId: string, range: PeriodRange) => [...walletQueryKeys.all(accountId), 'analytics', range] as const,
};

export function useAnalytics(range: PeriodRange) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: analyticsKeys.period(accountId ?? '', range),
    queryFn: () => analyticsApi.analytics(range),
    enabled: accountId !== null,
    // A new period keeps the last figures on screen until its own arrive.
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: 1,
  });
}
