import { PENDING_EMAIL_VERIFICATION_STORAGE_KEY } from '@platform/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { emailVerificationPath, postLoginTarget, verificationTokenOf } from '../features/auth/post-login-redirect.ts';
import { useAppStore } from '../state/app-store.ts';
import { json, stubFetch } from '../test/fetch-mock.ts';
import { accountId, makeAccount, makeSession } from '../test/fixtures.ts';
import { renderApp } from '../test/render-app.tsx';

type User = ReturnType<typeof userEvent.setup>;

function stubLoginAndVerification() {
  return stubFetch({
    'POST /v1/auth/login': () => json(200, makeSession()),
    [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount()),
    [`POST /v1/accounts/${accountId}/verify`]: () => json(200, { email_verified: true, sent: false }),
  });
}

async function logInThroughModal(user: User) {
  // The login modal is a lazy chunk (loaded when idle or opened): the first load in a run can take a moment.
  const modal = await screen.findByTestId('login-modal', undefined, { timeout: 5_000 });
  await user.type(within(modal).getByTestId('login-email'), 'ada@example.com');
  await user.type(within(modal).getByTestId('login-password'), 'Str0ng!pass');
  await user.click(within(modal).getByTestId('login-submit'));
  await waitFor(() => expect(useAppStore.getState().isAuthenticated).toBe(true));
}

const location = (router: ReturnType<typeof renderApp>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

describe('after a login from the login guard (spec §2.1)', () => {
  it('verifies an email link opened while signed out once the user logs in', async () => {
    const { calls } = stubLoginAndVerification();
    const { router, user } = renderApp('/settings?verify=tok-123');
    // The guard still sends the user to / and asks them to log in, now with the modal open. The
    // home screen is a lazy chunk: the first load in a run can take a moment.
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5_000 });
    // The toasts' code loads with the first toast (lib/lazy-toast.ts): it can take a moment.
    expect(await screen.findByText('Please login to continue', undefined, { timeout: 5_000 })).toBeInTheDocument();
    expect(await screen.findByTestId('login-modal', undefined, { timeout: 5_000 })).toBeInTheDocument();
    expect(sessionStorage.getItem(PENDING_EMAIL_VERIFICATION_STORAGE_KEY)).toBe('tok-123');

    await logInThroughModal(user);

    // The settings screen is a lazy chunk: the first load in a run can take a moment.
    expect(await screen.findByText('Email verified', undefined, { timeout: 5_000 })).toBeInTheDocument();
    const verify = calls.find((call) => call.method === 'POST' && call.path.endsWith('/verify'));
    expect(verify?.body).toEqual({ token: 'tok-123' });
    await waitFor(() => expect(location(router)).toBe('/settings?section=security'));
    expect(sessionStorage.getItem(PENDING_EMAIL_VERIFICATION_STORAGE_KEY)).toBeNull();
    expect(screen.queryByTestId('login-modal')).not.toBeInTheDocument();
  });

  it('goes to the guarded page the user asked for', async () => {
    stubLoginAndVerification();
    const { router, user } = renderApp('/wallet');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5_000 });
    expect(useAppStore.getState().loginReturnPath).toBe('/wallet');
    await logInThroughModal(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
    expect(useAppStore.getState().loginReturnPath).toBeNull();
    // A dismissed toast leaves the page after its exit animation (react-hot-toast: 1 s).
    await waitFor(() => expect(screen.queryByText('Please login to continue')).not.toBeInTheDocument(), {
      timeout: 5_000,
    });
  });

  it('keeps the query of the page asked for', async () => {
    stubLoginAndVerification();
    const { router, user } = renderApp('/settings?section=appearance');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5_000 });
    await logInThroughModal(user);
    await waitFor(() => expect(location(router)).toBe('/settings?section=appearance'));
    expect(screen.queryByText('Email verified')).not.toBeInTheDocument();
  });

  it('forgets the page when the modal is closed, so a later login stays put', async () => {
    stubLoginAndVerification();
    const { router, user } = renderApp('/wallet');
    await screen.findByTestId('login-modal');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('login-modal')).not.toBeInTheDocument());
    expect(useAppStore.getState().loginReturnPath).toBeNull();

    await user.click(screen.getByTestId('login-button'));
    await logInThroughModal(user);
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('keeps a verification link through a dismissed modal until the next login in the tab', async () => {
    const { calls } = stubLoginAndVerification();
    const { router, user } = renderApp('/settings?verify=tok-456');
    await screen.findByTestId('login-modal');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('login-modal')).not.toBeInTheDocument());
    expect(sessionStorage.getItem(PENDING_EMAIL_VERIFICATION_STORAGE_KEY)).toBe('tok-456');

    await user.click(screen.getByTestId('login-button'));
    await logInThroughModal(user);
    // The settings screen is a lazy chunk: the first load in a run can take a moment.
    expect(await screen.findByText('Email verified', undefined, { timeout: 5_000 })).toBeInTheDocument();
    expect(calls.find((call) => call.path.endsWith('/verify'))?.body).toEqual({ token: 'tok-456' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
  });
});

describe('post-login target', () => {
  it('reads the token of a verification link only', () => {
    expect(verificationTokenOf('/settings', '?verify=abc')).toBe('abc');
    expect(verificationTokenOf('/settings', '?section=security')).toBeNull();
    expect(verificationTokenOf('/settings', '?verify=')).toBeNull();
    expect(verificationTokenOf('/wallet', '?verify=abc')).toBeNull();
  });

  it('puts a pending verification before the page the guard turned away from', () => {
    expect(postLoginTarget('t1', '/wallet')).toBe('/settings?verify=t1');
    expect(postLoginTarget(null, '/wallet')).toBe('/wallet');
    expect(postLoginTarget(null, null)).toBeNull();
  });

  it('encodes the token into the settings link', () => {
    expect(emailVerificationPath('a+b/c=')).toBe('/settings?verify=a%2Bb%2Fc%3D');
    expect(new URLSearchParams(emailVerificationPath('a+b/c=').split('?')[1]).get('verify')).toBe('a+b/c=');
  });
});
