import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '../../components/shell/app-toaster.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount, makeSession } from '../../test/fixtures.ts';
import { LoginModal } from './login-modal.tsx';

/** One message per sign-in outcome (issue 13): a success replaces the failure before it. */
describe('login modal toasts', () => {
  it('a failed attempt then a successful one leaves only "Login successful!"', async () => {
    stubFetch({
      'POST /v1/auth/login': [
        () => errorResponse(401, 'INVALID_CREDENTIALS', 'Invalid credentials'),
        () => json(200, makeSession()),
      ],
      [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount()),
    });
    useAppStore.getState().openModal('login');
    const user = userEvent.setup();
    render(
      <>
        <LoginModal />
        <AppToaster />
      </>,
    );
    await user.type(screen.getByTestId('login-email'), 'ada@example.com');
    await user.type(screen.getByTestId('login-password'), 'wrong-pass1');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Invalid credentials')).toBeInTheDocument();

    await user.clear(screen.getByTestId('login-password'));
    await user.type(screen.getByTestId('login-password'), 'Str0ng!pass');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Invalid credentials')).not.toBeInTheDocument());
    expect(screen.getAllByRole('status').filter((toast) => toast.textContent?.includes('Login'))).toHaveLength(1);
  });
});
