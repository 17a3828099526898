import {
  TOAST_DEFAULT_DURATION_MS,
  TOAST_ERROR_DURATION_MS,
  TOAST_SUCCESS_DURATION_MS,
  TOP_BAR_HEIGHT_PX,
} from '@platform/contracts';
import { Toaster } from 'react-hot-toast';

/** Toasts follow the theme through its CSS variables. */
const toastStyle = {
  border: 'var(--effect-border-width) solid var(--color-border)',
  borderRadius: 'var(--radius-lg)',
  background: 'var(--color-surface-raised)',
  color: 'var(--color-text)',
  boxShadow: 'var(--shadow-lg)',
  fontSize: 'var(--font-size-md)',
  maxWidth: '380px',
};

/**
 * Spec §4 and §9: toasts at the top right; success 2 s, error and blank 4 s, loading until
 * dismissed. react-hot-toast shows at most 20 at once by default, the spec's limit.
 */
export function AppToaster() {
  return (
    <Toaster
      position="top-right"
      containerStyle={{ top: TOP_BAR_HEIGHT_PX + 8 }}
      toastOptions={{
        duration: TOAST_DEFAULT_DURATION_MS,
        style: toastStyle,
        success: { duration: TOAST_SUCCESS_DURATION_MS },
        error: { duration: TOAST_ERROR_DURATION_MS },
      }}
    />
  );
}
