import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '../../components/shell/app-toaster.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount, makeSession } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { LoginModal } from './login-modal.tsx';

function renderOpenModal() {
  useAppStore.getState().openModal('login');
  const user = userEvent.setup();
  render(
    <>
      <LoginModal />
      <AppToaster />
    </>,
  );
  return user;
}

describe('forgot password and recovery codes in the login modal', { timeout: 20_000 }, () => {
  it('mails a reset link and answers the same whatever the email', async () => {
    const { calls } = stubFetch({ 'POST /v1/auth/password-reset/request': () => json(202, { requested: true }) });
    const user = renderOpenModal();
    await user.type(screen.getByTestId('login-email'), 'ada@example.com');
    await user.click(screen.getByTestId('forgot-password-link'));
    // The email typed so far carries over.
    expect(screen.getByTestId('forgot-password-email')).toHaveValue('ada@example.com');
    await user.click(screen.getByTestId('forgot-password-submit'));
    expect(await screen.findByText(/If an account exists for ada@example.com/)).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ email: 'ada@example.com' });
    await user.click(screen.getByTestId('forgot-password-back'));
    expect(screen.getByTestId('login-email')).toBeInTheDocument();
  });

  it('checks the email before asking', async () => {
    const { calls } = stubFetch({});
    const user = renderOpenModal();
    await user.click(screen.getByTestId('forgot-password-link'));
    await user.click(screen.getByTestId('forgot-password-submit'));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('signs in with a recovery code instead of the app code', async () => {
    const { calls } = stubFetch({
      'POST /v1/auth/login': [
        () => errorResponse(401, 'TWO_FACTOR_REQUIRED', 'Two-factor authentication required'),
        () => errorResponse(401, 'TWO_FACTOR_INVALID', 'Invalid two-factor authentication code'),
        () => json(200, makeSession()),
      ],
      [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount({ two_factor_enabled: true })),
    });
    const user = renderOpenModal();
    await user.type(screen.getByTestId('login-email'), 'ada@example.com');
    await user.type(screen.getByTestId('login-password'), 'Str0ng!pass');
    await user.click(screen.getByTestId('login-submit'));
    await user.click(await screen.findByTestId('two-factor-recovery-toggle'));
    const field = screen.getByTestId('recovery-code');
    await user.type(field, 'abc');
    await user.click(screen.getByTestId('recovery-code-submit'));
    expect(await screen.findByText('Recovery codes look like abcde-12345')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'ABCDE 12345');
    await user.click(screen.getByTestId('recovery-code-submit'));
    expect(await screen.findByText('Invalid two-factor authentication code')).toBeInTheDocument();
    await user.click(screen.getByTestId('recovery-code-submit'));
    await waitFor(() => expect(useAppStore.getState().isAuthenticated).toBe(true));
    expect(calls.filter((call) => call.path === '/v1/auth/login').at(-1)?.body).toEqual({
      login_type: 'email',
      email: 'ada@example.com',
      password: 'Str0ng!pass',
      recovery_code: 'abcde-12345',
    });
  });
});

describe('the password reset page', { timeout: 20_000 }, () => {
  it('sets a new password from the link, ends this browser session, and offers to log in', async () => {
    const { calls } = stubFetch({
      'POST /v1/auth/password-reset/confirm': () => json(200, { password_reset: true }),
    });
    useAppStore.getState().setAccessToken('token');
    useAppStore.getState().setUser(makeAccount());
    const { user, router } = renderApp('/reset-password?token=tok-1');
    const password = await screen.findByTestId('reset-password', undefined, { timeout: 5_000 });
    await user.type(password, 'short');
    await user.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, 'N3w&Better!pass');
    await user.type(screen.getByTestId('reset-confirm-password'), 'N3w&Better!pass');
    await user.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByTestId('reset-done')).toBeInTheDocument();
    expect(calls.at(-1)?.body).toEqual({ token: 'tok-1', password: 'N3w&Better!pass' });
    expect(useAppStore.getState().isAuthenticated).toBe(false);

    await user.click(screen.getByTestId('reset-log-in'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(useAppStore.getState().showLoginModal).toBe(true);
  });

  it("says so when the link is used or expired, in the server's words", async () => {
    stubFetch({
      'POST /v1/auth/password-reset/confirm': () =>
        errorResponse(400, 'RESET_TOKEN_INVALID', 'This password reset link is invalid or has expired'),
    });
    const { user } = renderApp('/reset-password?token=used');
    await user.type(await screen.findByTestId('reset-password', undefined, { timeout: 5_000 }), 'N3w&Better!pass');
    await user.type(screen.getByTestId('reset-confirm-password'), 'N3w&Better!pass');
    await user.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByText('This password reset link is invalid or has expired')).toBeInTheDocument();
    expect(screen.getByText('Request a new link')).toBeInTheDocument();
  });

  it('needs the link: no token, no form', async () => {
    renderApp('/reset-password');
    expect(
      await screen.findByText('This page needs the link from the password reset email.', undefined, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('reset-password')).not.toBeInTheDocument();
  });
});
