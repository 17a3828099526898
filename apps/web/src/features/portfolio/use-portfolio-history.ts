import type { PortfolioHistoryRange } from '@platform/contracts';
import { useQuery } from '@tanstack/react-query';
import { portfolioApi } from '../../api/portfolio.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { portfolioKeys } from './use-portfolio.ts';

/**
 * The value-over-time history's key: under the summary's, so under ['wallet', accountId] too:
 * every `balances` socket update re-reads it (its last point is the live value).
 */
export const portfolioHistoryKey = (accountId: string, range: PortfolioHistoryRange) =>
  [...portfolioKeys.summary(accountId), 'history', range] as const;

/** Snapshots are hourly: the history is read again once a minute at most while the card shows. */
export const PORTFOLIO_HISTORY_REFRESH_MS = 60_000;

export function usePortfolioHistory(range: PortfolioHistoryRange) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: portfolioHistoryKey(accountId ?? '', range),
    queryFn: () => portfolioApi.history(range),
    enabled: accountId !== null,
    refetchInterval: PORTFOLIO_HISTORY_REFRESH_MS,
    staleTime: 5_000,
    retry: 1,
  });
}
