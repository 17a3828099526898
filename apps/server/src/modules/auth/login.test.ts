import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { currentCode, emailLogin, setCookie, signUp, uniqueEmail } from './test-support.ts';
import { totpCode } from './totp.ts';

const STEP_MS = 30_000;
const invalidCredentials = { code: 'INVALID_CREDENTIALS', message: 'Invalid credentials' };

/** Turns 2FA on for a fresh account; returns its secret. */
async function withTwoFactor(server: TestServer) {
  const user = await signUp(server);
  const path = `/v1/accounts/${user.session.account_id}/2fa/enable`;
  const setup = await server.request('POST', path, { token: user.session.token, body: {} });
  const secret: string = setup.body.secret;
  const confirmed = await server.request('POST', path, {
    token: user.session.token,
    body: { code: currentCode(server, secret) },
  });
  expect(confirmed.body).toMatchObject({ two_factor_enabled: true });
  // The confirming code's step is spent; sign-ins need the next one.
  server.clock.advance(STEP_MS);
  return { ...user, secret };
}

async function timeIt(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

describeEachDatabase(
  'email sign-in and two-factor authentication',
  (server) => {
    it('signs in by email and password, answering a token pair and a strict httpOnly cookie', async () => {
      const { email, password } = await signUp(server());
      const response = await emailLogin(server(), email.toUpperCase(), password);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        token: expect.any(String),
        account_id: expect.any(String),
        token_type: 'Bearer',
        expires_in: server().config.accessTokenTtlSeconds,
        refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      const cookie = setCookie(response, 'refresh_token');
      expect(cookie).toContain(`refresh_token=${response.body.refresh_token}`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).toMatch(/Path=\/v1\/auth/);
      expect(cookie).not.toMatch(/Secure/i); // publicUrl is http here
      const account = await server().request('GET', `/v1/accounts/${response.body.account_id}`, {
        token: response.body.token,
      });
      expect(account.body.email).toBe(email);
    });

    it('answers a wrong password and an unknown email alike, in about the same time', async () => {
      const { email } = await signUp(server());
      const wrong = await emailLogin(server(), email, 'Wr0ng!Password');
      const unknown = await emailLogin(server(), uniqueEmail('nobody'), 'Wr0ng!Password');
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual({ error: invalidCredentials });
      expect(unknown.body).toEqual({ error: invalidCredentials });

      const wrongMs: number[] = [];
      const unknownMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        wrongMs.push(await timeIt(() => emailLogin(server(), email, `Wr0ng!Password${i}`)));
        unknownMs.push(await timeIt(() => emailLogin(server(), uniqueEmail('nobody'), 'Wr0ng!Password')));
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
      // Both spend one argon2 verification; a shortcut for unknown emails would be several times faster.
      expect(median(unknownMs)).toBeGreaterThan(median(wrongMs) * 0.5);
    });

    it('refuses malformed sign-in requests with the spec messages', async () => {
      const cases: Array<[unknown, string, string]> = [
        [{}, 'login_type', 'Login type must be email or wallet'],
        [{ login_type: 'magic' }, 'login_type', 'Login type must be email or wallet'],
        [{ login_type: 'email', password: 'x' }, 'email', 'Email is required'],
        [{ login_type: 'email', email: 'nope', password: 'x' }, 'email', 'Invalid email'],
        [{ login_type: 'email', email: 'a@b.co' }, 'password', 'Password is required'],
        [{ login_type: 'email', email: 'a@b.co', password: '' }, 'password', 'Password is required'],
        [{ login_type: 'email', email: 'a@b.co', password: 12345678 }, 'password', 'Password is required'],
        [{ login_type: 'email', email: 'a@b.co', password: 'x'.repeat(5000) }, 'password', expect.any(String)],
        [
          { login_type: 'email', email: 'a@b.co', password: 'x', two_factor_code: '' },
          'two_factor_code',
          'Two-factor code is required',
        ],
        [
          { login_type: 'email', email: 'a@b.co', password: 'x', two_factor_code: '12345' },
          'two_factor_code',
          'Code must be 6 digits',
        ],
        [
          { login_type: 'email', email: 'a@b.co', password: 'x', two_factor_code: 'abcdef' },
          'two_factor_code',
          'Code must be 6 digits',
        ],
      ];
      for (const [body, path, message] of cases) {
        const response = await server().request('POST', '/v1/auth/login', { body });
        expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
        expect(response.body.error.details.issues[0]).toMatchObject({ path, message });
      }
    });

    it('sets up 2FA in two steps: a pending secret with a QR code, then a confirming code', async () => {
      const { email, password, session } = await signUp(server());
      const path = `/v1/accounts/${session.account_id}/2fa/enable`;
      const notPending = await server().request('POST', path, { token: session.token, body: { code: '123456' } });
      expect(notPending.status).toBe(409);
      expect(notPending.body.error.code).toBe('TWO_FACTOR_NOT_PENDING');

      // A client may send no body at all to start the setup.
      const setup = await server().request('POST', path, { token: session.token });
      expect(setup.status).toBe(200);
      expect(setup.body).toEqual({
        two_factor_enabled: false,
        secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
        otpauth_url: expect.stringMatching(/^otpauth:\/\/totp\/Meridian:/),
        qr_code: expect.stringMatching(/^data:image\/png;base64,/),
      });
      expect(decodeURIComponent(setup.body.otpauth_url)).toContain(email);
      // Pending is not on: sign-in still needs no code.
      expect((await emailLogin(server(), email, password)).status).toBe(200);

      const secret = setup.body.secret;
      const wrongCode = String((Number(currentCode(server(), secret)) + 1) % 1_000_000).padStart(6, '0');
      const wrong = await server().request('POST', path, { token: session.token, body: { code: wrongCode } });
      // Not 401: the client ends the session on a 401, and a mistyped code is no reason to.
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('TWO_FACTOR_CODE_INVALID');

      const confirmed = await server().request('POST', path, {
        token: session.token,
        body: { code: currentCode(server(), secret) },
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({ two_factor_enabled: true, recovery_codes: expect.any(Array) });
      const again = await server().request('POST', path, { token: session.token, body: {} });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('TWO_FACTOR_ALREADY_ENABLED');
      const account = await server().request('GET', `/v1/accounts/${session.account_id}`, { token: session.token });
      expect(account.body.two_factor_enabled).toBe(true);
    });

    it('asks a 2FA account for its code only after the right password, and never takes a code twice', async () => {
      const { email, password, secret } = await withTwoFactor(server());
      expect((await emailLogin(server(), email, 'Wr0ng!Password')).body).toEqual({ error: invalidCredentials });

      const required = await emailLogin(server(), email, password);
      expect(required.status).toBe(401);
      expect(required.body).toEqual({
        error: { code: 'TWO_FACTOR_REQUIRED', message: 'Two-factor authentication required' },
      });

      const code = currentCode(server(), secret);
      const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const wrong = await emailLogin(server(), email, password, wrongCode);
      expect(wrong.status).toBe(401);
      expect(wrong.body.error.code).toBe('TWO_FACTOR_INVALID');

      const signedIn = await emailLogin(server(), email, password, code);
      expect(signedIn.status).toBe(200);
      const reused = await emailLogin(server(), email, password, code);
      expect(reused.status).toBe(401);
      expect(reused.body.error.code).toBe('TWO_FACTOR_INVALID');

      // One step of drift is accepted, but not a step before the last one used.
      const previous = totpCode(secret, new Date(server().clock.now.getTime() - STEP_MS));
      expect((await emailLogin(server(), email, password, previous)).status).toBe(401);
      server().clock.advance(STEP_MS);
      expect((await emailLogin(server(), email, password, currentCode(server(), secret))).status).toBe(200);
    });

    it('turns 2FA off only with a valid, unused code', async () => {
      const { email, password, session, secret } = await withTwoFactor(server());
      const path = `/v1/accounts/${session.account_id}/2fa/disable`;
      const missing = await server().request('POST', path, { token: session.token, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toBe('Two-factor code is required');

      const code = currentCode(server(), secret);
      expect((await emailLogin(server(), email, password, code)).status).toBe(200);
      const reused = await server().request('POST', path, { token: session.token, body: { code } });
      expect(reused.status).toBe(403);
      expect(reused.body.error.code).toBe('TWO_FACTOR_CODE_INVALID');

      server().clock.advance(STEP_MS);
      const off = await server().request('POST', path, {
        token: session.token,
        body: { code: currentCode(server(), secret) },
      });
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ two_factor_enabled: false });
      expect((await emailLogin(server(), email, password)).status).toBe(200);
      const notEnabled = await server().request('POST', path, { token: session.token, body: { code: '123456' } });
      expect(notEnabled.status).toBe(409);
      expect(notEnabled.body.error.code).toBe('TWO_FACTOR_NOT_ENABLED');
    });

    it('keeps the TOTP secret sealed in the database', async () => {
      const { session, email, password } = await signUp(server());
      const path = `/v1/accounts/${session.account_id}/2fa/enable`;
      const setup = await server().request('POST', path, { token: session.token, body: {} });
      const secret: string = setup.body.secret;
      const stored = async () =>
        (
          await server().db.query<{ totp_secret: string | null; totp_pending_secret: string | null }>(
            'SELECT totp_secret, totp_pending_secret FROM accounts WHERE id = $1',
            [session.account_id],
          )
        ).rows[0];
      expect((await stored())?.totp_pending_secret).toMatch(/^v1\./);
      expect((await stored())?.totp_pending_secret).not.toContain(secret);
      await server().request('POST', path, { token: session.token, body: { code: currentCode(server(), secret) } });
      const enabled = await stored();
      expect(enabled?.totp_secret).toMatch(/^v1\./);
      expect(enabled?.totp_secret).not.toContain(secret);
      // The sealed secret still checks codes: sign-in with the next step's code works.
      server().clock.advance(30_000);
      const login = await emailLogin(server(), email, password, currentCode(server(), secret));
      expect(login.status).toBe(200);
    });

    it("refuses 2FA calls without a token and for another account's id", async () => {
      const owner = await signUp(server());
      const intruder = await signUp(server());
      const path = `/v1/accounts/${owner.session.account_id}/2fa/enable`;
      expect((await server().request('POST', path, { body: {} })).status).toBe(401);
      const foreign = await server().request('POST', path, { token: intruder.session.token, body: {} });
      expect(foreign.status).toBe(403);
      const disable = await server().request('POST', `/v1/accounts/${owner.session.account_id}/2fa/disable`, {
        token: intruder.session.token,
        body: { code: 'not a code' },
      });
      expect(disable.status).toBe(403);
      const pending = await server().db.query<{ totp_pending_secret: string | null }>(
        'SELECT totp_pending_secret FROM accounts WHERE id = $1',
        [owner.session.account_id],
      );
      expect(pending.rows[0]?.totp_pending_secret).toBeNull();
    });

    it('limits failed sign-ins per account even with per-IP limits off, then lets the account in again', async () => {
      const { email, password } = await signUp(server());
      for (let i = 0; i < 10; i++) {
        expect((await emailLogin(server(), email, `Wr0ng!Password${i}`)).status).toBe(401);
      }
      const limited = await emailLogin(server(), email, password);
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatchObject({
        code: 'RATE_LIMITED',
        message: 'Too many attempts. Please try again later.',
      });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Another account is not affected.
      const other = await signUp(server());
      expect((await emailLogin(server(), other.email, other.password)).status).toBe(200);

      server().clock.advance(retryAfter * 1000);
      expect((await emailLogin(server(), email, password)).status).toBe(200);
    });

    it('limits wrong 2FA codes per account', async () => {
      const { session, secret } = await withTwoFactor(server());
      const path = `/v1/accounts/${session.account_id}/2fa/disable`;
      const wrongCode = String((Number(currentCode(server(), secret)) + 500_000) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 10; i++) {
        expect((await server().request('POST', path, { token: session.token, body: { code: wrongCode } })).status).toBe(
          403,
        );
      }
      const limited = await server().request('POST', path, {
        token: session.token,
        body: { code: currentCode(server(), secret) },
      });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
