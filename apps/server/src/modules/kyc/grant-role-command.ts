import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { openOperatorDatabase } from '../../db/operator-database.ts';
import { type AccountRole, updateRoleByEmail } from './queries.ts';

/** Exit codes of `npm run grant-role`. */
export const GRANT_ROLE_EXIT = { granted: 0, noSuchAccount: 1, cannotRun: 2 } as const;

export const ROLES: readonly AccountRole[] = ['user', 'compliance', 'admin'];
const USAGE = 'Usage: grant-role <email> <user|compliance|admin>';

/** Sets the role of the account with this email (any case); its id, or null when there is none. */
export function setAccountRole(q: Queryable, email: string, role: AccountRole): Promise<string | null> {
  return updateRoleByEmail(q, email.trim().toLowerCase(), role);
}

/**
 * The grant-role command: how an operator makes someone a KYC reviewer (compliance), an admin, or
 * takes the role back (user). It opens the database the server is configured with (DATABASE_URL, or
 * the PGlite under DATA_DIR), as ledger:check does, and never migrates.
 *
 * The reviewer routes read the role from the database on every call, so the change counts at once;
 * the role claim inside access tokens follows at the account's next sign-in or token refresh.
 * PGlite is a single-process database: stop the server before changing its data directory.
 */
export async function runGrantRole(
  environment: Record<string, string | undefined>,
  args: readonly string[],
  write: (line: string) => void,
): Promise<number> {
  const [email, role, ...extra] = args;
  if (!email || !role || extra.length > 0 || !email.includes('@') || !ROLES.includes(role as AccountRole)) {
    write(USAGE);
    return GRANT_ROLE_EXIT.cannotRun;
  }
  const db = await openOperatorDatabase(environment, 'kyc_tier', write);
  if (!db) return GRANT_ROLE_EXIT.cannotRun;
  try {
    const id = await setAccountRole(db, email, role as AccountRole);
    if (id === null) {
      write(`No account with email ${email.trim().toLowerCase()}.`);
      return GRANT_ROLE_EXIT.noSuchAccount;
    }
    write(`${email.trim().toLowerCase()} (${id}) now has the role ${role}.`);
    return GRANT_ROLE_EXIT.granted;
  } finally {
    await db.close();
  }
}

// Run as a script: `tsx apps/server/src/modules/kyc/grant-role-command.ts <email> <role>`.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = await runGrantRole(process.env, process.argv.slice(2), (line) =>
      process.stdout.write(`${line}\n`),
    );
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `grant-role failed: ${String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exitCode = GRANT_ROLE_EXIT.cannotRun;
  }
}
