import { invariant } from '../../lib/invariant.ts';

/**
 * Rate limits shared by the price adapters: our own request budget towards a provider, and the
 * error a source throws when the provider told it to back off.
 */

/**
 * Thrown by a source when the provider answered "too many requests" (HTTP 429) or banned us
 * (Binance's 418). `retryAt` is when the provider said it will talk to us again; asking earlier
 * only extends a ban, so the chain skips the source until then.
 */
export class RateLimitedError extends Error {
  readonly retryAt: Date;

  constructor(message: string, retryAt: Date) {
    super(message);
    this.name = 'RateLimitedError';
    this.retryAt = retryAt;
  }
}

/**
 * When a response's Retry-After header says to come back: a number of seconds or an HTTP date
 * (RFC 9110 allows both). A missing or unreadable header falls back to `defaultDelayMs`.
 */
export function retryAtFromHeader(header: string | null, now: Date, defaultDelayMs: number): Date {
  if (header !== null && /^\d+$/.test(header.trim())) {
    return new Date(now.getTime() + Number(header.trim()) * 1000);
  }
  const date = header === null ? Number.NaN : Date.parse(header);
  if (Number.isFinite(date) && date > now.getTime()) return new Date(date);
  return new Date(now.getTime() + defaultDelayMs);
}

export type RequestBudgetOptions = {
  /** Most requests allowed in any window of `windowMs` (spec §9: 100 per 60 s). */
  maxRequests: number;
  windowMs: number;
  now: () => Date;
};

/**
 * A sliding-window budget of outgoing requests. It remembers the times of the last `maxRequests`
 * requests only, so its memory is bounded whatever the traffic.
 */
export class RequestBudget {
  readonly #options: RequestBudgetOptions;
  readonly #sentAtMs: number[] = [];

  constructor(options: RequestBudgetOptions) {
    invariant(
      Number.isInteger(options.maxRequests) && options.maxRequests >= 1,
      'RequestBudget: maxRequests must be a positive integer',
    );
    this.#options = options;
  }

  /** Takes one request from the budget; false (and nothing taken) when the window is full. */
  tryTake(): boolean {
    const nowMs = this.#options.now().getTime();
    while (this.#sentAtMs.length > 0 && nowMs - (this.#sentAtMs[0] ?? 0) >= this.#options.windowMs) {
      this.#sentAtMs.shift();
    }
    if (this.#sentAtMs.length >= this.#options.maxRequests) return false;
    this.#sentAtMs.push(nowMs);
    return true;
  }
}
