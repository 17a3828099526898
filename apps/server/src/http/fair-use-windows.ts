/**
 * Fixed-window counters, the way Binance meters its API: a one-minute window starts on every
 * whole minute of the server clock and its count starts again from zero at the next one, so a
 * client can tell from the clock alone when its budget frees (Retry-After).
 *
 * The counts live in this process's memory. Behind a load balancer each node meters on its own
 * (a client spread over N nodes gets up to N budgets); the scale-out path is the same counters in
 * Redis (INCRBY + PEXPIREAT on `key:windowStart`), behind this same interface.
 */
export type WindowCount = {
  /** Weight already counted in the current window. */
  used: number;
  /** Whether the call's weight fits the budget on top of it. */
  accepted: boolean;
  /** Milliseconds until the current window ends and the count starts again. */
  msUntilReset: number;
};

/**
 * Keys seen in one window, at most. One key per client address or account: past this many in a
 * single window (an attack from a botnet's worth of addresses) the oldest windows are dropped,
 * which only forgives clients, never refuses one wrongly, while memory stays bounded.
 */
export const MAX_KEYS_PER_WINDOW = 100_000;

export class FixedWindowCounter {
  private windowStartMs = Number.NEGATIVE_INFINITY;
  private counts = new Map<string, number>();

  constructor(
    readonly windowMs: number,
    private readonly maxKeys = MAX_KEYS_PER_WINDOW,
  ) {}

  /** Whether `weight` more fits the key's `limit` in the current window; counts nothing. */
  check(key: string, weight: number, limit: number, nowMs: number): WindowCount {
    this.roll(nowMs);
    const used = this.counts.get(key) ?? 0;
    return { used, accepted: used + weight <= limit, msUntilReset: this.windowStartMs + this.windowMs - nowMs };
  }

  /** Adds `weight` to the key's count in the current window and returns the new count. */
  add(key: string, weight: number, nowMs: number): number {
    this.roll(nowMs);
    const used = (this.counts.get(key) ?? 0) + weight;
    if (!this.counts.has(key) && this.counts.size >= this.maxKeys) this.counts.clear();
    this.counts.set(key, used);
    return used;
  }

  /** How many keys the current window holds (tests check that old windows are let go). */
  get size(): number {
    return this.counts.size;
  }

  /** A new window forgets every count of the previous one: old keys expire all at once. */
  private roll(nowMs: number): void {
    const start = nowMs - (nowMs % this.windowMs);
    if (start === this.windowStartMs) return;
    this.windowStartMs = start;
    this.counts = new Map();
  }
}
