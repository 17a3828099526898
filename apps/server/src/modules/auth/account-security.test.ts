import { expect, it } from 'vitest';
import { readOutbox } from '../../adapters/mailer/outbox-mailer.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { PASSWORD_RESET_TOKEN_TTL_MS } from './password-reset.ts';
import { SESSION_VERSION_CACHE_MS } from './session-versions.ts';
import {
  currentCode,
  emailLogin,
  ethereumWallet,
  type Session,
  STRONG_PASSWORD,
  setCookie,
  signedChallenge,
  signUp,
  uniqueEmail,
  walletRegister,
} from './test-support.ts';

const STEP_MS = 30_000;
const NEW_PASSWORD = 'N3w&Better!pass';

/** Turns 2FA on for a fresh account; returns its secret and recovery codes. */
async function withTwoFactor(server: TestServer) {
  const user = await signUp(server);
  const path = `/v1/accounts/${user.session.account_id}/2fa/enable`;
  const setup = await server.request('POST', path, { token: user.session.token, body: {} });
  const secret: string = setup.body.secret;
  const confirmed = await server.request('POST', path, {
    token: user.session.token,
    body: { code: currentCode(server, secret) },
  });
  expect(confirmed.status).toBe(200);
  server.clock.advance(STEP_MS);
  return { ...user, secret, recoveryCodes: confirmed.body.recovery_codes as string[] };
}

const wrongCodeFor = (server: TestServer, secret: string) =>
  String((Number(currentCode(server, secret)) + 500_000) % 1_000_000).padStart(6, '0');

const getAccount = (server: TestServer, session: Session) =>
  server.request('GET', `/v1/accounts/${session.account_id}`, { token: session.token });

const refresh = (server: TestServer, refreshToken: string) =>
  server.request('POST', '/v1/auth/refresh', { body: { refresh_token: refreshToken } });

