import { useCallback, useSyncExternalStore } from 'react';

/**
 * One MediaQueryList per query, and a subscribe function per query: a live panel (the order book)
 * reads it on every render, and a new list or subscription each time showed in its frame budget.
 */
const lists = new Map<string, MediaQueryList>();

function mediaQueryList(query: string): MediaQueryList | null {
  if (typeof window.matchMedia !== 'function') return null;
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/** True while the media query matches; false where matchMedia is missing (tests, old browsers). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (listener: () => void) => {
      const list = mediaQueryList(query);
      list?.addEventListener('change', listener);
      return () => list?.removeEventListener('change', listener);
    },
    [query],
  );
  const read = () => mediaQueryList(query)?.matches ?? false;
  return useSyncExternalStore(subscribe, read, () => false);
}
