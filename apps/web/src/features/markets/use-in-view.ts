import { type RefObject, useEffect, useState } from 'react';

/** Rows this far below the fold already load, so their charts are there when scrolled to. */
const IN_VIEW_MARGIN = '200px';

/**
 * True once the element has come near the viewport, and from then on (loaded data stays). Where
 * IntersectionObserver is missing (old browsers, tests) everything counts as visible.
 */
export function useInView(ref: RefObject<Element | null>): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: IN_VIEW_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}
