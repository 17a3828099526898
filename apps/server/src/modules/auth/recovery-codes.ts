import crypto from 'node:crypto';
import { RECOVERY_CODE_COUNT, recoveryCodeSchema, type SessionResponse } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { SignInAccount } from './account-credentials.ts';
import type { AuthDeps } from './deps.ts';
import { startSession } from './session.ts';

/**
 * 2FA recovery codes: ten single-use codes shown once when 2FA is turned on (or renewed), for the
 * day the authenticator app is lost. Each is 50 random bits (ten base-32 characters); only a
 * SHA-256 hash is stored. A slow hash would add nothing: the codes are random, not chosen, and
 * every guess meets the same per-account failure limits as a TOTP code.
 */

/** Crockford's base 32 in lower case: no i, l, o or u, so a code copied from paper reads one way. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODE_CHARACTERS = 10;

export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < CODE_CHARACTERS; i++) code += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A code as typed, in its stored form (`abcde-12345`), or null when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  // Characters Crockford's alphabet leaves out are read as the digits they look like.
  const parsed = recoveryCodeSchema.safeParse(input.replace(/[oO]/g, '0').replace(/[iIlL]/g, '1'));
  return parsed.success ? parsed.data : null;
}

const hashCode = (code: string) => crypto.createHash('sha256').update(code).digest('hex');

/** Replaces the account's codes with a fresh set and returns them: the only time they exist in clear. */
export async function replaceRecoveryCodes(q: Queryable, accountId: string, now: Date): Promise<string[]> {
  await deleteRecoveryCodes(q, accountId);
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  const list = [...codes];
  await q.query(
    `INSERT INTO two_factor_recovery_codes (account_id, code_hash, created_at)
     SELECT $1, code_hash, $3 FROM unnest($2::text[]) AS code_hash`,
    [accountId, list.map(hashCode), now],
  );
  return list;
}

export async function deleteRecoveryCodes(q: Queryable, accountId: string): Promise<void> {
  await q.query('DELETE FROM two_factor_recovery_codes WHERE account_id = $1', [accountId]);
}

/** Spends a code atomically: of two requests with the same code, one wins. */
export async function useRecoveryCode(q: Queryable, accountId: string, code: string, now: Date): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (normalized === null) return false;
  const used = await q.query(
    `UPDATE two_factor_recovery_codes SET used_at = $3
     WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL`,
    [accountId, hashCode(normalized), now],
  );
  return used.rowCount > 0;
}

export async function unusedRecoveryCodes(q: Queryable, accountId: string): Promise<number> {
  const found = await q.query<{ count: bigint | number }>(
    'SELECT count(*) AS count FROM two_factor_recovery_codes WHERE account_id = $1 AND used_at IS NULL',
    [accountId],
  );
  return Number(found.rows[0]?.count ?? 0);
}

/** Sign-in of a 2FA account with a recovery code instead of a TOTP code; the caller counts failures. */
export async function completeRecoveryCodeLogin(
  deps: AuthDeps,
  account: SignInAccount,
  code: string,
): Promise<Result<SessionResponse>> {
  return deps.db.transaction(async (tx) => {
    if (!(await useRecoveryCode(tx, account.id, code, deps.clock()))) return fail('TWO_FACTOR_INVALID');
    return ok(await startSession(tx, deps, account));
  });
}

/** Turns 2FA off with a recovery code (the authenticator is lost): the code is spent, the rest deleted. */
export async function disableTwoFactorWithRecoveryCode(
  q: Queryable,
  accountId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!(await useRecoveryCode(q, accountId, code, now))) return false;
  const disabled = await q.query(
    `UPDATE accounts SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL,
       totp_last_used_step = NULL, updated_at = $2
     WHERE id = $1 AND totp_enabled_at IS NOT NULL`,
    [accountId, now],
  );
  if (disabled.rowCount === 0) return false;
  await deleteRecoveryCodes(q, accountId);
  return true;
}
