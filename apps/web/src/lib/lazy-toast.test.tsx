import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '../components/shell/app-toaster.tsx';
import { dismissToast, showErrorToast, useToastsWanted } from './lazy-toast.ts';

function Wanted() {
  return <span data-testid="toasts-wanted">{String(useToastsWanted())}</span>;
}

describe('toasts loaded on first use (lib/lazy-toast.ts)', () => {
  it('loads nothing to dismiss a toast never shown, then shows a toast and dismisses it', async () => {
    render(
      <>
        <Wanted />
        <AppToaster />
      </>,
    );
    dismissToast('never-shown');
    expect(screen.getByTestId('toasts-wanted')).toHaveTextContent('false');

    act(() => showErrorToast('Please login to continue', { id: 'login-required' }));
    expect(screen.getByTestId('toasts-wanted')).toHaveTextContent('true');
    expect(await screen.findByText('Please login to continue', undefined, { timeout: 5_000 })).toBeInTheDocument();

    // The same id replaces the toast rather than stacking a second one.
    act(() => showErrorToast('Please login to continue', { id: 'login-required' }));
    await waitFor(() => expect(screen.getAllByText('Please login to continue')).toHaveLength(1));

    dismissToast('login-required');
    // A dismissed toast leaves after its exit animation (react-hot-toast: 1 s).
    await waitFor(() => expect(screen.queryByText('Please login to continue')).not.toBeInTheDocument(), {
      timeout: 5_000,
    });
  });
});
