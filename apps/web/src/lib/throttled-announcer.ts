/**
 * Screen-reader announcements at a bounded rate (docs/accessibility.md): a live market would
 * otherwise speak on every tick. The first message is said at once; later ones wait until
 * `intervalMs` has passed since the last, and only the newest waiting message is then said, and only
 * if it differs from the last one said.
 */

export interface AnnouncerClock {
  now: () => number;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realClock: AnnouncerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ThrottledAnnouncer {
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastText: string | null = null;
  private pending: string | null = null;
  private timer: unknown = null;

  constructor(
    private readonly intervalMs: number,
    private readonly announce: (text: string) => void,
    private readonly clock: AnnouncerClock = realClock,
  ) {}

  /** A message to say; an empty one, or the one last said with nothing newer waiting, says nothing. */
  offer(text: string | null | undefined): void {
    if (!text) return;
    if (this.timer !== null) {
      this.pending = text;
      return;
    }
    if (text === this.lastText) return;
    const wait = this.lastAt + this.intervalMs - this.clock.now();
    if (wait <= 0) {
      this.say(text);
      return;
    }
    this.pending = text;
    this.timer = this.clock.setTimeout(() => this.flush(), wait);
  }

  dispose(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }

  private flush(): void {
    this.timer = null;
    const text = this.pending;
    this.pending = null;
    if (text !== null && text !== this.lastText) this.say(text);
  }

  private say(text: string): void {
    this.lastText = text;
    this.lastAt = this.clock.now();
    this.announce(text);
  }
}
