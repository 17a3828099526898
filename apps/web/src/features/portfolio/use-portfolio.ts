import { useQuery } from '@tanstack/react-query';
import { portfolioApi } from '../../api/portfolio.ts';
import { walletQueryKeys } from '../wallet/query-keys.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';

/**
 * The portfolio's TanStack Query keys. The summary sits under the wallet's prefix on purpose: every
 * `balances` socket update (useLiveBalances, mounted in the shell) invalidates ['wallet', id], so a
 * fill, a deposit or a transfer re-reads the portfolio at once; the poll below moves it with prices.
 */
export const portfolioKeys = {
  summary: (accountId: string) => [...walletQueryKeys.all(accountId), 'portfolio'] as const,
};

/**
 * How often the summary is read again while the screen is open: prices move without a balance
 * changing, and the server values the holdings at the live reference prices on every read (one
 * query at most, docs/portfolio.md "Performance").
 */
export const PORTFOLIO_REFRESH_MS = 10_000;

export function usePortfolioSummary() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: portfolioKeys.summary(accountId ?? ''),
    queryFn: portfolioApi.summary,
    enabled: accountId !== null,
    refetchInterval: PORTFOLIO_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 2_000,
    retry: 1,
  });
}
