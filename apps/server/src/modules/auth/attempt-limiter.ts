/**
 * Counts failed attempts per key (an email, an account id) in a fixed window and refuses further
 * attempts once the budget is spent. It complements the per-IP limits: an attacker spreading
 * guesses for one account over many addresses still meets this one. It lives in memory, so with
 * several nodes each node keeps its own budget (a shared store would be the next step).
 */
export type AttemptLimit = { maxFailures: number; windowMs: number };

/** Above this many tracked keys, expired entries are swept, then the oldest dropped: memory stays bounded. */
const MAX_TRACKED_KEYS = 100_000;

type Entry = { failures: number; windowStartMs: number };

export class AttemptLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limit: AttemptLimit,
    private readonly clock: () => Date,
  ) {}

  /** Seconds until the key may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string): number {
    const entry = this.liveEntry(key);
    if (!entry || entry.failures < this.limit.maxFailures) return 0;
    return Math.max(1, Math.ceil((entry.windowStartMs + this.limit.windowMs - this.nowMs()) / 1000));
  }

  recordFailure(key: string): void {
    const entry = this.liveEntry(key);
    if (entry) {
      entry.failures++;
      return;
    }
    if (this.entries.size >= MAX_TRACKED_KEYS) this.evict();
    this.entries.set(key, { failures: 1, windowStartMs: this.nowMs() });
  }

  /** A success forgives earlier mistakes of the same key. */
  reset(key: string): void {
    this.entries.delete(key);
  }

  private liveEntry(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.nowMs() >= entry.windowStartMs + this.limit.windowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private evict(): void {
    const now = this.nowMs();
    for (const [key, entry] of this.entries) {
      if (now >= entry.windowStartMs + this.limit.windowMs) this.entries.delete(key);
    }
    // Map keeps insertion order: when nothing has expired, the oldest window goes first.
    const oldest = this.entries.keys().next();
    if (this.entries.size >= MAX_TRACKED_KEYS && !oldest.done) this.entries.delete(oldest.value);
  }

  private nowMs(): number {
    return this.clock().getTime();
  }
}
