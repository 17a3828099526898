import crypto from 'node:crypto';
import { REGISTRATION_RECEIVED_MESSAGE } from '@platform/contracts';
import { expect, it } from 'vitest';
import { readOutbox } from '../../adapters/mailer/outbox-mailer.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { countRows, registrationBody, STRONG_PASSWORD, signUp, uniqueEmail } from '../auth/test-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase(
  'accounts',
  (server, kind) => {
    const register = (body: Record<string, unknown>) => server().request('POST', '/v1/accounts', { body });
    const firstIssue = (response: { body: any }) => response.body.error.details.issues[0];

    it('creates an account with an argon2id password hash', async () => {
      const body = registrationBody({ email: 'Mixed.Case@Example.COM', phone: '+44 20 7946 0958' });
      const response = await register(body);
      expect(response.status).toBe(201);
      // The same answer as for a taken email (registration.test.ts): the account is read after sign-in.
      expect(response.body).toEqual({ email: 'mixed.case@example.com', message: REGISTRATION_RECEIVED_MESSAGE });
      const login = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email: 'mixed.case@example.com', password: body.password },
      });
      const account = await server().request('GET', `/v1/accounts/${login.body.account_id}`, {
        token: login.body.token,
      });
      expect(account.body).toEqual({
        id: login.body.account_id,
        email: 'mixed.case@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: '+44 20 7946 0958',
        email_verified: false,
        two_factor_enabled: false,
        wallet_address: null,
        wallet_type: null,
        marketing_consent: false,
        role: 'user',
        created_at: expect.any(String),
        profile: {
          display_name: null,
          username: null,
          bio: null,
          location: null,
          website: null,
          trading_experience: null,
          private_profile: false,
          allow_copy_trading: false,
          copy_trading_fee_percent: '0.00',
          language: null,
        },
      });
      const stored = await server().db.query<{ password_hash: string; terms_accepted_at: Date }>(
        'SELECT password_hash, terms_accepted_at FROM accounts WHERE id = $1',
        [login.body.account_id],
      );
      expect(stored.rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
      expect(stored.rows[0]?.password_hash).not.toContain(STRONG_PASSWORD);
      expect(stored.rows[0]?.terms_accepted_at).toBeInstanceOf(Date);
    });

    it('refuses each weak password with the spec §5 message, word for word', async () => {
      const cases: Array<[unknown, string]> = [
        ['', 'Password is required'],
        ['Sh0rt!', 'Password must be at least 8 characters'],
        ['PASSWORD1!', 'Password must contain at least one lowercase letter'],
        ['password1!', 'Password must contain at least one uppercase letter'],
        ['Password!!', 'Password must contain at least one number'],
        ['Password11', 'Password must contain at least one special character'],
        [`Aa1!${'x'.repeat(125)}`, 'Password must be at most 128 characters'],
        [undefined, 'Password is required'],
      ];
      for (const [password, message] of cases) {
        const response = await register(registrationBody({ password }));
        expect(response.status, String(password)).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message });
        expect(firstIssue(response)).toMatchObject({
          path: 'password',
          message,
          key: expect.stringMatching(/^validation\./),
        });
      }
    });

    it('refuses missing, malformed, mistyped and huge fields with the spec messages', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ first_name: undefined }, 'first_name', 'First name is required'],
        [{ first_name: ' A ' }, 'first_name', 'First name must be at least 2 characters'],
        [{ last_name: '' }, 'last_name', 'Last name is required'],
        [{ last_name: 'L' }, 'last_name', 'Last name must be at least 2 characters'],
        [{ first_name: 'x'.repeat(51) }, 'first_name', 'Name must be at most 50 characters'],
        [{ email: undefined }, 'email', 'Email is required'],
        [{ email: 'not-an-email' }, 'email', 'Invalid email address'],
        [{ email: `${'a'.repeat(10_000)}@example.com` }, 'email', 'Email must be at most 254 characters'],
        [{ terms_accepted: false }, 'terms_accepted', 'You must accept the terms and conditions'],
        [{ terms_accepted: 'yes' }, 'terms_accepted', 'You must accept the terms and conditions'],
        [{ phone: 'call me' }, 'phone', 'Invalid phone number'],
        [{ first_name: 42 }, 'first_name', 'First name is required'],
        [{ marketing_consent: 'yes' }, 'marketing_consent', expect.any(String)],
        // The synthetic addresses of wallet accounts are reserved.
        [{ email: `0x${'a'.repeat(40)}@wallet.meridian.invalid` }, 'email', 'Invalid email address'],
      ];
      const before = await countRows(server(), 'accounts');
      for (const [overrides, path, message] of cases) {
        const response = await register(registrationBody(overrides));
        expect(response.status, JSON.stringify(overrides).slice(0, 80)).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
        expect(firstIssue(response)).toMatchObject({ path, message });
      }
      const notJson = await server().request('POST', '/v1/accounts', {
        rawBody: '{"email":',
        headers: { 'content-type': 'application/json' },
      });
      expect(notJson.status).toBe(400);
      const huge = await register(registrationBody({ bio: 'x'.repeat(1_100_000) }));
      expect(huge.status).toBe(413);
      expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await countRows(server(), 'accounts')).toBe(before);
    });

    it('creates no second account for the same email, in any case, and answers as for a new one', async () => {
      const email = uniqueEmail('dup');
      const first = await register(registrationBody({ email }));
      expect(first.status).toBe(201);
      const before = await countRows(server(), 'accounts');
      const again = await register(registrationBody({ email: email.toUpperCase() }));
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(await countRows(server(), 'accounts')).toBe(before);
    });

    it('lets only the owner read the account, after authentication', async () => {
      const { session } = await signUp(server());
      const other = await signUp(server());
      const own = await server().request('GET', `/v1/accounts/${session.account_id}`, { token: session.token });
      expect(own.status).toBe(200);
      expect(own.body.id).toBe(session.account_id);

      const foreign = await server().request('GET', `/v1/accounts/${other.session.account_id}`, {
        token: session.token,
      });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe('FORBIDDEN');
      const malformed = await server().request('GET', '/v1/accounts/not-a-uuid', { token: session.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.code).toBe('VALIDATION_ERROR');
      const anonymous = await server().request('GET', '/v1/accounts/not-a-uuid');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'Please login to continue' });
    });

    it('updates the profile fields of §3.3, keeps absent ones and clears null ones', async () => {
      const { session } = await signUp(server());
      const path = `/v1/accounts/${session.account_id}/profile`;
      const update = await server().request('PUT', path, {
        token: session.token,
        body: {
          display_name: 'Ada L.',
          username: `ada_${crypto.randomBytes(3).toString('hex')}`,
          bio: 'Counting engines',
          location: 'London',
          website: 'https://ada.example.com',
          trading_experience: '3-5',
          private_profile: true,
          allow_copy_trading: true,
          copy_trading_fee_percent: '12.5',
        },
      });
      expect(update.status).toBe(200);
      expect(update.body.profile).toMatchObject({
        display_name: 'Ada L.',
        bio: 'Counting engines',
        trading_experience: '3-5',
        private_profile: true,
        allow_copy_trading: true,
        copy_trading_fee_percent: '12.50',
      });
      const partial = await server().request('PUT', path, { token: session.token, body: { bio: null, location: '' } });
      expect(partial.status).toBe(200);
      expect(partial.body.profile).toMatchObject({
        display_name: 'Ada L.',
        bio: null,
        location: null,
        private_profile: true,
      });
    });

    it('keeps usernames unique without regard to case', async () => {
      const first = await signUp(server());
      const second = await signUp(server());
      const username = `Trader_${crypto.randomBytes(3).toString('hex')}`;
      const taken = await server().request('PUT', `/v1/accounts/${first.session.account_id}/profile`, {
        token: first.session.token,
        body: { username },
      });
      expect(taken.status).toBe(200);
      const clash = await server().request('PUT', `/v1/accounts/${second.session.account_id}/profile`, {
        token: second.session.token,
        body: { username: username.toLowerCase(), bio: 'should not be saved' },
      });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toEqual({ code: 'USERNAME_TAKEN', message: 'This username is already taken' });
      const unchanged = await server().request('GET', `/v1/accounts/${second.session.account_id}`, {
        token: second.session.token,
      });
      expect(unchanged.body.profile).toMatchObject({ username: null, bio: null });
    });

    it('refuses bad profile values and changes nothing', async () => {
      const { session } = await signUp(server());
      const other = await signUp(server());
      const path = `/v1/accounts/${session.account_id}/profile`;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ username: 'a b' }, 'Username must be 3 to 30 letters, digits or underscores'],
        [{ username: 'ab' }, 'Username must be 3 to 30 letters, digits or underscores'],
        [{ website: 'javascript:alert(1)' }, 'Website must be a valid http(s) address'],
        [
          { copy_trading_fee_percent: '50.5' },
          'Copy trading fee must be a number from 0 to 50 with at most 2 decimals',
        ],
        [{ copy_trading_fee_percent: '-1' }, 'Copy trading fee must be a number from 0 to 50 with at most 2 decimals'],
        [{ bio: 'x'.repeat(501) }, 'Bio must be at most 500 characters'],
        [{ display_name: 'x'.repeat(51) }, 'Display name must be at most 50 characters'],
        [{ trading_experience: '20+' }, expect.any(String)],
        [{ private_profile: 'yes' }, expect.any(String)],
      ];
      for (const [body, message] of cases) {
        const response = await server().request('PUT', path, { token: session.token, body });
        expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(response.body.error.message).toEqual(message);
      }
      const foreign = await server().request('PUT', `/v1/accounts/${other.session.account_id}/profile`, {
        token: session.token,
        body: { bio: 'hijacked' },
      });
      expect(foreign.status).toBe(403);
      const untouched = await server().request('GET', `/v1/accounts/${other.session.account_id}`, {
        token: other.session.token,
      });
      expect(untouched.body.profile.bio).toBeNull();
    });

    it('verifies the email through a single-use link mailed to the outbox', async () => {
      const { email, session } = await signUp(server());
      const path = `/v1/accounts/${session.account_id}/verify`;
      const sent = await server().request('POST', path, { token: session.token, body: {} });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ email_verified: false, sent: true });

      const mail = (await readOutbox(server().config.outboxDir)).find((entry) => entry.to === email);
      expect(mail).toMatchObject({
        subject: expect.any(String),
        text: expect.any(String),
        sent_at: expect.any(String),
      });
      const link = new RegExp(`${server().config.publicUrl}/settings\\?verify=([A-Za-z0-9_-]+)`).exec(mail!.text);
      expect(link).not.toBeNull();
      const token = link![1]!;

      const wrong = await server().request('POST', path, { token: session.token, body: { token: `${token}x` } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.code).toBe('VERIFICATION_TOKEN_INVALID');

      const verified = await server().request('POST', path, { token: session.token, body: { token } });
      expect(verified.status).toBe(200);
      expect(verified.body).toEqual({ email_verified: true, sent: false });
      const account = await server().request('GET', `/v1/accounts/${session.account_id}`, { token: session.token });
      expect(account.body.email_verified).toBe(true);

      const reused = await server().request('POST', path, { token: session.token, body: { token } });
      expect(reused.status).toBe(409);
      expect(reused.body.error.code).toBe('EMAIL_ALREADY_VERIFIED');
      const resend = await server().request('POST', path, { token: session.token, body: {} });
      expect(resend.status).toBe(409);
    });

    it('refuses an expired link and a link of another account', async () => {
      const owner = await signUp(server());
      const intruder = await signUp(server());
      const path = (id: string) => `/v1/accounts/${id}/verify`;
      await server().request('POST', path(owner.session.account_id), { token: owner.session.token, body: {} });
      const mail = (await readOutbox(server().config.outboxDir)).find((entry) => entry.to === owner.email)!;
      const token = /verify=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

      const foreign = await server().request('POST', path(intruder.session.account_id), {
        token: intruder.session.token,
        body: { token },
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.code).toBe('VERIFICATION_TOKEN_INVALID');

      server().clock.advance(DAY_MS + 1000);
      const fresh = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email: owner.email, password: owner.password },
      });
      const expired = await server().request('POST', path(owner.session.account_id), {
        token: fresh.body.token,
        body: { token },
      });
      expect(expired.status).toBe(400);
      expect(expired.body.error).toEqual({
        code: 'VERIFICATION_TOKEN_INVALID',
        message: 'This verification link is invalid or has expired',
      });
    });

    it('limits verification mails per account (429 with Retry-After)', async () => {
      const { session } = await signUp(server());
      const path = `/v1/accounts/${session.account_id}/verify`;
      for (let i = 0; i < 5; i++) {
        expect((await server().request('POST', path, { token: session.token, body: {} })).status).toBe(200);
      }
      const limited = await server().request('POST', path, { token: session.token, body: {} });
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it(`lets exactly one of two simultaneous registrations of one email win (${kind})`, async () => {
      const email = uniqueEmail('race');
      const responses = await Promise.all([
        register(registrationBody({ email })),
        register(registrationBody({ email })),
      ]);
      expect(responses.map((response) => response.status)).toEqual([201, 201]);
      const rows = await server().db.query('SELECT id FROM accounts WHERE email = $1', [email]);
      expect(rows.rows).toHaveLength(1);
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
