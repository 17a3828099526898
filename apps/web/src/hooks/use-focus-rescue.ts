import { type RefObject, useEffect } from 'react';

/** What was focused last inside the container: its test id and the row (data-order-id) it sat in. */
interface LastFocus {
  testId: string | null;
  rowId: string | null;
}

const usable = (element: Element | null | undefined): element is HTMLElement =>
  element instanceof HTMLElement && !(element as HTMLButtonElement).disabled && element.isConnected;

function rescue(root: HTMLElement, remembered: LastFocus): void {
  const active = document.activeElement;
  if (active !== null && active !== document.body && active !== root) return;
  const same = remembered.testId ? root.querySelector(`[data-testid="${CSS.escape(remembered.testId)}"]`) : null;
  if (usable(same)) {
    same.focus();
    return;
  }
  if (active === root) return;
  const row = remembered.rowId ? root.querySelector(`[data-order-id="${CSS.escape(remembered.rowId)}"]`) : null;
  const inRow = Array.from(row?.querySelectorAll('button') ?? []).find(usable);
  (inRow ?? root).focus();
}

/**
 * Keyboard users keep their place when the control they pressed goes away (a cancel button swapped
 * for its undo, a row removed, a dialog closing onto a button still disabled): when the focus has
 * fallen to the page body, it goes back to the same control, or another in its row, or the container
 * (tabIndex -1) itself; once the control it left is usable again, it moves back onto it.
 */
export function useFocusRescue(container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    let remembered: LastFocus | null = null;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || target === root) return;
      remembered = {
        testId: target.dataset.testid ?? null,
        rowId: target.closest<HTMLElement>('[data-order-id]')?.dataset.orderId ?? null,
      };
    };
    // A mouse click elsewhere ends the rescue: the user has moved on.
    const onPointerDown = (event: PointerEvent) => {
      if (!(event.target instanceof Node && root.contains(event.target))) remembered = null;
    };
    const observer = new MutationObserver(() => {
      if (remembered) rescue(root, remembered);
    });
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
    root.addEventListener('focusin', onFocusIn);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      observer.disconnect();
      root.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [container]);
}
