import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { openOperatorDatabase } from '../../db/operator-database.ts';

/** Exit codes of `npm run freeze-account`. */
export const FREEZE_EXIT = { done: 0, noSuchAccount: 1, cannotRun: 2 } as const;

const ACTIONS = ['freeze', 'unfreeze'] as const;
type Action = (typeof ACTIONS)[number];
const USAGE = 'Usage: freeze-account <email> <freeze|unfreeze>';

/**
 * Freezes (or unfreezes) the account with this email (any case); its id, or null when there is none.
 * Freezing also revokes every refresh token, so no session outlives it; access tokens already
 * issued are refused by every node within ACCOUNT_STATE_TTL_MS.
 */
export async function setAccountFrozen(q: Queryable, email: string, action: Action, now: Date): Promise<string | null> {
  const found = await q.query<{ id: string }>(
    `UPDATE accounts SET frozen_at = ${action === 'freeze' ? 'COALESCE(frozen_at, $2)' : 'NULL'}, updated_at = $2
     WHERE email = $1 RETURNING id`,
    [email.trim().toLowerCase(), now],
  );
  const id = found.rows[0]?.id ?? null;
  if (id !== null && action === 'freeze') {
    await q.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL', [id, now]);
  }
  return id;
}

/**
 * The freeze-account command: how an operator stops an account at once (a compromised account, a
 * compliance hold) and lets it back in. It opens the database the server is configured with
 * (DATABASE_URL, or the PGlite under DATA_DIR) and never migrates. PGlite is a single-process
 * database: stop the server before changing its data directory.
 */
export async function runFreezeAccount(
  environment: Record<string, string | undefined>,
  args: readonly string[],
  write: (line: string) => void,
): Promise<number> {
  const [email, action, ...extra] = args;
  if (!email || !action || extra.length > 0 || !email.includes('@') || !ACTIONS.includes(action as Action)) {
    write(USAGE);
    return FREEZE_EXIT.cannotRun;
  }
  const db = await openOperatorDatabase(environment, 'frozen_at', write);
  if (!db) return FREEZE_EXIT.cannotRun;
  try {
    const normalised = email.trim().toLowerCase();
    const id = await db.transaction((tx) => setAccountFrozen(tx, normalised, action as Action, new Date()));
    if (id === null) {
      write(`No account with email ${normalised}.`);
      return FREEZE_EXIT.noSuchAccount;
    }
    write(`${normalised} (${id}) is now ${action === 'freeze' ? 'frozen' : 'active'}.`);
    return FREEZE_EXIT.done;
  } finally {
    await db.close();
  }
}

// Run as a script: `tsx apps/server/src/modules/auth/freeze-account-command.ts <email> <freeze|unfreeze>`.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = await runFreezeAccount(process.env, process.argv.slice(2), (line) =>
      process.stdout.write(`${line}\n`),
    );
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `freeze-account failed: ${String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exitCode = FREEZE_EXIT.cannotRun;
  }
}
