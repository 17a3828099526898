import { useEffect, useRef, useState } from 'react';
import { ThrottledAnnouncer } from '../../lib/throttled-announcer.ts';

/**
 * The text a polite live region should hold for a message that may change on every tick: it changes
 * at most once per `intervalMs` (ThrottledAnnouncer), so a screen reader speaks a summary now and
 * then, never every update.
 */
export function useThrottledAnnouncement(message: string | null, intervalMs: number): string {
  const [said, setSaid] = useState('');
  const announcer = useRef<ThrottledAnnouncer | null>(null);
  useEffect(() => {
    const created = new ThrottledAnnouncer(intervalMs, setSaid);
    announcer.current = created;
    return () => created.dispose();
  }, [intervalMs]);
  useEffect(() => {
    announcer.current?.offer(message);
  }, [message]);
  return said;
}

/** A visually hidden polite live region (role status): what it holds is read out when it changes. */
export function LiveAnnouncement({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid={testId}>
      {text}
    </div>
  );
}
