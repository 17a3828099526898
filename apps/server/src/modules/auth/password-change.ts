import type { SessionResponse } from '@platform/contracts';
import type { Logger } from 'pino';
import type { Mailer } from '../../adapters/mailer/mailer.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { withAttempt } from './attempt-budget.ts';
import type { AuthDeps } from './deps.ts';
import { notifyPasswordChanged } from './password-reset.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { startSession } from './session.ts';
import { endAllSessions } from './sessions.ts';
import { claimAccountTotp } from './two-factor.ts';

export type PasswordChange = {
  current_password: string;
  new_password: string;
  two_factor_code?: string | undefined;
};

export type PasswordChangeDeps = AuthDeps & { mailer: Mailer; log: Pick<Logger, 'error'> };

/**
 * Change of password in Settings: the current password (and the 2FA code when 2FA is on) proves
 * it is the owner and not a borrowed session. Every session ends, the asking device's included,
 * and the answer starts a new one for it, so the user stays signed in where they are.
 * Wrong passwords count against the same per-email budget as sign-ins; wrong codes against the
 * account's 2FA budget. None of the failures is a 401: the session itself is fine.
 */
export async function changePassword(
  deps: PasswordChangeDeps,
  accountId: string,
  change: PasswordChange,
): Promise<Result<SessionResponse>> {
  const account = await deps.accounts.findSignInAccount(deps.db, { id: accountId });
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  const currentHash = account.passwordHash;
  if (!currentHash) return fail('PASSWORD_NOT_SET');
  // Counted before the slow check, in the same budget as sign-ins (attempt-budget.ts).
  const proved = await withAttempt(
    deps.loginAttempts,
    `login:${account.email}`,
    async () =>
      (await verifyPassword(currentHash, change.current_password)) ? ok(true) : fail('CURRENT_PASSWORD_INVALID'),
    (result) => (result.ok ? 'success' : 'failure'),
  );
  if (!proved.ok) return proved;
  if (account.twoFactor && !change.two_factor_code) return fail('TWO_FACTOR_CODE_REQUIRED');
  const passwordHash = await hashPassword(change.new_password);
  const now = deps.clock();
  const replace = () =>
    deps.db.transaction(async (tx): Promise<Result<SessionResponse>> => {
      if (account.twoFactor) {
        const check = await claimAccountTotp(deps, tx, accountId, change.two_factor_code);
        if (check !== 'accepted') return fail('TWO_FACTOR_CODE_INVALID');
      }
      // Guarded by the hash that was checked: of two concurrent changes, one wins.
      const updated = await tx.query(
        'UPDATE accounts SET password_hash = $3, updated_at = $4 WHERE id = $1 AND password_hash = $2',
        [accountId, currentHash, passwordHash, now],
      );
      if (updated.rowCount === 0) return fail('CURRENT_PASSWORD_INVALID');
      const version = await endAllSessions(tx, accountId, now);
      return ok(await startSession(tx, deps, { ...account, sessionVersion: version }));
    });
  const result = account.twoFactor
    ? await withAttempt(deps.twoFactorAttempts, `2fa:${accountId}`, replace, (outcome) =>
        outcome.ok ? 'success' : outcome.code === 'TWO_FACTOR_CODE_INVALID' ? 'failure' : 'neutral',
      )
    : await replace();
  if (!result.ok) return result;
  await notifyPasswordChanged({ ...deps, publicUrl: deps.config.publicUrl }, account, now);
  return result;
}
