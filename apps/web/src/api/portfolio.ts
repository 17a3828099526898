import {
  type PortfolioHistoryRange,
  type PortfolioSettings,
  portfolioHistorySchema,
  portfolioSettingsSchema,
  portfolioSummarySchema,
} from '@platform/contracts';
import { apiClient } from './http.ts';

/** The portfolio calls of issue 17 (docs/portfolio.md). Every answer is parsed with the contract's schema. */
export const portfolioApi = {
  /** The signed-in account's holdings, futures equity and allocation, valued in USD now. */
  summary: () => apiClient.request('/v1/portfolio', { schema: portfolioSummarySchema }),
  /** The account's stored lot method (fifo until chosen). */
  settings: () => apiClient.request('/v1/portfolio/settings', { schema: portfolioSettingsSchema }),
  /** Stores the lot method of the cost basis, the lots and the tax report. */
  updateSettings: (body: PortfolioSettings) =>
    apiClient.request('/v1/portfolio/settings', { method: 'PUT', body, schema: portfolioSettingsSchema }),
  /** The account's value over a range: recorded snapshots oldest first, then the live value now. */
  history: (range: PortfolioHistoryRange) =>
    apiClient.request(`/v1/portfolio/history?range=${encodeURIComponent(range)}`, { schema: portfolioHistorySchema }),
};
