import { ROUTE_PREFETCH_MARGIN_PX } from '@platform/contracts';
import { type RefObject, useEffect, useRef } from 'react';
import { prefetchPath } from './route-modules.ts';

/** Spec §9: a link's screen is prefetched once the link comes within 50px of the viewport. */
export const ROUTE_PREFETCH_ROOT_MARGIN = `${ROUTE_PREFETCH_MARGIN_PX}px`;

/**
 * Calls onNear once, the first time the element comes within the prefetch margin of the viewport.
 * Returns a function that stops watching. Without IntersectionObserver (jsdom, old browsers) it
 * does nothing: hovering and focusing a link still prefetch.
 */
export function whenNearViewport(element: Element, onNear: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  let done = false;
  const observer = new IntersectionObserver(
    (entries) => {
      if (done || !entries.some((entry) => entry.isIntersecting)) return;
      done = true;
      observer.disconnect();
      onNear();
    },
    { rootMargin: ROUTE_PREFETCH_ROOT_MARGIN },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

/**
 * A ref for a navigation link: its route's lazy chunk loads when the link nears the viewport. A
 * ref object and an effect rather than a ref callback, because Link merges refs and drops a
 * callback's cleanup.
 */
export function usePrefetchWhenNear<T extends Element>(path: string): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    return whenNearViewport(element, () => prefetchPath(path));
  }, [path]);
  return ref;
}
