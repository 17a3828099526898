import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { withAttempt } from './attempt-budget.ts';
import type { AuthDeps } from './deps.ts';
import { deleteRecoveryCodes, disableTwoFactorWithRecoveryCode, replaceRecoveryCodes } from './recovery-codes.ts';
import { generateTotpSecret, totpSetup, verifyTotp } from './totp.ts';

type TwoFactorDeps = Pick<AuthDeps, 'db' | 'clock' | 'twoFactorAttempts' | 'secretBox' | 'accounts'>;
export type TwoFactorSetupResult = { two_factor_enabled: false; secret: string; otpauth_url: string; qr_code: string };
export type TwoFactorStatus = { two_factor_enabled: boolean; recovery_codes?: string[] };

/**
 * Step one: a new secret, kept pending. 2FA is not on until the user proves, with a code, that
 * their authenticator app has the secret; a setup abandoned halfway locks nobody out.
 */
export async function startTwoFactorSetup(
  deps: TwoFactorDeps,
  accountId: string,
): Promise<Result<TwoFactorSetupResult>> {
  const account = await deps.accounts.findSignInAccount(deps.db, { id: accountId });
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (account.twoFactor) return fail('TWO_FACTOR_ALREADY_ENABLED');
  const secret = generateTotpSecret();
  if (
    !(await deps.accounts.savePendingTwoFactorSecret(deps.db, accountId, deps.secretBox.seal(secret), deps.clock()))
  ) {
    return fail('TWO_FACTOR_ALREADY_ENABLED');
  }
  const setup = await totpSetup(secret, account.email);
  return ok({ two_factor_enabled: false, secret, otpauth_url: setup.otpauthUrl, qr_code: setup.qrCode });
}

/** Step two: a valid code from the pending secret turns 2FA on. */
export async function confirmTwoFactorSetup(
  deps: TwoFactorDeps,
  accountId: string,
  code: string,
): Promise<Result<TwoFactorStatus>> {
  return withCodeAttempt(deps, accountId, async () => {
    const account = await deps.accounts.findSignInAccount(deps.db, { id: accountId });
    if (!account) return fail('ACCOUNT_NOT_FOUND');
    if (account.twoFactor) return fail('TWO_FACTOR_ALREADY_ENABLED');
    // Secrets are stored sealed; the sealed value is what the guarded update compares against.
    const pending = account.pendingTwoFactorSecret;
    const pendingSecret = pending ? deps.secretBox.open(pending) : null;
    if (!pending || pendingSecret === null) return fail('TWO_FACTOR_NOT_PENDING');
    const checked = verifyTotp(pendingSecret, code, deps.clock(), null);
    if (!checked) return fail('TWO_FACTOR_CODE_INVALID');
    return deps.db.transaction(async (tx) => {
      // The pending secret may have been replaced meanwhile (setup restarted in another tab).
      const activated = await deps.accounts.activateTwoFactor(tx, accountId, pending, checked.step, deps.clock());
      if (!activated) return fail('TWO_FACTOR_NOT_PENDING');
      // The answer that turns 2FA on is the only one that ever carries the recovery codes.
      const recoveryCodes = await replaceRecoveryCodes(tx, accountId, deps.clock());
      return ok({ two_factor_enabled: true, recovery_codes: recoveryCodes });
    });
  });
}

/** A current TOTP code, or one of the recovery codes when the authenticator is lost. */
export type SecondFactorProof = { code?: string | undefined; recovery_code?: string | undefined };

