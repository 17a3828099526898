import type { Logger } from '../../../logger.ts';

/** setTimeout cannot wait longer than this; a later deadline is re-armed when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The sandbox's timed transitions: one timer per key (a later arm replaces an earlier one); each
 * task runs tracked, its errors logged, so that close() can wait for work in progress to end.
 */
export class SandboxTimers {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #abort = new AbortController();
  #closed = false;

  constructor(
    private readonly clock: () => Date,
    private readonly log: Logger,
  ) {}

  /** Aborted by close(): deliveries on the way stop at once. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Timers armed now (tests check that close leaves none). */
  get pending(): number {
    return this.#timers.size;
  }

  arm(key: string, at: Date, task: () => Promise<void>): void {
    if (this.#closed) return;
    this.disarm(key);
    const delayMs = Math.min(MAX_TIMER_MS, Math.max(0, at.getTime() - this.clock().getTime()));
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      if (this.#closed) return;
      const run = task()
        .catch((error: unknown) => this.log.error({ err: error, task: key }, 'sandbox timer failed'))
        .finally(() => this.#inflight.delete(run));
      this.#inflight.add(run);
    }, delayMs);
    timer.unref();
    this.#timers.set(key, timer);
  }

  disarm(key: string): void {
    const timer = this.#timers.get(key);
    if (timer) clearTimeout(timer);
    this.#timers.delete(key);
  }

  /** Clears every timer, aborts deliveries on the way and waits for work in progress to end. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#abort.abort();
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }
}
