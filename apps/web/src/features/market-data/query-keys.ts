/** The TanStack Query keys of the market data's HTTP reads (the streams keep their own state). */
export const marketQueryKeys = {
  tradingPairs: () => ['market', 'trading-pairs'] as const,
  statistics: (pairId: string) => ['market', 'statistics', pairId] as const,
  sparkline: (pairId: string) => ['market', 'sparkline', pairId] as const,
  candles: (pairId: string, range: string) => ['market', 'candles', pairId, range] as const,
};
