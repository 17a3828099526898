import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * True while the element is narrower than `maxWidthPx` (measured before paint, then on every
 * resize). False until measured and where ResizeObserver is missing (component tests).
 */
export function useNarrow(ref: RefObject<HTMLElement | null>, maxWidthPx: number): boolean {
  const [narrow, setNarrow] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = (width: number) => setNarrow(width > 0 && width < maxWidthPx);
    measure(element.getBoundingClientRect().width);
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) measure(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, maxWidthPx]);
  return narrow;
}
