import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount, makeSession } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';

const CODES = ['abcde-12345', 'fghjk-67890', 'mnpqr-23456', 'stvwx-34567', 'yz012-45678'];
const base = `/v1/accounts/${accountId}`;

function signIn(overrides: Parameters<typeof makeAccount>[0] = {}) {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount(overrides));
}

const sessionsAnswer = {
  sessions: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      ip: '127.0.0.1',
      created_at: '2026-11-20T10:00:00.000Z',
      last_used_at: '2026-11-25T10:00:00.000Z',
      current: true,
    },
    {
      id: '22222222-2222-4222-8222-222222222222',
      user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1',
      ip: '10.0.0.7',
      created_at: '2026-11-21T10:00:00.000Z',
      last_used_at: '2026-11-24T10:00:00.000Z',
      current: false,
    },
  ],
};

async function openSecurity() {
  const rendered = renderApp('/settings?section=security');
  // The settings screen is a lazy chunk: the first load in a run can take a moment.
  await screen.findByTestId('change-password-form', undefined, { timeout: 5_000 });
  return rendered;
}

describe('Settings > Security', { timeout: 20_000 }, () => {
  it('keeps the user signed in on a wrong 2FA code and shows the error at the field', async () => {
    const { calls } = stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount()),
      'GET /v1/auth/sessions': () => json(200, sessionsAnswer),
      [`POST ${base}/2fa/enable`]: [
        () => json(200, { two_factor_enabled: false, secret: 'ABC', otpauth_url: 'otpauth://x', qr_code: 'data:,' }),
        () => errorResponse(403, 'TWO_FACTOR_CODE_INVALID', 'Invalid two-factor authentication code'),
      ],
    });
    signIn();
    const { user } = await openSecurity();
    await user.click(screen.getByTestId('settings-2fa-enable'));
    await user.type(await screen.findByTestId('settings-2fa-code'), '123456');
    await user.click(screen.getByTestId('settings-2fa-confirm'));

    expect(await screen.findByText('Invalid two-factor authentication code')).toBeInTheDocument();
    expect(useAppStore.getState().isAuthenticated).toBe(true);
    expect(useAppStore.getState().accessToken).toBe('token');
    expect(calls.some((call) => call.path === '/v1/auth/refresh')).toBe(false);
    expect(screen.getByTestId('settings-2fa-code')).toBeInTheDocument();
  });

  it('shows the recovery codes once after enabling, until the user says they saved them', async () => {
    stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount()),
      'GET /v1/auth/sessions': () => json(200, sessionsAnswer),
      [`POST ${base}/2fa/enable`]: [
        () => json(200, { two_factor_enabled: false, secret: 'ABC', otpauth_url: 'otpauth://x', qr_code: 'data:,' }),
        () => json(200, { two_factor_enabled: true, recovery_codes: CODES }),
      ],
    });
    signIn();
    const { user } = await openSecurity();
    await user.click(screen.getByTestId('settings-2fa-enable'));
    await user.type(await screen.findByTestId('settings-2fa-code'), '123456');
    await user.click(screen.getByTestId('settings-2fa-confirm'));

    const notice = await screen.findByTestId('recovery-codes');
    expect(
      within(notice)
        .getAllByTestId('recovery-code-item')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    const done = within(notice).getByTestId('recovery-codes-done');
    expect(done).toBeDisabled();
    await user.click(within(notice).getByLabelText('I saved these codes somewhere safe'));
    await user.click(done);
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
    expect(screen.queryByText(CODES[0]!)).not.toBeInTheDocument();
    expect(screen.getByTestId('settings-2fa-status')).toHaveTextContent('Two-factor authentication is on');
  });

  it('changes the password and goes on with the new session; a wrong current password shows at its field', async () => {
    const { calls } = stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount()),
      'GET /v1/auth/sessions': () => json(200, sessionsAnswer),
      [`POST ${base}/password`]: [
        () => errorResponse(403, 'CURRENT_PASSWORD_INVALID', 'Current password is incorrect'),
        () => json(200, makeSession('new-token')),
      ],
    });
    signIn();
    const { user } = await openSecurity();
    await user.type(screen.getByTestId('current-password'), 'Old&Passw0rd');
    await user.type(screen.getByTestId('new-password'), 'N3w&Better!pass');
    await user.type(screen.getByTestId('confirm-new-password'), 'N3w&Better!pass');
    await user.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(useAppStore.getState().isAuthenticated).toBe(true);

    await user.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(useAppStore.getState().accessToken).toBe('new-token');
    expect(calls.filter((call) => call.path.endsWith('/password')).at(-1)?.body).toEqual({
      current_password: 'Old&Passw0rd',
      new_password: 'N3w&Better!pass',
    });
  });

  it('checks the new password by the register rules before sending', async () => {
    const { calls } = stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount()),
      'GET /v1/auth/sessions': () => json(200, sessionsAnswer),
    });
    signIn();
    const { user } = await openSecurity();
    await user.type(screen.getByTestId('current-password'), 'Old&Passw0rd');
    await user.type(screen.getByTestId('new-password'), 'weakpass');
    await user.type(screen.getByTestId('confirm-new-password'), 'weakpass2');
    await user.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('Password must contain at least one uppercase letter')).toBeInTheDocument();
    expect(screen.getByText('Passwords must match')).toBeInTheDocument();
    expect(calls.some((call) => call.path.endsWith('/password'))).toBe(false);
  });

  it('asks a 2FA account for its code to change the password', async () => {
    stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount({ two_factor_enabled: true })),
      'GET /v1/auth/sessions': () => json(200, sessionsAnswer),
      [`POST ${base}/password`]: () =>
        errorResponse(403, 'TWO_FACTOR_CODE_INVALID', 'Invalid two-factor authentication code'),
    });
    signIn({ two_factor_enabled: true });
    const { user } = await openSecurity();
    await user.type(screen.getByTestId('current-password'), 'Old&Passw0rd');
    await user.type(screen.getByTestId('new-password'), 'N3w&Better!pass');
    await user.type(screen.getByTestId('confirm-new-password'), 'N3w&Better!pass');
    await user.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('Two-factor code is required')).toBeInTheDocument();
    await user.type(screen.getByTestId('change-password-code'), '654321');
    await user.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('Invalid two-factor authentication code')).toBeInTheDocument();
    expect(useAppStore.getState().isAuthenticated).toBe(true);
  });

  it('lists sessions with the current one marked, and signs out everywhere else', async () => {
    const { calls } = stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount()),
      'GET /v1/auth/sessions': [
        () => json(200, sessionsAnswer),
        () => json(200, { sessions: [sessionsAnswer.sessions[0]] }),
      ],
      'POST /v1/auth/sessions/revoke-others': () => json(200, { revoked: 1, token: 'fresh-token', expires_in: 900 }),
    });
    signIn();
    const { user } = await openSecurity();
    const rows = await screen.findAllByTestId('session-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Chrome on Linux')).toBeInTheDocument();
    expect(within(rows[0]!).getByTestId('session-current')).toHaveTextContent('This device');
    expect(within(rows[0]!).queryByTestId('session-revoke')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('Safari on iOS')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('IP 10.0.0.7')).toBeInTheDocument();

    await user.click(screen.getByTestId('sessions-revoke-others'));
    expect(await screen.findByText('Signed out of 1 other session')).toBeInTheDocument();
    expect(useAppStore.getState().accessToken).toBe('fresh-token');
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(screen.getByTestId('sessions-revoke-others')).toBeDisabled();
    expect(calls.some((call) => call.path === '/v1/auth/refresh')).toBe(false);
  });

  it('signs one other session out', async () => {
    const { calls } = stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount()),
      'GET /v1/auth/sessions': () => json(200, sessionsAnswer),
      [`POST /v1/auth/sessions/${sessionsAnswer.sessions[1]!.id}/revoke`]: () =>
        json(200, { revoked: 1, token: 'fresh-token', expires_in: 900 }),
    });
    signIn();
    const { user } = await openSecurity();
    const rows = await screen.findAllByTestId('session-row');
    await user.click(within(rows[1]!).getByTestId('session-revoke'));
    expect(await screen.findByText('The session was signed out')).toBeInTheDocument();
    expect(calls.some((call) => call.path.endsWith('/revoke'))).toBe(true);
    expect(useAppStore.getState().accessToken).toBe('fresh-token');
  });

  it('has no password form for a wallet account', async () => {
    const wallet = { wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7', wallet_type: 'ethereum' as const };
    stubFetch({
      [`GET ${base}`]: () => json(200, makeAccount(wallet)),
      'GET /v1/auth/sessions': () => json(200, sessionsAnswer),
    });
    signIn(wallet);
    renderApp('/settings?section=security');
    expect(
      await screen.findByText('This account signs in with a wallet and has no password.', undefined, {
        timeout: 5_000,
      }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('change-password-form')).not.toBeInTheDocument();
  });
});
