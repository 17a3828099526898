import { errorCatalogue } from '@platform/contracts';
import { showErrorToast } from '../lib/lazy-toast.ts';
import { ApiError } from './client.ts';

/**
 * What the client does when the server's fair use refuses a call (429 RATE_LIMITED, docs/fair-use.md):
 * a read is asked again once, after the Retry-After the server gave, never in a tight loop; and the
 * user is told once per refusal, not once per refused query.
 */

/** Longest wait honoured before the one retry: a window is a minute at most. */
const MAX_RETRY_AFTER_MS = 60_000;
/** Reads retry once, as before (React Query's default backoff for other failures). */
const QUERY_RETRIES = 1;
/** The toast's id: refusals that arrive together replace one message instead of stacking. */
const RATE_LIMITED_TOAST_ID = 'rate-limited';

export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 429;
}

export function shouldRetryQuery(failureCount: number, _error: unknown): boolean {
  return failureCount < QUERY_RETRIES;
}

/** A refused read waits what the server asked (at least a second); others back off as React Query does. */
export function queryRetryDelay(attempt: number, error: unknown): number {
  if (isRateLimited(error)) return Math.min(Math.max(error.retryAfterMs ?? 1_000, 1_000), MAX_RETRY_AFTER_MS);
  return Math.min(1_000 * 2 ** attempt, 30_000);
}

/** The catalogue's RATE_LIMITED message, shown once for refusals that arrive together. */
export function announceRateLimit(error: unknown): void {
  if (!isRateLimited(error)) return;
  showErrorToast(error.message || errorCatalogue.RATE_LIMITED.message, { id: RATE_LIMITED_TOAST_ID });
}
