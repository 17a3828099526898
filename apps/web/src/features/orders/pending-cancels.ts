import { create } from 'zustand';
import { CANCEL_UNDO_MS } from '../../state/preferences-store.ts';

/**
 * Cancels that wait for an undo (Settings > Preferences, "Cancel after 5 seconds, with an undo").
 * An exchange cannot take a cancel back, and re-placing the order would lose its place in the
 * queue and could fill differently: so the undo window comes BEFORE the cancel is sent. Nothing
 * reaches the server until the time is up; an undo within it simply forgets the cancel.
 *
 * The timers live here, not in a component, so that leaving the page section (a tab, a narrower
 * layout) does not lose a cancel the user asked for; closing or leaving the page sends the waiting
 * ones at once.
 */

interface PendingCancelsState {
  /** Order id -> the time (ms since epoch) its cancel will be sent. */
  sendAt: Readonly<Record<string, number>>;
}

export const usePendingCancels = create<PendingCancelsState>(() => ({ sendAt: {} }));

const waiting = new Map<string, { timer: ReturnType<typeof setTimeout>; send: () => void }>();

function forget(orderId: string): void {
  waiting.delete(orderId);
  usePendingCancels.setState((state) => {
    const { [orderId]: _dropped, ...rest } = state.sendAt;
    return { sendAt: rest };
  });
}

/** Sends `send` after `delayMs` unless undone; a second request for the same order is ignored. */
export function scheduleCancel(orderId: string, send: () => void, delayMs = CANCEL_UNDO_MS): void {
  if (waiting.has(orderId)) return;
  const timer = setTimeout(() => {
    forget(orderId);
    send();
  }, delayMs);
  waiting.set(orderId, { timer, send });
  usePendingCancels.setState((state) => ({ sendAt: { ...state.sendAt, [orderId]: Date.now() + delayMs } }));
}

/** Forgets a waiting cancel; false when there was none (already sent, or never asked). */
export function undoCancel(orderId: string): boolean {
  const entry = waiting.get(orderId);
  if (!entry) return false;
  clearTimeout(entry.timer);
  forget(orderId);
  return true;
}

/** Sends every waiting cancel now (the page is going away: the user's cancel must not be lost). */
export function flushCancels(): void {
  for (const [orderId, entry] of [...waiting]) {
    clearTimeout(entry.timer);
    forget(orderId);
    entry.send();
  }
}

/** Forgets every waiting cancel without sending it (tests start clean). */
export function undoAllCancels(): void {
  for (const orderId of [...waiting.keys()]) undoCancel(orderId);
}

export function isCancelPending(orderId: string): boolean {
  return waiting.has(orderId);
}

globalThis.addEventListener?.('pagehide', flushCancels);
