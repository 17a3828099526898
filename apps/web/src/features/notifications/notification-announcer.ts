import { create } from 'zustand';
import type { AnnouncerClock } from '../../lib/throttled-announcer.ts';

/** New notifications are told to screen readers at most this often; those meanwhile are told together. */
export const NOTIFICATION_ANNOUNCE_INTERVAL_MS = 3_000;

const realClock: AnnouncerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Each new notification is announced once (a notification pushed again, or read again after a
 * reconnect, is not): the first at once, the ones that follow within the interval together, as one
 * message ('New notification: Order filled', or '3 new notifications').
 */
export class NotificationAnnouncer {
  private readonly seen = new Set<string>();
  private waiting: string[] = [];
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: unknown = null;

  constructor(
    private readonly intervalMs: number,
    private readonly describe: (titles: readonly string[]) => string,
    private readonly announce: (text: string) => void,
    private readonly clock: AnnouncerClock = realClock,
  ) {}

  add(notification: { id: string; title: string }): void {
    if (this.seen.has(notification.id)) return;
    this.seen.add(notification.id);
    this.waiting.push(notification.title);
    if (this.timer !== null) return;
    const wait = this.lastAt + this.intervalMs - this.clock.now();
    if (wait <= 0) this.flush();
    else this.timer = this.clock.setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = null;
    if (this.waiting.length === 0) return;
    const text = this.describe(this.waiting);
    this.waiting = [];
    this.lastAt = this.clock.now();
    this.announce(text);
  }
}

/** What the notification live region holds; `count` tells two equal messages apart. */
export const useNotificationAnnouncement = create<{ text: string; count: number }>(() => ({ text: '', count: 0 }));

export function announceNotificationText(text: string): void {
  useNotificationAnnouncement.setState((state) => ({ text, count: state.count + 1 }));
}
