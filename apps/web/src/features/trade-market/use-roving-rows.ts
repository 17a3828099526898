import { type FocusEvent, type KeyboardEvent, useCallback, useState } from 'react';

/**
 * One tab stop for a list of row buttons (a book side, the trade tape): Tab enters at the active
 * row, the arrow keys, Home and End move between rows. Rows are keyed by `data-row-key`, so focus
 * follows a price as the live list reorders around it.
 */
export function useRovingRows(rowKeys: readonly string[], defaultKey: string | undefined) {
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const current = activeKey !== null && rowKeys.includes(activeKey) ? activeKey : defaultKey;

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLElement>) => {
    const moves: Record<string, (index: number, count: number) => number> = {
      ArrowDown: (index, count) => Math.min(count - 1, index + 1),
      ArrowUp: (index) => Math.max(0, index - 1),
      Home: () => 0,
      End: (_index, count) => count - 1,
    };
    const move = moves[event.key];
    if (!move) return;
    const rows = [...event.currentTarget.querySelectorAll<HTMLElement>('[data-row-key]')];
    const index = rows.indexOf(document.activeElement as HTMLElement);
    if (index === -1 || rows.length === 0) return;
    event.preventDefault();
    rows[move(index, rows.length)]?.focus();
  }, []);

  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const key = event.target.getAttribute('data-row-key');
    if (key !== null) setActiveKey(key);
  }, []);

  return {
    tabIndexOf: (key: string) => (key === current ? 0 : -1),
    containerProps: { onKeyDown, onFocus },
  };
}
