import { type AnalyticsQuery, analyticsSchema } from '@platform/contracts';
import { apiClient } from './http.ts';
import { withQuery } from './wallet.ts';

/** The analytics call of issue 17 (docs/analytics.md), parsed with the contract's schema. */
export const analyticsApi = {
  /** The signed-in account's trading figures over a period of UTC days (both ends included). */
  analytics: (query: Partial<Pick<AnalyticsQuery, 'from' | 'to'>>) =>
    apiClient.request(withQuery('/v1/analytics', { from: query.from, to: query.to }), { schema: analyticsSchema }),
};
