/** Every TanStack Query key of the client, in one place. */
export const queryKeys = {
  account: (accountId: string) => ['account', accountId] as const,
  tradingPairs: () => ['market', 'trading-pairs'] as const,
  marketStatistics: (pairId: string) => ['market', 'statistics', pairId] as const,
  sparkline: (pairId: string) => ['market', 'sparkline', pairId] as const,
  watchlist: (accountId: string) => ['watchlist', accountId] as const,
};