/** The reset mail is written after the answer: wait for it. */
async function resetMailFor(server: TestServer, email: string, count = 1) {
  for (let i = 0; i < 100; i++) {
    const mails = (await readOutbox(server.config.outboxDir)).filter(
      (mail) => mail.to === email && mail.subject === 'Reset your password',
    );
    if (mails.length >= count) return mails[count - 1]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no reset mail for ${email}`);
}

const tokenOf = (mail: { text: string }) => {
  const link = /(http\S+\/reset-password\?token=(\S+))/.exec(mail.text);
  if (!link) throw new Error('no link in the mail');
  return { link: link[1]!, token: decodeURIComponent(link[2]!) };
};

const requestReset = (server: TestServer, email: string) =>
  server.request('POST', '/v1/auth/password-reset/request', { body: { email } });
const confirmReset = (server: TestServer, token: string, password = NEW_PASSWORD) =>
  server.request('POST', '/v1/auth/password-reset/confirm', { body: { token, password } });

describeEachDatabase(
  'account security',
  (server) => {
    // -------------------------------------------------------------------------------------------
    // A wrong 2FA code in Settings is not a 401
    // -------------------------------------------------------------------------------------------

    it('answers a wrong 2FA code in Settings (enable and disable) with 403, and the session lives on', async () => {
      const { session } = await signUp(server());
      const enable = `/v1/accounts/${session.account_id}/2fa/enable`;
      const setup = await server().request('POST', enable, { token: session.token, body: {} });
      const secret: string = setup.body.secret;
      const wrong = await server().request('POST', enable, {
        token: session.token,
        body: { code: wrongCodeFor(server(), secret) },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({
        error: { code: 'TWO_FACTOR_CODE_INVALID', message: 'Invalid two-factor authentication code' },
      });
      expect((await getAccount(server(), session)).status).toBe(200);

      const on = await server().request('POST', enable, {
        token: session.token,
        body: { code: currentCode(server(), secret) },
      });
      expect(on.status).toBe(200);
      server().clock.advance(STEP_MS);
      const disable = `/v1/accounts/${session.account_id}/2fa/disable`;
      const wrongOff = await server().request('POST', disable, {
        token: session.token,
        body: { code: wrongCodeFor(server(), secret) },
      });
      expect(wrongOff.status).toBe(403);
      expect(wrongOff.body.error.code).toBe('TWO_FACTOR_CODE_INVALID');
      const wrongRecovery = await server().request('POST', disable, {
        token: session.token,
        body: { recovery_code: 'aaaaa-aaaaa' },
      });
      expect(wrongRecovery.status).toBe(403);
      expect((await getAccount(server(), session)).body.two_factor_enabled).toBe(true);
      // The refresh token is untouched too.
      expect((await refresh(server(), session.refresh_token)).status).toBe(200);
    });

    // -------------------------------------------------------------------------------------------
    // Recovery codes
    // -------------------------------------------------------------------------------------------

    it('shows ten recovery codes once when 2FA goes on, stored only as hashes', async () => {
      const { session, recoveryCodes } = await withTwoFactor(server());
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
      const stored = await server().db.query<{ code_hash: string }>(
        'SELECT code_hash FROM two_factor_recovery_codes WHERE account_id = $1',
        [session.account_id],
      );
      expect(stored.rows).toHaveLength(10);
      const hashes = stored.rows.map((row) => row.code_hash).join(' ');
      for (const code of recoveryCodes) expect(hashes).not.toContain(code.replace('-', ''));
      // Nothing else ever shows them again.
      expect(JSON.stringify((await getAccount(server(), session)).body)).not.toContain(recoveryCodes[0]);
    });

    it('signs in with a recovery code instead of a TOTP code, each code once, in any case and spacing', async () => {
      const { email, password, recoveryCodes } = await withTwoFactor(server());
      const login = (recovery_code: string) =>
        server().request('POST', '/v1/auth/login', {
          body: { login_type: 'email', email, password, recovery_code },
        });
      const typed = recoveryCodes[0]!.toUpperCase().replace('-', ' ');
      expect((await login(typed)).status).toBe(200);
      const again = await login(recoveryCodes[0]!);
      expect(again.status).toBe(401);
      expect(again.body.error.code).toBe('TWO_FACTOR_INVALID');
      expect((await login('zzzzz-zzzzz')).status).toBe(401);
      expect((await login(recoveryCodes[1]!)).status).toBe(200);
      // A wrong password is still wrong with a valid recovery code.
      const wrongPassword = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email, password: 'Wr0ng!Password', recovery_code: recoveryCodes[2] },
      });
      expect(wrongPassword.body.error.code).toBe('INVALID_CREDENTIALS');
    });

    it('counts wrong recovery codes against the sign-in failure limit', async () => {
      const { email, password, recoveryCodes } = await withTwoFactor(server());
      for (let i = 0; i < 10; i++) {
        const wrong = await server().request('POST', '/v1/auth/login', {
          body: { login_type: 'email', email, password, recovery_code: `wrong-code${i}` },
        });
        expect(wrong.status).toBe(401);
      }
      const limited = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email, password, recovery_code: recoveryCodes[0] },
      });
      expect(limited.status).toBe(429);
    });

    it('turns 2FA off with a recovery code, and renews codes with a TOTP code', async () => {
      const first = await withTwoFactor(server());
      const renew = `/v1/accounts/${first.session.account_id}/2fa/recovery-codes`;
      const renewed = await server().request('POST', renew, {
        token: first.session.token,
        body: { code: currentCode(server(), first.secret) },
      });
      expect(renewed.status).toBe(200);
      expect(renewed.body.recovery_codes).toHaveLength(10);
      const wrongRenew = await server().request('POST', renew, {
        token: first.session.token,
        body: { code: wrongCodeFor(server(), first.secret) },
      });
      expect(wrongRenew.status).toBe(403);
      // The old codes died with the renewal.
      const disable = `/v1/accounts/${first.session.account_id}/2fa/disable`;
      const old = await server().request('POST', disable, {
        token: first.session.token,
        body: { recovery_code: first.recoveryCodes[0] },
      });
      expect(old.status).toBe(403);
      const off = await server().request('POST', disable, {
        token: first.session.token,
        body: { recovery_code: renewed.body.recovery_codes[3] },
      });
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ two_factor_enabled: false });
      expect((await emailLogin(server(), first.email, first.password)).status).toBe(200);
      const left = await server().db.query('SELECT 1 FROM two_factor_recovery_codes WHERE account_id = $1', [
        first.session.account_id,
      ]);
      expect(left.rowCount).toBe(0);
    });

    // -------------------------------------------------------------------------------------------
    // Password reset
    // -------------------------------------------------------------------------------------------

    it('resets a password by a single-use mailed link and ends every session', async () => {
      const { email, session } = await signUp(server());
      const other = await emailLogin(server(), email, STRONG_PASSWORD);
      expect(other.status).toBe(200);

      const requested = await requestReset(server(), email.toUpperCase());
      expect(requested.status).toBe(202);
      expect(requested.body).toEqual({ requested: true });
      const mail = await resetMailFor(server(), email);
      const { link, token } = tokenOf(mail);
      expect(link.startsWith(`${server().config.publicUrl}/reset-password?token=`)).toBe(true);
      expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
      expect(mail.html).toContain('Choose a new password');
      // Only a hash of the token is stored.
      const stored = await server().db.query<{ token_hash: string }>(
        'SELECT token_hash FROM password_reset_tokens WHERE account_id = $1',
        [session.account_id],
      );
      expect(stored.rows[0]?.token_hash).not.toBe(token);

      const weak = await confirmReset(server(), token, 'short');
      expect(weak.status).toBe(400);
      expect(weak.body.error.details.issues[0].message).toBe('Password must be at least 8 characters');

      const done = await confirmReset(server(), token);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ password_reset: true });

      // Every session ended: refresh tokens and access tokens alike.
      expect((await refresh(server(), session.refresh_token)).status).toBe(401);
      expect((await refresh(server(), other.body.refresh_token)).status).toBe(401);
      const stale = await getAccount(server(), session);
      expect(stale.status).toBe(401);
      expect(stale.body.error.code).toBe('SESSION_REVOKED');

      expect((await emailLogin(server(), email, STRONG_PASSWORD)).status).toBe(401);
      const fresh = await emailLogin(server(), email, NEW_PASSWORD);
      expect(fresh.status).toBe(200);
      expect((await getAccount(server(), fresh.body)).status).toBe(200);

      const second = await confirmReset(server(), token, 'An0ther&Password');
      expect(second.status).toBe(400);
      expect(second.body.error).toEqual({
        code: 'RESET_TOKEN_INVALID',
        message: 'This password reset link is invalid or has expired',
      });
      const notice = (await readOutbox(server().config.outboxDir)).find(
        (entry) => entry.to === email && entry.subject === 'Your password was changed',
      );
      expect(notice).toBeDefined();
    });

    it('refuses an expired link, and a link outlived by a later reset', async () => {
      const { email } = await signUp(server());
      await requestReset(server(), email);
      const first = tokenOf(await resetMailFor(server(), email, 1)).token;
      await requestReset(server(), email);
      const second = tokenOf(await resetMailFor(server(), email, 2)).token;

      server().clock.advance(PASSWORD_RESET_TOKEN_TTL_MS + 1000);
      const expired = await confirmReset(server(), first);
      expect(expired.status).toBe(400);
      expect(expired.body.error.code).toBe('RESET_TOKEN_INVALID');
      expect((await emailLogin(server(), email, STRONG_PASSWORD)).status).toBe(200);

      await requestReset(server(), email);
      const third = tokenOf(await resetMailFor(server(), email, 3)).token;
      expect((await confirmReset(server(), third)).status).toBe(200);
      // The reset voided every other outstanding link (second is expired anyway; check the row).
      const open = await server().db.query(
        `SELECT 1 FROM password_reset_tokens t JOIN accounts a ON a.id = t.account_id
         WHERE a.email = $1 AND t.used_at IS NULL`,
        [email],
      );
      expect(open.rowCount).toBe(0);
      expect(second).not.toBe(third);
    });

    it('answers a reset request for an unknown email exactly like a known one, and mails nothing', async () => {
      const { email } = await signUp(server());
      const nobody = uniqueEmail('nobody');
      const known = await requestReset(server(), email);
      const unknown = await requestReset(server(), nobody);
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      await resetMailFor(server(), email);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await readOutbox(server().config.outboxDir)).some((mail) => mail.to === nobody)).toBe(false);
      const junk = await confirmReset(server(), 'not-a-real-token');
      expect(junk.status).toBe(400);
    });

    it('limits reset mails per address, for known and unknown addresses alike', async () => {
      for (const email of [(await signUp(server())).email, uniqueEmail('nobody')]) {
        for (let i = 0; i < 3; i++) expect((await requestReset(server(), email)).status).toBe(202);
        const limited = await requestReset(server(), email);
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    // -------------------------------------------------------------------------------------------
    // Change of password
    // -------------------------------------------------------------------------------------------

    it('changes the password with the current one, ends the other sessions and keeps this one signed in', async () => {
      const { email, session } = await signUp(server());
      const other = (await emailLogin(server(), email, STRONG_PASSWORD)).body as Session;
      const path = `/v1/accounts/${session.account_id}/password`;

      const wrong = await server().request('POST', path, {
        token: session.token,
        body: { current_password: 'Wr0ng!Password', new_password: NEW_PASSWORD },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toEqual({ code: 'CURRENT_PASSWORD_INVALID', message: 'Current password is incorrect' });
      const weak = await server().request('POST', path, {
        token: session.token,
        body: { current_password: STRONG_PASSWORD, new_password: 'alllowercase1!' },
      });
      expect(weak.status).toBe(400);
      expect(weak.body.error.details.issues[0].message).toBe('Password must contain at least one uppercase letter');
      const same = await server().request('POST', path, {
        token: session.token,
        body: { current_password: STRONG_PASSWORD, new_password: STRONG_PASSWORD },
      });
      expect(same.status).toBe(400);
      expect(same.body.error.details.issues[0].message).toBe('New password must differ from the current one');
      expect((await getAccount(server(), session)).status).toBe(200);

      const changed = await server().request('POST', path, {
        token: session.token,
        body: { current_password: STRONG_PASSWORD, new_password: NEW_PASSWORD },
      });
      expect(changed.status).toBe(200);
      expect(setCookie(changed, 'refresh_token')).toContain(changed.body.refresh_token);
      // The new session works; every earlier one is over, this device's old tokens included.
      expect((await getAccount(server(), changed.body)).status).toBe(200);
      expect((await getAccount(server(), session)).body.error.code).toBe('SESSION_REVOKED');
      expect((await getAccount(server(), other)).status).toBe(401);
      expect((await refresh(server(), other.refresh_token)).status).toBe(401);
      expect((await refresh(server(), changed.body.refresh_token)).status).toBe(200);
      expect((await emailLogin(server(), email, STRONG_PASSWORD)).status).toBe(401);
      expect((await emailLogin(server(), email, NEW_PASSWORD)).status).toBe(200);
    });

    it('asks a 2FA account for its code to change the password, never with a 401', async () => {
      const { session, secret, email } = await withTwoFactor(server());
      const path = `/v1/accounts/${session.account_id}/password`;
      const body = { current_password: STRONG_PASSWORD, new_password: NEW_PASSWORD };
      const missing = await server().request('POST', path, { token: session.token, body });
      expect(missing.status).toBe(403);
      expect(missing.body.error.code).toBe('TWO_FACTOR_CODE_REQUIRED');
      const wrong = await server().request('POST', path, {
        token: session.token,
        body: { ...body, two_factor_code: wrongCodeFor(server(), secret) },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('TWO_FACTOR_CODE_INVALID');
      expect((await emailLogin(server(), email, STRONG_PASSWORD)).body.error.code).toBe('TWO_FACTOR_REQUIRED');
      const changed = await server().request('POST', path, {
        token: session.token,
        body: { ...body, two_factor_code: currentCode(server(), secret) },
      });
      expect(changed.status).toBe(200);
    });

    it('has no password to change on a wallet account, and refuses another account', async () => {
      const wallet = ethereumWallet();
      const registered = await walletRegister(server(), await signedChallenge(server(), wallet));
      const walletChange = await server().request('POST', `/v1/accounts/${registered.body.account_id}/password`, {
        token: registered.body.token,
        body: { current_password: 'anything', new_password: NEW_PASSWORD },
      });
      expect(walletChange.status).toBe(409);
      expect(walletChange.body.error.code).toBe('PASSWORD_NOT_SET');
      const walletReset = await requestReset(server(), registered.body.account.email);
      expect(walletReset.status).toBe(202);

      const owner = await signUp(server());
      const intruder = await signUp(server());
      const foreign = await server().request('POST', `/v1/accounts/${owner.session.account_id}/password`, {
        token: intruder.session.token,
        body: { current_password: STRONG_PASSWORD, new_password: NEW_PASSWORD },
      });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe('FORBIDDEN');
    });

    // -------------------------------------------------------------------------------------------
    // Sessions
    // -------------------------------------------------------------------------------------------

    it('lists active sessions with device, address and times, marking the current one', async () => {
      const { email, session } = await signUp(server());
      const phone = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email, password: STRONG_PASSWORD },
        headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile Safari' },
      });
      const list = await server().request('GET', '/v1/auth/sessions', {
        token: session.token,
        headers: { cookie: `refresh_token=${session.refresh_token}` },
      });
      expect(list.status).toBe(200);
      expect(list.body.sessions).toHaveLength(2);
      const [newest, oldest] = list.body.sessions;
      expect(newest).toMatchObject({
        user_agent: expect.stringContaining('iPhone'),
        ip: '127.0.0.1',
        current: false,
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      });
      expect(oldest.current).toBe(true);
      // A logged-out session leaves the list.
      await server().request('POST', '/v1/auth/logout', { body: { refresh_token: phone.body.refresh_token } });
      const after = await server().request('GET', '/v1/auth/sessions', { token: session.token });
      expect(after.body.sessions).toHaveLength(1);
      expect(after.body.sessions[0].current).toBe(false); // no cookie: nothing marked
    });

    it('signs one session out at once, access token included, and keeps the asking one', async () => {
      const { email, session } = await signUp(server());
      const other = (await emailLogin(server(), email, STRONG_PASSWORD)).body as Session;
      const cookie = { cookie: `refresh_token=${session.refresh_token}` };
      // The asker is `session`: the session not marked current is `other`'s.
      const mine = await server().request('GET', '/v1/auth/sessions', { token: session.token, headers: cookie });
      const otherId = mine.body.sessions.find((entry: { current: boolean }) => !entry.current).id;

      const revoked = await server().request('POST', `/v1/auth/sessions/${otherId}/revoke`, {
        token: session.token,
        headers: cookie,
        body: {},
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ revoked: 1, token: expect.any(String), expires_in: expect.any(Number) });
      expect((await getAccount(server(), other)).body.error.code).toBe('SESSION_REVOKED');
      expect((await refresh(server(), other.refresh_token)).status).toBe(401);
      // The asker goes on with the fresh token; its refresh token still works.
      expect((await getAccount(server(), { ...session, token: revoked.body.token })).status).toBe(200);
      expect((await refresh(server(), session.refresh_token)).status).toBe(200);

      const again = await server().request('POST', `/v1/auth/sessions/${otherId}/revoke`, {
        token: revoked.body.token,
        body: {},
      });
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('SESSION_NOT_FOUND');
    });

    it("signs out everywhere else, and cannot end another account's session", async () => {
      const { email, session } = await signUp(server());
      const second = (await emailLogin(server(), email, STRONG_PASSWORD)).body as Session;
      const third = (await emailLogin(server(), email, STRONG_PASSWORD)).body as Session;
      const stranger = await signUp(server());

      const unknown = await server().request('POST', '/v1/auth/sessions/revoke-others', {
        token: session.token,
        body: {},
      });
      expect(unknown.status).toBe(400);

      const strangers = await server().request('GET', '/v1/auth/sessions', { token: stranger.session.token });
      const foreign = await server().request('POST', `/v1/auth/sessions/${strangers.body.sessions[0].id}/revoke`, {
        token: session.token,
        body: { refresh_token: session.refresh_token },
      });
      expect(foreign.status).toBe(404);
      expect((await getAccount(server(), stranger.session)).status).toBe(200);

      const others = await server().request('POST', '/v1/auth/sessions/revoke-others', {
        token: session.token,
        body: { refresh_token: session.refresh_token },
      });
      expect(others.status).toBe(200);
      expect(others.body.revoked).toBe(2);
      for (const ended of [second, third]) {
        expect((await getAccount(server(), ended)).status).toBe(401);
        expect((await refresh(server(), ended.refresh_token)).status).toBe(401);
      }
      const left = await server().request('GET', '/v1/auth/sessions', {
        token: others.body.token,
        headers: { cookie: `refresh_token=${session.refresh_token}` },
      });
      expect(left.body.sessions).toHaveLength(1);
      expect(left.body.sessions[0].current).toBe(true);
    });

    it('lets another node see ended sessions within the version cache lifetime', async () => {
      const { email, session } = await signUp(server());
      const other = (await emailLogin(server(), email, STRONG_PASSWORD)).body as Session;
      // Another node raised the version: this node's cache still holds the old one for a moment.
      expect((await getAccount(server(), other)).status).toBe(200);
      await server().db.query('UPDATE accounts SET session_version = session_version + 1 WHERE id = $1', [
        session.account_id,
      ]);
      server().clock.advance(SESSION_VERSION_CACHE_MS);
      expect((await getAccount(server(), other)).body.error.code).toBe('SESSION_REVOKED');
    });

    it('documents the account security routes in the OpenAPI document', async () => {
      const docs = await server().request('GET', '/docs/json');
      const routes: Array<[string, string, boolean]> = [
        ['/v1/auth/password-reset/request', 'post', false],
        ['/v1/auth/password-reset/confirm', 'post', false],
        ['/v1/accounts/{id}/password', 'post', true],
        ['/v1/accounts/{id}/2fa/recovery-codes', 'post', true],
        ['/v1/auth/sessions', 'get', true],
        ['/v1/auth/sessions/{sessionId}/revoke', 'post', true],
        ['/v1/auth/sessions/revoke-others', 'post', true],
      ];
      for (const [path, method, secured] of routes) {
        const operation = docs.body.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toMatchObject({ summary: expect.any(String) });
        expect(operation.security, path).toEqual(secured ? [{ bearerAuth: [] }] : undefined);
      }
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
