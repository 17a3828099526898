/**
 * A worker that takes its queue in batches when kicked: batches run until one comes back short,
 * one run at a time, and a kick during a run asks for another round after it, so nothing kicked is
 * missed. A failed run is reported and retried after `retryMs`. The transfer settler and the
 * payout processor both run on it.
 */
export class BatchLoop {
  #running = false;
  #again = false;
  #stopped = false;
  #wake: NodeJS.Timeout | null = null;
  #idleWaiters: (() => void)[] = [];

  constructor(
    private readonly options: {
      /** One batch; answers how many items it took. */
      batch: () => Promise<number>;
      batchSize: number;
      retryMs: number;
      failed: (error: unknown) => void;
      /** Called once a run has emptied the queue: where a wake-up (later) for what is due next is set. */
      drained?: () => Promise<void>;
    },
  ) {}

  get stopped(): boolean {
    return this.#stopped;
  }

  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#wake) {
      clearTimeout(this.#wake);
      this.#wake = null;
    }
    this.#running = true;
    void this.#loop();
  }

  /** A kick in `delayMs`, in place of any wake-up already set. */
  later(delayMs: number): void {
    if (this.#stopped) return;
    if (this.#wake) clearTimeout(this.#wake);
    this.#wake = setTimeout(
      () => {
        this.#wake = null;
        this.kick();
      },
      Math.max(0, delayMs),
    );
    this.#wake.unref();
  }

  /** Resolves once no run is in progress. */
  idle(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#wake) clearTimeout(this.#wake);
    await this.idle();
  }

  async #loop(): Promise<void> {
    const { batch, batchSize } = this.options;
    try {
      do {
        this.#again = false;
        while (!this.#stopped && (await batch()) === batchSize) {}
      } while (this.#again && !this.#stopped);
      await this.options.drained?.();
    } catch (error) {
      this.options.failed(error);
      this.later(this.options.retryMs);
    } finally {
      this.#running = false;
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}
