/**
 * A worker's pass run again and again: `intervalMs` after the previous one ended (never two at
 * once), from start() until stop(), which waits for a pass in progress. A failed pass is reported
 * to `failed` and the next one still runs on time.
 */
export class RepeatingPass {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** The first pass runs `firstDelayMs` from now. */
  start(firstDelayMs: number): void {
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass()
        .catch(this.failed)
        .finally(() => {
          this.running = null;
          this.schedule(this.intervalMs);
        });
    }, delayMs);
    this.timer.unref?.();
  }
}
