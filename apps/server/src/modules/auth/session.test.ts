import crypto from 'node:crypto';
import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { accessTokenKey, signAccessToken } from './access-tokens.ts';
import { REFRESH_REUSE_GRACE_MS } from './refresh-tokens.ts';
import { setCookie, signUp } from './test-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase(
  'access and refresh tokens',
  (server) => {
    const refresh = (body?: unknown, cookie?: string) =>
      server().request('POST', '/v1/auth/refresh', {
        ...(body === undefined ? {} : { body }),
        ...(cookie ? { headers: { cookie: `refresh_token=${cookie}` } } : {}),
      });
    const getAccount = (id: string, token?: string) =>
      server().request('GET', `/v1/accounts/${id}`, token === undefined ? {} : { token });

    it('issues short-lived HS256 access tokens with subject, role, issuer and audience', async () => {
      const { session } = await signUp(server());
      const claims = decodeJwt(session.token);
      expect(claims).toMatchObject({ sub: session.account_id, role: 'user', iss: 'meridian', aud: 'meridian-api' });
      expect(claims.exp! - claims.iat!).toBe(server().config.accessTokenTtlSeconds);
    });

    it('answers TOKEN_EXPIRED once the access token has expired, UNAUTHORIZED when it is missing or bad', async () => {
      const { session } = await signUp(server());
      expect((await getAccount(session.account_id, session.token)).status).toBe(200);
      const missing = await getAccount(session.account_id);
      expect(missing.status).toBe(401);
      expect(missing.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'Please login to continue' });
      expect((await getAccount(session.account_id, 'garbage')).body.error.code).toBe('UNAUTHORIZED');
      const forged = await signAccessToken(
        accessTokenKey(crypto.randomBytes(32).toString('hex'), 900),
        { id: session.account_id, role: 'admin' },
        server().clock.now,
      );
      expect((await getAccount(session.account_id, forged)).body.error.code).toBe('UNAUTHORIZED');

      server().clock.advance((server().config.accessTokenTtlSeconds + 1) * 1000);
      const expired = await getAccount(session.account_id, session.token);
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('TOKEN_EXPIRED');
      // The refresh token still works and brings a valid access token.
      const renewed = await refresh({ refresh_token: session.refresh_token });
      expect(renewed.status).toBe(200);
      expect((await getAccount(session.account_id, renewed.body.token)).status).toBe(200);
    });

    it('rotates the refresh token; a reused one revokes the whole family', async () => {
      const { session } = await signUp(server());
      const first = await refresh({ refresh_token: session.refresh_token });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ account_id: session.account_id, token_type: 'Bearer' });
      expect(first.body.refresh_token).not.toBe(session.refresh_token);
      expect(setCookie(first, 'refresh_token')).toContain(first.body.refresh_token);

      // A second tab refreshing at the same moment gets a sibling token, not a revoked session.
      const concurrentTab = await refresh({ refresh_token: session.refresh_token });
      expect(concurrentTab.status).toBe(200);

      server().clock.advance(REFRESH_REUSE_GRACE_MS);
      const reused = await refresh({ refresh_token: session.refresh_token });
      expect(reused.status).toBe(401);
      expect(reused.body.error).toEqual({
        code: 'REFRESH_TOKEN_REUSED',
        message: 'This session was revoked. Please log in again.',
      });
      // The newer token of the same family stopped working too.
      for (const newer of [first.body.refresh_token, concurrentTab.body.refresh_token]) {
        const attempt = await refresh({ refresh_token: newer });
        expect(attempt.status).toBe(401);
        expect(attempt.body.error.code).toBe('REFRESH_TOKEN_INVALID');
      }
    });

    it('drops expired refresh tokens of an account when it signs in again', async () => {
      const { session, email, password } = await signUp(server());
      const tokensOf = async () =>
        (await server().db.query('SELECT id FROM refresh_tokens WHERE account_id = $1', [session.account_id])).rows
          .length;
      expect(await tokensOf()).toBe(1);
      server().clock.advance(server().config.refreshTokenTtlDays * DAY_MS + 1000);
      const again = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email, password },
      });
      expect(again.status).toBe(200);
      expect(await tokensOf()).toBe(1);
    });

    it('reads the refresh token from the cookie when the body has none', async () => {
      const { session } = await signUp(server());
      const viaCookie = await refresh(undefined, session.refresh_token);
      expect(viaCookie.status).toBe(200);
      const cookie = setCookie(viaCookie, 'refresh_token');
      expect(cookie).toContain(`refresh_token=${viaCookie.body.refresh_token}`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect((await refresh({}, viaCookie.body.refresh_token)).status).toBe(200);
    });

    it('refuses unknown, missing, malformed and expired refresh tokens', async () => {
      const unknown = await refresh({ refresh_token: crypto.randomBytes(32).toString('base64url') });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.code).toBe('REFRESH_TOKEN_INVALID');
      expect(setCookie(unknown, 'refresh_token')).toMatch(/^refresh_token=;/);
      expect((await refresh({})).body.error.code).toBe('REFRESH_TOKEN_INVALID');
      expect((await refresh()).body.error.code).toBe('REFRESH_TOKEN_INVALID');
      expect((await refresh({ refresh_token: 42 })).status).toBe(400);
      expect((await refresh({ refresh_token: 'x'.repeat(10_000) })).status).toBe(400);

      const { session } = await signUp(server());
      server().clock.advance(server().config.refreshTokenTtlDays * DAY_MS + 1000);
      const expired = await refresh({ refresh_token: session.refresh_token });
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('REFRESH_TOKEN_INVALID');
    });

    it('logs out: revokes the refresh token of the body or cookie and clears the cookie', async () => {
      const byBody = await signUp(server());
      const out = await server().request('POST', '/v1/auth/logout', {
        body: { refresh_token: byBody.session.refresh_token },
      });
      expect(out.status).toBe(204);
      expect(out.body).toBe('');
      expect(setCookie(out, 'refresh_token')).toMatch(/^refresh_token=;.*Expires=Thu, 01 Jan 1970/);
      expect((await refresh({ refresh_token: byBody.session.refresh_token })).body.error.code).toBe(
        'REFRESH_TOKEN_INVALID',
      );

      const byCookie = await signUp(server());
      const rotated = await refresh({ refresh_token: byCookie.session.refresh_token });
      const cookieOut = await server().request('POST', '/v1/auth/logout', {
        headers: { cookie: `refresh_token=${rotated.body.refresh_token}` },
      });
      expect(cookieOut.status).toBe(204);
      expect((await refresh({ refresh_token: rotated.body.refresh_token })).status).toBe(401);
      // Without any token logout still succeeds: there is nothing to end.
      expect((await server().request('POST', '/v1/auth/logout', { body: {} })).status).toBe(204);
    });

    it('serves two tabs refreshing at once with two tokens of one sign-in', async () => {
      const { session } = await signUp(server());
      const responses = await Promise.all([
        refresh({ refresh_token: session.refresh_token }),
        refresh({ refresh_token: session.refresh_token }),
      ]);
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      const [one, other] = responses.map((response) => response.body.refresh_token as string);
      expect(one).not.toBe(other);
      // They are one sign-in: logging out with either ends both.
      expect((await server().request('POST', '/v1/auth/logout', { body: { refresh_token: one } })).status).toBe(204);
      expect((await refresh({ refresh_token: other })).status).toBe(401);
    });

    it('documents every route in the OpenAPI document, with bearer auth where needed', async () => {
      const docs = await server().request('GET', '/docs/json');
      const routes: Array<[string, string, boolean]> = [
        ['/v1/accounts', 'post', false],
        ['/v1/accounts/{id}', 'get', true],
        ['/v1/accounts/{id}/profile', 'put', true],
        ['/v1/accounts/{id}/verify', 'post', true],
        ['/v1/accounts/{id}/2fa/enable', 'post', true],
        ['/v1/accounts/{id}/2fa/disable', 'post', true],
        ['/v1/auth/login', 'post', false],
        ['/v1/auth/wallet-challenge', 'post', false],
        ['/v1/auth/wallet-register', 'post', false],
        ['/v1/auth/refresh', 'post', false],
        ['/v1/auth/logout', 'post', false],
      ];
      for (const [path, method, secured] of routes) {
        const operation = docs.body.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toMatchObject({ summary: expect.any(String), tags: expect.any(Array) });
        expect(operation.security, path).toEqual(secured ? [{ bearerAuth: [] }] : undefined);
      }
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
