import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CANCEL_UNDO_MS } from '../../state/preferences-store.ts';
import { flushCancels, isCancelPending, scheduleCancel, undoCancel, usePendingCancels } from './pending-cancels.ts';

describe('cancels with an undo window', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends nothing during the window, then sends once', () => {
    const send = vi.fn();
    scheduleCancel('order-1', send);
    expect(CANCEL_UNDO_MS).toBe(5_000);
    expect(usePendingCancels.getState().sendAt['order-1']).toBe(Date.now() + 5_000);
    vi.advanceTimersByTime(4_999);
    expect(send).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(isCancelPending('order-1')).toBe(false);
    expect(usePendingCancels.getState().sendAt).toEqual({});
    vi.advanceTimersByTime(60_000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('an undo within the window means the cancel is never sent', () => {
    const send = vi.fn();
    scheduleCancel('order-2', send);
    vi.advanceTimersByTime(3_000);
    expect(undoCancel('order-2')).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(send).not.toHaveBeenCalled();
    expect(usePendingCancels.getState().sendAt).toEqual({});
  });

  it('an undo after the cancel went says so (false): nothing is re-placed', () => {
    const send = vi.fn();
    scheduleCancel('order-3', send);
    vi.advanceTimersByTime(5_000);
    expect(undoCancel('order-3')).toBe(false);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('a second click does not schedule a second cancel', () => {
    const send = vi.fn();
    scheduleCancel('order-4', send);
    vi.advanceTimersByTime(2_000);
    scheduleCancel('order-4', send);
    vi.advanceTimersByTime(3_000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('leaving the page sends the waiting cancels at once', () => {
    const first = vi.fn();
    const second = vi.fn();
    scheduleCancel('order-5', first);
    scheduleCancel('order-6', second);
    window.dispatchEvent(new Event('pagehide'));
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    flushCancels();
    expect(first).toHaveBeenCalledTimes(1);
  });
});
