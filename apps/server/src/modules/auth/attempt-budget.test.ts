import { expect, it } from 'vitest';
import { describeEachDatabase, type TestResponse, type TestServer } from '../../test/harness.ts';
import { LOGIN_FAILURES_PER_ACCOUNT } from './limits.ts';
import { currentCode, emailLogin, signUp } from './test-support.ts';

const STEP_MS = 30_000;
const PARALLEL_GUESSES = 300;
const MAX = LOGIN_FAILURES_PER_ACCOUNT.maxFailures;

/** A code far from the current one: never valid in the ±1 step window. */
function wrongCode(server: TestServer, secret: string): string {
  return String((Number(currentCode(server, secret)) + 500_000) % 1_000_000).padStart(6, '0');
}

async function startSetup(server: TestServer) {
  const user = await signUp(server);
  const path = `/v1/accounts/${user.session.account_id}/2fa/enable`;
  const setup = await server.request('POST', path, { token: user.session.token, body: {} });
  return { ...user, path, secret: setup.body.secret as string };
}

async function withTwoFactor(server: TestServer) {
  const user = await startSetup(server);
  const confirmed = await server.request('POST', user.path, {
    token: user.session.token,
    body: { code: currentCode(server, user.secret) },
  });
  expect(confirmed.body).toMatchObject({ two_factor_enabled: true });
  server.clock.advance(STEP_MS);
  return user;
}

/** Fires all guesses at once; returns how many were evaluated (not refused with 429). */
async function evaluatedOf(guesses: Array<() => Promise<TestResponse<any>>>, wrongCodeName: string) {
  const responses = await Promise.all(guesses.map((guess) => guess()));
  const evaluated = responses.filter((response) => response.status !== 429);
  for (const response of evaluated) expect(response.body.error.code).toBe(wrongCodeName);
  for (const response of responses.filter((r) => r.status === 429)) {
    expect(response.body.error.code).toBe('RATE_LIMITED');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  return evaluated.length;
}

const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

describeEachDatabase(
  'per-account attempt budgets under concurrency',
  (server) => {
    it(`evaluates at most ${MAX} of ${PARALLEL_GUESSES} parallel wrong passwords; the right one is then refused`, async () => {
      const { email, password } = await signUp(server());
      const evaluated = await evaluatedOf(
        times(PARALLEL_GUESSES, (i) => () => emailLogin(server(), email, `Wr0ng!Password${i}`)),
        'INVALID_CREDENTIALS',
      );
      expect(evaluated).toBe(MAX);
      expect((await emailLogin(server(), email, password)).status).toBe(429);
      server().clock.advance(LOGIN_FAILURES_PER_ACCOUNT.windowMs);
      expect((await emailLogin(server(), email, password)).status).toBe(200);
    });

    it('evaluates at most the budget of parallel wrong sign-in codes; the right code is then refused', async () => {
      const { email, password, secret } = await withTwoFactor(server());
      const wrong = wrongCode(server(), secret);
      const evaluated = await evaluatedOf(
        times(PARALLEL_GUESSES, () => () => emailLogin(server(), email, password, wrong)),
        'TWO_FACTOR_INVALID',
      );
      expect(evaluated).toBe(MAX);
      expect((await emailLogin(server(), email, password, currentCode(server(), secret))).status).toBe(429);
    });

    it('does not spend the budget on the 2FA question after a right password', async () => {
      const { email, password, secret } = await withTwoFactor(server());
      // One after the other: while in flight, each holds a unit of the budget (counted before checked).
      for (let i = 0; i < MAX * 2; i++) {
        expect((await emailLogin(server(), email, password)).body.error?.code).toBe('TWO_FACTOR_REQUIRED');
      }
      expect((await emailLogin(server(), email, password, currentCode(server(), secret))).status).toBe(200);
    });

    it('evaluates at most the budget of parallel wrong codes confirming a 2FA setup', async () => {
      const { session, path, secret } = await startSetup(server());
      const wrong = wrongCode(server(), secret);
      const evaluated = await evaluatedOf(
        times(
          PARALLEL_GUESSES,
          () => () => server().request('POST', path, { token: session.token, body: { code: wrong } }),
        ),
        'TWO_FACTOR_CODE_INVALID',
      );
      expect(evaluated).toBe(MAX);
      const right = await server().request('POST', path, {
        token: session.token,
        body: { code: currentCode(server(), secret) },
      });
      expect(right.status).toBe(429);
    });

    it('evaluates at most the budget of parallel wrong codes turning 2FA off', async () => {
      const { session, secret } = await withTwoFactor(server());
      const path = `/v1/accounts/${session.account_id}/2fa/disable`;
      const wrong = wrongCode(server(), secret);
      const evaluated = await evaluatedOf(
        times(
          PARALLEL_GUESSES,
          () => () => server().request('POST', path, { token: session.token, body: { code: wrong } }),
        ),
        'TWO_FACTOR_CODE_INVALID',
      );
      expect(evaluated).toBe(MAX);
      const right = await server().request('POST', path, {
        token: session.token,
        body: { code: currentCode(server(), secret) },
      });
      expect(right.status).toBe(429);
      const stillOn = await server().db.query<{ totp_enabled_at: Date | null }>(
        'SELECT totp_enabled_at FROM accounts WHERE id = $1',
        [session.account_id],
      );
      expect(stillOn.rows[0]?.totp_enabled_at).not.toBeNull();
    });

    it('keeps one budget row per key and forgives it on success', async () => {
      const { email, password } = await signUp(server());
      for (let i = 0; i < 3; i++) expect((await emailLogin(server(), email, `Wr0ng!Password${i}`)).status).toBe(401);
      const row = await server().db.query<{ attempts: number }>('SELECT attempts FROM auth_attempts WHERE key = $1', [
        `login:${email}`,
      ]);
      expect(row.rows).toEqual([{ attempts: 3 }]);
      expect((await emailLogin(server(), email, password)).status).toBe(200);
      const after = await server().db.query('SELECT 1 FROM auth_attempts WHERE key = $1', [`login:${email}`]);
      expect(after.rowCount).toBe(0);
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
