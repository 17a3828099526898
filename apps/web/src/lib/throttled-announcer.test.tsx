import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveAnnouncement, useThrottledAnnouncement } from '../components/ui/live-announcement.tsx';
import { NotificationAnnouncer } from '../features/notifications/notification-announcer.ts';
import { ThrottledAnnouncer } from './throttled-announcer.ts';

const clock = {
  now: () => Date.now(),
  setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ThrottledAnnouncer', () => {
  it('says the first message at once, then at most one per interval: the newest waiting one', () => {
    const said: string[] = [];
    const announcer = new ThrottledAnnouncer(5_000, (text) => said.push(text), clock);
    announcer.offer('bid 1');
    expect(said).toEqual(['bid 1']);
    // Ticks every 100 ms for 12 s: a message per tick.
    for (let tick = 2; tick <= 121; tick++) {
      vi.advanceTimersByTime(100);
      announcer.offer(`bid ${tick}`);
    }
    // t = 12.0 s: said at 0, 5 s (the newest then, bid 50) and 10 s (bid 100); bid 121 waits for 15 s.
    expect(said).toEqual(['bid 1', 'bid 50', 'bid 100']);
    vi.advanceTimersByTime(3_000);
    expect(said).toEqual(['bid 1', 'bid 50', 'bid 100', 'bid 121']);
  });

  it('does not repeat the message last said, nor say empty ones', () => {
    const said: string[] = [];
    const announcer = new ThrottledAnnouncer(5_000, (text) => said.push(text), clock);
    announcer.offer('same');
    vi.advanceTimersByTime(6_000);
    announcer.offer('same');
    announcer.offer('');
    announcer.offer(null);
    vi.advanceTimersByTime(6_000);
    expect(said).toEqual(['same']);
    // A change that goes back to what was said before it is told is not said either.
    announcer.offer('other');
    announcer.offer('next');
    vi.advanceTimersByTime(1_000);
    expect(said).toEqual(['same', 'other']);
    announcer.offer('other');
    vi.advanceTimersByTime(5_000);
    expect(said).toEqual(['same', 'other']);
  });

  it('says nothing after dispose', () => {
    const said: string[] = [];
    const announcer = new ThrottledAnnouncer(5_000, (text) => said.push(text), clock);
    announcer.offer('a');
    announcer.offer('b');
    announcer.dispose();
    vi.advanceTimersByTime(10_000);
    expect(said).toEqual(['a']);
  });
});

function Region({ message }: { message: string }) {
  return <LiveAnnouncement text={useThrottledAnnouncement(message, 5_000)} testId="region" />;
}

describe('useThrottledAnnouncement in a polite live region', () => {
  it('changes the region at most once per interval however often the price ticks', () => {
    const { rerender } = render(<Region message="price 0" />);
    const region = screen.getByTestId('region');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveAttribute('role', 'status');
    expect(region).toHaveTextContent('price 0');
    const seen = new Set<string>([region.textContent ?? '']);
    for (let tick = 1; tick <= 100; tick++) {
      act(() => {
        vi.advanceTimersByTime(100);
      });
      seen.add(region.textContent ?? '');
      rerender(<Region message={`price ${tick}`} />);
      seen.add(region.textContent ?? '');
    }
    act(() => {
      vi.advanceTimersByTime(5_000);
    });
    seen.add(region.textContent ?? '');
    // 10 s of ticks and 5 s more: the region held 'price 0', then the newest at 5 and 10 s.
    expect([...seen]).toEqual(['price 0', 'price 49', 'price 99', 'price 100']);
    expect(region).toHaveTextContent('price 100');
  });
});

describe('NotificationAnnouncer', () => {
  const describeTitles = (titles: readonly string[]) =>
    titles.length === 1 ? `New notification: ${titles[0]}` : `New notifications: ${titles.length}`;

  it('tells each notification once; a burst as one message', () => {
    const said: string[] = [];
    const announcer = new NotificationAnnouncer(3_000, describeTitles, (text) => said.push(text), clock);
    announcer.add({ id: 'n1', title: 'Order filled' });
    expect(said).toEqual(['New notification: Order filled']);
    // Pushed again (a reconnect reads the list again): not told again.
    announcer.add({ id: 'n1', title: 'Order filled' });
    announcer.add({ id: 'n2', title: 'Order filled' });
    announcer.add({ id: 'n3', title: 'Deposit completed' });
    announcer.add({ id: 'n2', title: 'Order filled' });
    expect(said).toHaveLength(1);
    vi.advanceTimersByTime(3_000);
    expect(said).toEqual(['New notification: Order filled', 'New notifications: 2']);
    vi.advanceTimersByTime(30_000);
    expect(said).toHaveLength(2);
    // Later, alone again: told at once, even with the same title as before.
    announcer.add({ id: 'n4', title: 'Order filled' });
    expect(said).toEqual(['New notification: Order filled', 'New notifications: 2', 'New notification: Order filled']);
  });
});
