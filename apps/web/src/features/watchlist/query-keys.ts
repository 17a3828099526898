/** The watchlist's TanStack Query key (one list per account). */
export const watchlistQueryKeys = {
  list: (accountId: string) => ['watchlist', accountId] as const,
};
