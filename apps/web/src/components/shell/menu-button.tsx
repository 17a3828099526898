import clsx from 'clsx';
import { type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { useDismiss } from '../../hooks/use-dismiss.ts';

interface MenuButtonProps {
  label: string;
  /** Content of the trigger button. */
  trigger: ReactNode;
  triggerClassName?: string;
  testId?: string;
  panelClassName?: string;
  children: (close: () => void) => ReactNode;
}

/** A trigger with a popover panel that closes on outside press and Escape. */
export function MenuButton({ label, trigger, triggerClassName, testId, panelClassName, children }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);
  return (
    <div className="menu" ref={ref}>
      <button
        type="button"
        className={clsx('icon-button', triggerClassName)}
        aria-label={label}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid={testId}
        onClick={() => setOpen((current) => !current)}
      >
        {trigger}
      </button>
      {open ? (
        <div id={panelId} className={clsx('menu-panel', panelClassName)}>
          {children(close)}
        </div>
      ) : null}
    </div>
  );
}