/** Turning 2FA off needs a valid, unused code: a stolen session alone cannot remove the second factor. */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  accountId: string,
  proof: SecondFactorProof,
): Promise<Result<TwoFactorStatus>> {
  return withCodeAttempt(deps, accountId, async () => {
    const account = await deps.accounts.findSignInAccount(deps.db, { id: accountId });
    if (!account) return fail('ACCOUNT_NOT_FOUND');
    if (!account.twoFactor) return fail('TWO_FACTOR_NOT_ENABLED');
    const now = deps.clock();
    if (proof.code === undefined) {
      const recoveryCode = proof.recovery_code ?? '';
      const disabled = await deps.db.transaction((tx) =>
        disableTwoFactorWithRecoveryCode(tx, accountId, recoveryCode, now),
      );
      return disabled ? ok({ two_factor_enabled: false }) : fail('TWO_FACTOR_CODE_INVALID');
    }
    const { secret, lastUsedStep } = account.twoFactor;
    const plainSecret = deps.secretBox.open(secret);
    const checked = plainSecret === null ? null : verifyTotp(plainSecret, proof.code, now, lastUsedStep);
    if (!checked) return fail('TWO_FACTOR_CODE_INVALID');
    return deps.db.transaction(async (tx) => {
      if (!(await deps.accounts.deactivateTwoFactor(tx, accountId, secret, checked.step, now)))
        return fail('TWO_FACTOR_CODE_INVALID');
      await deleteRecoveryCodes(tx, accountId);
      return ok({ two_factor_enabled: false });
    });
  });
}

/** A fresh set of recovery codes (the old ones stop working), for a valid TOTP code. */
export async function renewRecoveryCodes(
  deps: TwoFactorDeps,
  accountId: string,
  code: string,
): Promise<Result<{ recovery_codes: string[] }>> {
  return withCodeAttempt(deps, accountId, () =>
    deps.db.transaction(async (tx) => {
      const check = await claimAccountTotp(deps, tx, accountId, code);
      if (check === 'not_enabled') return fail('TWO_FACTOR_NOT_ENABLED');
      if (check !== 'accepted') return fail('TWO_FACTOR_CODE_INVALID');
      return ok({ recovery_codes: await replaceRecoveryCodes(tx, accountId, deps.clock()) });
    }),
  );
}

/** Applies the per-account budget of wrong codes around one attempt. */
async function withCodeAttempt<T>(
  deps: TwoFactorDeps,
  accountId: string,
  attempt: () => Promise<Result<T>>,
): Promise<Result<T>> {
  // Only a wrong code spends the budget; a setup not started or 2FA already on proves nothing.
  return withAttempt(deps.twoFactorAttempts, `2fa:${accountId}`, attempt, (result) => {
    if (result.ok) return 'success';
    return result.code === 'TWO_FACTOR_CODE_INVALID' ? 'failure' : 'neutral';
  });
}

/** What a TOTP check outside sign-in found: no 2FA on the account, no code, a wrong or used code, or a good one. */
export type AccountCodeCheck = 'not_enabled' | 'missing' | 'invalid' | 'accepted';

/**
 * For a sensitive action of a signed-in account (a withdrawal, §5): checks the account's current
 * TOTP code and claims its time step inside the caller's transaction, as an email sign-in does, so
 * a code works once. When the caller's transaction rolls back, the step is not spent. The caller
 * applies its own budget of wrong codes.
 */
export async function claimAccountTotp(
  deps: Pick<TwoFactorDeps, 'clock' | 'secretBox' | 'accounts'>,
  tx: Queryable,
  accountId: string,
  code: string | undefined,
): Promise<AccountCodeCheck> {
  const account = await deps.accounts.findSignInAccount(tx, { id: accountId });
  if (!account?.twoFactor) return 'not_enabled';
  if (code === undefined || code.trim() === '') return 'missing';
  const secret = deps.secretBox.open(account.twoFactor.secret);
  const checked =
    secret === null ? null : verifyTotp(secret, code.trim(), deps.clock(), account.twoFactor.lastUsedStep);
  if (!checked) return 'invalid';
  // A concurrent use of the same code may have claimed the step first.
  return (await deps.accounts.claimTotpStep(tx, accountId, checked.step)) ? 'accepted' : 'invalid';
}
