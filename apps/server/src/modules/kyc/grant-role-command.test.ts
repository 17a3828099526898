import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { GRANT_ROLE_EXIT, runGrantRole } from './grant-role-command.ts';

// The command opens its own database, as an operator would: an on-disk PGlite under DATA_DIR.
describe('grant-role command', () => {
  let dataDir: string;
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runGrantRole({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, args, (line) =>
      lines.push(line),
    );
    return { code, lines };
  };
  const roleOf = async (email: string) => {
    const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    try {
      return (await db.query<{ role: string }>('SELECT role FROM accounts WHERE email = $1', [email])).rows[0]?.role;
    } finally {
      await db.close();
    }
  };

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grant-role-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('explains its usage, and says so when there is no database', async () => {
    for (const args of [[], ['a@example.com'], ['a@example.com', 'root'], ['not-an-email', 'admin']]) {
      expect(await run(...args)).toEqual({
        code: GRANT_ROLE_EXIT.cannotRun,
        lines: ['Usage: grant-role <email> <user|compliance|admin>'],
      });
    }
    expect(await run('a@example.com', 'compliance')).toEqual({
      code: GRANT_ROLE_EXIT.cannotRun,
      lines: [`No database at ${path.join(dataDir, 'pglite')} (set DATA_DIR or DATABASE_URL).`],
    });
  });

  it('grants and takes back a role by email, in any case, and reports an unknown email', async () => {
    const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    await migrate(db);
    await db.query(
      `INSERT INTO accounts (id, email, first_name, last_name, terms_accepted_at)
       VALUES ('7c9e6679-7425-40de-944b-e07fc1f90ae7', 'reviewer@example.com', 'Rita', 'Reviewer', now())`,
    );
    await db.close();

    expect(await run('Reviewer@Example.com', 'compliance')).toEqual({
      code: GRANT_ROLE_EXIT.granted,
      lines: ['reviewer@example.com (7c9e6679-7425-40de-944b-e07fc1f90ae7) now has the role compliance.'],
    });
    expect(await roleOf('reviewer@example.com')).toBe('compliance');
    expect((await run('reviewer@example.com', 'user')).code).toBe(GRANT_ROLE_EXIT.granted);
    expect(await roleOf('reviewer@example.com')).toBe('user');
    expect(await run('nobody@example.com', 'admin')).toEqual({
      code: GRANT_ROLE_EXIT.noSuchAccount,
      lines: ['No account with email nobody@example.com.'],
    });
  });
});
