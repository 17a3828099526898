import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import {
  activateTwoFactor,
  claimTotpStep,
  deactivateTwoFactor,
  findSignInAccount,
  savePendingTwoFactorSecret,
} from '../accounts/service.ts';
import { withAttempt } from './attempt-budget.ts';
import type { AuthDeps } from './service.ts';
import { generateTotpSecret, totpSetup, verifyTotp } from './totp.ts';

type TwoFactorDeps = Pick<AuthDeps, 'db' | 'clock' | 'twoFactorAttempts' | 'secretBox'>;
export type TwoFactorSetupResult = { two_factor_enabled: false; secret: string; otpauth_url: string; qr_code: string };
export type TwoFactorStatus = { two_factor_enabled: boolean };

/**
 * Step one: a new secret, kept pending. 2FA is not on until the user proves, with a code, that
 * their authenticator app has the secret; a setup abandoned halfway locks nobody out.
 */
export async function startTwoFactorSetup(
  deps: TwoFactorDeps,
  accountId: string,
): Promise<Result<TwoFactorSetupResult>> {
  const account = await findSignInAccount(deps.db, { id: accountId });
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (account.twoFactor) return fail('TWO_FACTOR_ALREADY_ENABLED');
  const secret = generateTotpSecret();
  if (!(await savePendingTwoFactorSecret(deps.db, accountId, deps.secretBox.seal(secret), deps.clock()))) {
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
    const account = await findSignInAccount(deps.db, { id: accountId });
    if (!account) return fail('ACCOUNT_NOT_FOUND');
    if (account.twoFactor) return fail('TWO_FACTOR_ALREADY_ENABLED');
    // Secrets are stored sealed; the sealed value is what the guarded update compares against.
    const pending = account.pendingTwoFactorSecret;
    const pendingSecret = pending ? deps.secretBox.open(pending) : null;
    if (!pending || pendingSecret === null) return fail('TWO_FACTOR_NOT_PENDING');
    const checked = verifyTotp(pendingSecret, code, deps.clock(), null);
    if (!checked) return fail('TWO_FACTOR_INVALID');
    // The pending secret may have been replaced meanwhile (setup restarted in another tab).
    const activated = await activateTwoFactor(deps.db, accountId, pending, checked.step, deps.clock());
    return activated ? ok({ two_factor_enabled: true }) : fail('TWO_FACTOR_NOT_PENDING');
  });
}

/** Turning 2FA off needs a valid, unused code: a stolen session alone cannot remove the second factor. */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  accountId: string,
  code: string,
): Promise<Result<TwoFactorStatus>> {
  return withCodeAttempt(deps, accountId, async () => {
    const account = await findSignInAccount(deps.db, { id: accountId });
    if (!account) return fail('ACCOUNT_NOT_FOUND');
    if (!account.twoFactor) return fail('TWO_FACTOR_NOT_ENABLED');
    const { secret, lastUsedStep } = account.twoFactor;
    const plainSecret = deps.secretBox.open(secret);
    const checked = plainSecret === null ? null : verifyTotp(plainSecret, code, deps.clock(), lastUsedStep);
    if (!checked) return fail('TWO_FACTOR_INVALID');
    const disabled = await deactivateTwoFactor(deps.db, accountId, secret, checked.step, deps.clock());
    return disabled ? ok({ two_factor_enabled: false }) : fail('TWO_FACTOR_INVALID');
  });
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
    return result.code === 'TWO_FACTOR_INVALID' ? 'failure' : 'neutral';
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
  deps: Pick<TwoFactorDeps, 'clock' | 'secretBox'>,
  tx: Queryable,
  accountId: string,
  code: string | undefined,
): Promise<AccountCodeCheck> {
  const account = await findSignInAccount(tx, { id: accountId });
  if (!account?.twoFactor) return 'not_enabled';
  if (code === undefined || code.trim() === '') return 'missing';
  const secret = deps.secretBox.open(account.twoFactor.secret);
  const checked =
    secret === null ? null : verifyTotp(secret, code.trim(), deps.clock(), account.twoFactor.lastUsedStep);
  if (!checked) return 'invalid';
  // A concurrent use of the same code may have claimed the step first.
  return (await claimTotpStep(tx, accountId, checked.step)) ? 'accepted' : 'invalid';
}
