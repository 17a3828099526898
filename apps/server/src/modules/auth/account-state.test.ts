import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { TestSocketClient } from '../../realtime/test-client.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { ACCOUNT_STATE_TTL_MS } from './account-state.ts';
import { FREEZE_EXIT, runFreezeAccount, setAccountFrozen } from './freeze-account-command.ts';
import { emailLogin, type SignedUp, signUp } from './test-support.ts';

const frozen = { code: 'ACCOUNT_FROZEN', message: 'This account is frozen. Please contact support.' };
const closed = { code: 'ACCOUNT_CLOSED', message: 'This account no longer exists.' };

/** A read, a write and an order with the account's access token. */
async function actAs(server: TestServer, user: SignedUp) {
  const { token, account_id } = user.session;
  return [
    await server.request('GET', `/v1/accounts/${account_id}`, { token }),
    await server.request('PUT', `/v1/accounts/${account_id}/profile`, { token, body: { bio: 'still here?' } }),
    await server.request('GET', '/v1/wallet/balances', { token }),
    await server.request('POST', '/v1/orders', {
      token,
      body: { trading_pair: 'BTC_USDT', side: 'buy', type: 'limit', price: '1', quantity: '1' },
    }),
  ];
}

async function socketAuth(server: TestServer, token: string) {
  const client = await TestSocketClient.connect(server.url);
  try {
    expect((await client.next()).type).toBe('welcome');
    return await client.ask({ type: 'auth', token });
  } finally {
    await client.close();
  }
}

describeEachDatabase(
  'tokens of frozen and deleted accounts',
  (server) => {
    it('refuses a frozen account: its token (reads and writes), its refresh token, its sign-in and its socket', async () => {
      const user = await signUp(server());
      expect((await actAs(server(), user))[0]?.status).toBe(200);

      expect(await setAccountFrozen(server().db, user.email.toUpperCase(), 'freeze', server().clock.now)).toBe(
        user.session.account_id,
      );
      // Every node notices within the cache time.
      server().clock.advance(ACCOUNT_STATE_TTL_MS);
      for (const response of await actAs(server(), user)) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ error: frozen });
      }
      const refreshed = await server().request('POST', '/v1/auth/refresh', {
        body: { refresh_token: user.session.refresh_token },
      });
      expect(refreshed.status).toBe(401);
      // Only the password's owner learns that the account is frozen.
      expect((await emailLogin(server(), user.email, 'Wr0ng!Password')).body.error.code).toBe('INVALID_CREDENTIALS');
      const login = await emailLogin(server(), user.email, user.password);
      expect(login.status).toBe(401);
      expect(login.body).toEqual({ error: frozen });
      expect(await socketAuth(server(), user.session.token)).toEqual({
        type: 'error',
        payload: { code: 'UNAUTHORIZED', message: 'Invalid access token' },
      });

      await setAccountFrozen(server().db, user.email, 'unfreeze', server().clock.now);
      server().clock.advance(ACCOUNT_STATE_TTL_MS);
      const again = await emailLogin(server(), user.email, user.password);
      expect(again.status).toBe(200);
      const token = again.body.token;
      expect((await server().request('GET', `/v1/accounts/${user.session.account_id}`, { token })).status).toBe(200);
    });

    it('refuses the token of an account that no longer exists, for reads and writes', async () => {
      const user = await signUp(server());
      expect((await actAs(server(), user))[0]?.status).toBe(200);
      await server().db.query('DELETE FROM accounts WHERE id = $1', [user.session.account_id]);
      server().clock.advance(ACCOUNT_STATE_TTL_MS);
      for (const response of await actAs(server(), user)) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ error: closed });
      }
      expect((await socketAuth(server(), user.session.token)).type).toBe('error');
    });

    it('reads the state once per cache period, not once per request', async () => {
      const user = await signUp(server());
      const { token, account_id } = user.session;
      const get = () => server().request('GET', `/v1/accounts/${account_id}`, { token });
      expect((await get()).status).toBe(200);
      await setAccountFrozen(server().db, user.email, 'freeze', server().clock.now);
      // Still cached as active: the freeze counts after at most ACCOUNT_STATE_TTL_MS.
      expect((await get()).status).toBe(200);
      server().clock.advance(ACCOUNT_STATE_TTL_MS);
      expect((await get()).status).toBe(401);
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);

describe('freeze-account command', () => {
  it('explains its usage, freezes and unfreezes by email in any case, and reports an unknown email', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'freeze-account-'));
    const lines: string[] = [];
    const run = (...args: string[]) =>
      runFreezeAccount({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, args, (line) => lines.push(line));
    try {
      expect(await run('a@example.com')).toBe(FREEZE_EXIT.cannotRun);
      expect(lines.pop()).toBe('Usage: freeze-account <email> <freeze|unfreeze>');
      expect(await run('a@example.com', 'freeze')).toBe(FREEZE_EXIT.cannotRun);

      const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      await migrate(db);
      const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
      await db.query(
        `INSERT INTO accounts (id, email, first_name, last_name, terms_accepted_at)
         VALUES ($1, 'mallory@example.com', 'Mal', 'Lory', now())`,
        [id],
      );
      await db.close();

      expect(await run('Mallory@Example.com', 'freeze')).toBe(FREEZE_EXIT.done);
      expect(lines.pop()).toBe(`mallory@example.com (${id}) is now frozen.`);
      const check = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      const row = await check.query<{ frozen_at: Date | null }>('SELECT frozen_at FROM accounts');
      await check.close();
      expect(row.rows[0]?.frozen_at).toBeInstanceOf(Date);
      expect(await run('nobody@example.com', 'freeze')).toBe(FREEZE_EXIT.noSuchAccount);
      expect(lines.pop()).toBe('No account with email nobody@example.com.');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
