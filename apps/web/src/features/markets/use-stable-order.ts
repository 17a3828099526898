import { useEffect, useMemo, useRef, useState } from 'react';

/** Rows re-sort on their own at most this often while prices tick (spec: no jumping rows). */
export const RESORT_INTERVAL_MS = 5_000;

/**
 * The items in an order that holds still while their values change: it is recomputed at once when
 * `sortKey` changes (the user picked another sort, filter or search) or the set of items changes,
 * and otherwise only every `intervalMs`, and not while `paused` (the pointer is over the list).
 */
export function useStableOrder<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  sort: (items: readonly T[]) => T[],
  sortKey: string,
  paused = false,
  intervalMs = RESORT_INTERVAL_MS,
): T[] {
  const latest = useRef({ items, sort, idOf });
  latest.current = { items, sort, idOf };
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => {
      if (!pausedRef.current) setTick((value) => value + 1);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);

  const membership = items.map(idOf).sort().join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the order follows the sort, the membership and the clock, deliberately not every price tick
  const order = useMemo(() => {
    const current = latest.current;
    return current.sort(current.items).map(current.idOf);
  }, [sortKey, membership, tick]);

  return useMemo(() => {
    const byId = new Map(items.map((item) => [idOf(item), item]));
    return order.flatMap((id) => {
      const item = byId.get(id);
      return item === undefined ? [] : [item];
    });
  }, [order, items, idOf]);
}
