import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, json, stubFetch } from '../test/fetch-mock.ts';
import { ApiError, createApiClient } from './client.ts';

const toasts = vi.hoisted(() => ({ shown: [] as Array<{ message: string; id: string | undefined }> }));
vi.mock('../lib/lazy-toast.ts', () => ({
  showErrorToast: (message: string, options?: { id?: string }) => toasts.shown.push({ message, id: options?.id }),
}));

const { announceRateLimit, queryRetryDelay, shouldRetryQuery } = await import('./rate-limit.ts');

const refused = (retryAfterMs?: number) =>
  new ApiError(429, 'RATE_LIMITED', 'Too many attempts. Please try again later.', undefined, retryAfterMs);

describe('fair use in the client: a refused read (429)', () => {
  afterEach(() => {
    toasts.shown.length = 0;
    vi.useRealTimers();
  });

  it('carries the Retry-After the server answered with', async () => {
    stubFetch({
      'GET /v1/trading-pairs': () =>
        json(429, { error: { code: 'RATE_LIMITED', message: 'Too many attempts.' } }, { 'Retry-After': '7' }),
    });
    const client = createApiClient({ getAccessToken: () => null, onAccessToken: vi.fn(), onSessionExpired: vi.fn() });
    const failure = await client.request('/v1/trading-pairs').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 7_000 });
  });

  it('is retried once, after the server’s Retry-After (at least a second, at most a minute)', () => {
    expect(shouldRetryQuery(0, refused(5_000))).toBe(true);
    expect(shouldRetryQuery(1, refused(5_000))).toBe(false);
    expect(queryRetryDelay(0, refused(5_000))).toBe(5_000);
    expect(queryRetryDelay(0, refused(0))).toBe(1_000);
    expect(queryRetryDelay(0, refused(3_600_000))).toBe(60_000);
    expect(queryRetryDelay(0, refused())).toBe(1_000);
    expect(queryRetryDelay(0, new ApiError(500, 'INTERNAL_ERROR', 'boom'))).toBe(1_000);
  });

  it('asks the server twice at most and says so once, under one toast id', async () => {
    vi.useFakeTimers();
    const { calls } = stubFetch({
      'GET /v1/ticker/BTC_USD': () => errorResponse(429, 'RATE_LIMITED', 'Too many attempts. Please try again later.'),
    });
    const client = createApiClient({ getAccessToken: () => null, onAccessToken: vi.fn(), onSessionExpired: vi.fn() });
    const { QueryCache } = await import('@tanstack/react-query');
    const queries = new QueryClient({
      queryCache: new QueryCache({ onError: announceRateLimit }),
      defaultOptions: { queries: { retry: shouldRetryQuery, retryDelay: queryRetryDelay } },
    });
    const fetching = queries.fetchQuery({ queryKey: ['ticker'], queryFn: () => client.request('/v1/ticker/BTC_USD') });
    const outcome = fetching.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await outcome).toMatchObject({ status: 429 });
    expect(calls).toHaveLength(2);
    expect(toasts.shown).toEqual([{ message: 'Too many attempts. Please try again later.', id: 'rate-limited' }]);
    announceRateLimit(new ApiError(404, 'NOT_FOUND', 'nope'));
    expect(toasts.shown).toHaveLength(1);
  });
});
