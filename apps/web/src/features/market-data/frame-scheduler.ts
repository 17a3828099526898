/**
 * Coalesces store notifications to at most one per animation frame: a feed may apply 20 or more
 * socket updates a second, and React needs to see only the latest picture when the screen paints.
 * Tests hand in their own scheduler to flush by hand.
 */
export type FrameScheduler = (callback: () => void) => () => void;

/** The fallback frame when there is no requestAnimationFrame (a worker, or some test setups). */
const FALLBACK_FRAME_MS = 16;

export const animationFrameScheduler: FrameScheduler = (callback) => {
  if (typeof globalThis.requestAnimationFrame === 'function') {
    const handle = globalThis.requestAnimationFrame(() => callback());
    return () => globalThis.cancelAnimationFrame(handle);
  }
  const timer = setTimeout(callback, FALLBACK_FRAME_MS);
  return () => clearTimeout(timer);
};

type Listener = () => void;

/**
 * Listeners notified at most once a frame after `markChanged`. `onFlush` runs first, so a store can
 * build its immutable view once per frame rather than once per update.
 */
export class FrameThrottledSignal {
  private readonly listeners = new Set<Listener>();
  private cancelFrame: (() => void) | null = null;

  constructor(
    private readonly schedule: FrameScheduler,
    private readonly onFlush: () => void,
  ) {}

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  markChanged(): void {
    if (this.cancelFrame) return;
    this.cancelFrame = this.schedule(() => this.flush());
  }

  /** Publishes now (the end of a test step, or a snapshot that should show at once). */
  flush(): void {
    this.cancelFrame?.();
    this.cancelFrame = null;
    this.onFlush();
    for (const listener of [...this.listeners]) listener();
  }

  dispose(): void {
    this.cancelFrame?.();
    this.cancelFrame = null;
    this.listeners.clear();
  }
}
