import { type Watchlist, watchlistSchema } from '@platform/contracts';
import { apiClient } from '../../api/http.ts';

const watchlistPath = (accountId: string) => `/v1/accounts/${encodeURIComponent(accountId)}/watchlist`;

export const watchlistApi = {
  get: (accountId: string) => apiClient.request(watchlistPath(accountId), { schema: watchlistSchema }),
  put: (accountId: string, body: Watchlist) =>
    apiClient.request(watchlistPath(accountId), { method: 'PUT', body, schema: watchlistSchema }),
};
