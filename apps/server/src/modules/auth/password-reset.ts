import crypto from 'node:crypto';
import type { LanguageCode } from '@platform/contracts';
import type { Logger } from 'pino';
import type { Mailer } from '../../adapters/mailer/mailer.ts';
import type { Database } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { AccountCredentials, ResetRecipient } from './account-credentials.ts';
import type { AttemptBudget } from './attempt-budget.ts';
import type { AttemptLimiter } from './attempt-limiter.ts';
import { rateLimited } from './limits.ts';
import { hashPassword } from './passwords.ts';
import { passwordChangedMail, passwordResetMail } from './security-mails.ts';
import { endAllSessions } from './sessions.ts';

/**
 * Password reset by mailed link (docs/auth.md, "Account security"). The link carries a 256-bit
 * random token; only its SHA-256 hash is stored. It works once, for PASSWORD_RESET_TOKEN_TTL_MS,
 * and a successful reset voids every other outstanding link and ends every session of the account.
 */

/** Half an hour: enough to switch to the mail app and back, short enough that an old inbox leak is harmless. */
export const PASSWORD_RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
/** 256 bits: unguessable, so the link alone is the proof of owning the mailbox. */
const RESET_TOKEN_BYTES = 32;
/** Where the mailed link leads (the client's reset screen). */
export const RESET_PASSWORD_PATH = '/reset-password';

export type PasswordResetDeps = {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  clock: () => Date;
  log: Pick<Logger, 'error'>;
  /** Reset mails per email address (whether or not it has an account). */
  resetMailLimiter: AttemptLimiter;
  /** Sign-in failures per email: a reset clears them. */
  loginAttempts: AttemptBudget;
  accounts: Pick<AccountCredentials, 'resetRecipient'>;
};

const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Answers the same whether or not the email has an account: the lookup runs either way and the
 * mail is written after the answer, so neither the answer nor its timing tells. The limit counts
 * requests per address, existing or not, so a 429 reveals nothing either.
 */
export async function requestPasswordReset(
  deps: PasswordResetDeps,
  email: string,
): Promise<Result<{ requested: true }>> {
  const limitKey = `reset:${email}`;
  const retryAfter = deps.resetMailLimiter.retryAfterSeconds(limitKey);
  if (retryAfter > 0) return rateLimited(retryAfter);
  deps.resetMailLimiter.recordFailure(limitKey);
  const recipient = await deps.accounts.resetRecipient(deps.db, email);
  if (recipient) {
    void mailResetLink(deps, recipient, deps.clock()).catch((error: unknown) =>
      deps.log.error({ err: error }, 'password reset mail failed'),
    );
  }
  return ok({ requested: true });
}

async function mailResetLink(deps: PasswordResetDeps, account: ResetRecipient, now: Date): Promise<void> {
  const token = crypto.randomBytes(RESET_TOKEN_BYTES).toString('base64url');
  await deps.db.query(
    `INSERT INTO password_reset_tokens (token_hash, account_id, email, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [sha256(token), account.id, account.email, now, new Date(now.getTime() + PASSWORD_RESET_TOKEN_TTL_MS)],
  );
  const link = `${deps.publicUrl}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
  await deps.mailer.send(passwordResetMail(account, link, PASSWORD_RESET_TOKEN_TTL_MS));
}

type ResetTokenRow = { account_id: string; email: string };
type ResetAccountRow = ResetTokenRow & { language: LanguageCode | null };

/**
 * Sets the new password from a link's token: the token is spent, the other links die, every
 * session ends. The token is looked up before the argon2 hash, so junk tokens cost nothing.
 */
export async function confirmPasswordReset(
  deps: PasswordResetDeps,
  token: string,
  newPassword: string,
): Promise<Result<{ password_reset: true }>> {
  const now = deps.clock();
  const live = `token_hash = $1 AND used_at IS NULL AND expires_at > $2`;
  const found = await deps.db.query<ResetTokenRow>(
    `SELECT account_id, email FROM password_reset_tokens WHERE ${live}`,
    [sha256(token), now],
  );
  if (!found.rows[0]) return fail('RESET_TOKEN_INVALID');
  const passwordHash = await hashPassword(newPassword);
  const result = await deps.db.transaction(async (tx) => {
    // Spent atomically: of two uses of one link, one wins.
    const spent = await tx.query<ResetTokenRow>(
      `UPDATE password_reset_tokens SET used_at = $2 WHERE ${live} RETURNING account_id, email`,
      [sha256(token), now],
    );
    const row = spent.rows[0];
    if (!row) return fail('RESET_TOKEN_INVALID');
    // The link proves the address it was mailed to; after a change of address it opens nothing.
    const updated = await tx.query<{ language: LanguageCode | null }>(
      `UPDATE accounts SET password_hash = $3, updated_at = $4, email_verified_at = COALESCE(email_verified_at, $4)
       WHERE id = $1 AND email = $2 RETURNING language`,
      [row.account_id, row.email, passwordHash, now],
    );
    const account = updated.rows[0];
    if (!account) return fail('RESET_TOKEN_INVALID');
    await tx.query('UPDATE password_reset_tokens SET used_at = $2 WHERE account_id = $1 AND used_at IS NULL', [
      row.account_id,
      now,
    ]);
    await endAllSessions(tx, row.account_id, now);
    return ok<ResetAccountRow>({ ...row, language: account.language ?? null });
  });
  if (!result.ok) return result;
  await deps.loginAttempts.reset(`login:${result.value.email}`);
  await notifyPasswordChanged(deps, result.value, now);
  return ok({ password_reset: true });
}

/** Tells the owner, so a change they did not make does not go unnoticed. A failed mail is logged only. */
export async function notifyPasswordChanged(
  deps: Pick<PasswordResetDeps, 'mailer' | 'log' | 'publicUrl'>,
  account: { email: string; language: LanguageCode | null },
  now: Date,
): Promise<void> {
  await deps.mailer
    .send(passwordChangedMail(account, now, deps.publicUrl))
    .catch((error: unknown) => deps.log.error({ err: error }, 'password changed mail failed'));
}
