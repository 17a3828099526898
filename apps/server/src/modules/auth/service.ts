import type { LanguageCode, SessionResponse, WalletRegisterResponse } from '@platform/contracts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { SignInAccount } from './account-credentials.ts';
import { type AttemptOutcome, withAttempt } from './attempt-budget.ts';
import type { AuthDeps } from './deps.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { completeRecoveryCodeLogin } from './recovery-codes.ts';
import { revokeRefreshToken, rotateRefreshToken } from './refresh-tokens.ts';
import { sessionResponse, startSession } from './session.ts';
import { verifyTotp } from './totp.ts';
import { type SignedChallenge, verifySignedChallenge } from './wallet-challenges.ts';

type SessionResult = Result<SessionResponse>;

export type EmailLogin = {
  email: string;
  password: string;
  two_factor_code?: string | undefined;
  /** Instead of the TOTP code (recovery-codes.ts); counted by the same failure limit. */
  recovery_code?: string | undefined;
};

/**
 * Email sign-in. Every way of being wrong about the password (unknown email, wallet-only account,
 * wrong password) costs one argon2 verification and gets the same answer, so neither the answer
 * nor its timing tells whether an email has an account. The 2FA question comes only after the
 * password was right.
 */
export async function loginWithEmail(deps: AuthDeps, login: EmailLogin): Promise<SessionResult> {
  return withAttempt(deps.loginAttempts, `login:${login.email}`, () => checkEmailLogin(deps, login), loginOutcome);
}

/** Wrong passwords and codes spend the budget; the 2FA question (the password was right) does not. */
function loginOutcome(result: SessionResult): AttemptOutcome {
  if (result.ok) return 'success';
  return result.code === 'INVALID_CREDENTIALS' || result.code === 'TWO_FACTOR_INVALID' ? 'failure' : 'neutral';
}

async function checkEmailLogin(deps: AuthDeps, login: EmailLogin): Promise<SessionResult> {
  const account = await deps.accounts.findSignInAccount(deps.db, { email: login.email });
  const passwordOk = account?.passwordHash
    ? await verifyPassword(account.passwordHash, login.password)
    : await verifyAgainstDummy(login.password);
  if (!account || !passwordOk) return fail('INVALID_CREDENTIALS');
  // Said only to whoever knows the password.
  if (account.frozen) return fail('ACCOUNT_FROZEN');
  if (!account.twoFactor) return ok(await startSession(deps.db, deps, account));
  if (!login.two_factor_code && !login.recovery_code) return fail('TWO_FACTOR_REQUIRED');
  return login.two_factor_code
    ? completeTwoFactorLogin(deps, account, login.two_factor_code)
    : completeRecoveryCodeLogin(deps, account, login.recovery_code ?? '');
}

async function completeTwoFactorLogin(deps: AuthDeps, account: SignInAccount, code: string): Promise<SessionResult> {
  const twoFactor = account.twoFactor!;
  const secret = deps.secretBox.open(twoFactor.secret);
  const checked = secret === null ? null : verifyTotp(secret, code, deps.clock(), twoFactor.lastUsedStep);
  if (!checked) return fail('TWO_FACTOR_INVALID');
  return deps.db.transaction(async (tx) => {
    // A concurrent sign-in with the same code may have claimed the step first.
    if (!(await deps.accounts.claimTotpStep(tx, account.id, checked.step))) return fail('TWO_FACTOR_INVALID');
    return ok(await startSession(tx, deps, account));
  });
}

export type WalletLogin = SignedChallenge;

export async function loginWithWallet(deps: AuthDeps, login: WalletLogin): Promise<SessionResult> {
  const wallet = await verifySignedChallenge(deps, login, deps.clock());
  if (!wallet.ok) return wallet;
  const account = await deps.accounts.findSignInAccount(deps.db, {
    wallet: { type: wallet.value.walletType, address: wallet.value.address },
  });
  if (!account) return fail('WALLET_NOT_REGISTERED');
  if (account.frozen) return fail('ACCOUNT_FROZEN');
  return ok(await startSession(deps.db, deps, account));
}

export type WalletRegistration = SignedChallenge & {
  first_name?: string | undefined;
  marketing_consent: boolean;
  language?: LanguageCode | undefined;
};

/** Creates the wallet's account and signs it in, both or neither. */
export async function registerWallet(
  deps: AuthDeps,
  registration: WalletRegistration,
): Promise<Result<WalletRegisterResponse>> {
  const wallet = await verifySignedChallenge(deps, registration, deps.clock());
  if (!wallet.ok) return wallet;
  const input = {
    walletType: wallet.value.walletType,
    address: wallet.value.address,
    firstName: registration.first_name,
    marketingConsent: registration.marketing_consent,
    language: registration.language,
  };
  return deps.db.transaction(async (tx) => {
    const created = await deps.accounts.createWalletAccount(tx, input, deps.clock());
    if (!created.ok) return created;
    const session = await startSession(tx, deps, created.value);
    return ok({ ...session, account: created.value });
  });
}

/** Exchanges a refresh token for a new pair; the role is read afresh, so a changed role applies now. */
export async function refreshSession(deps: AuthDeps, refreshToken: string | undefined): Promise<SessionResult> {
  if (!refreshToken) return fail('REFRESH_TOKEN_INVALID');
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const rotated = await rotateRefreshToken(tx, refreshToken, now, deps.config.refreshTokenTtlDays);
    if (!rotated.ok) return rotated;
    const account = await deps.accounts.findSignInAccount(tx, { id: rotated.value.accountId });
    if (!account) return fail('REFRESH_TOKEN_INVALID');
    if (account.frozen) return fail('ACCOUNT_FROZEN');
    return ok(await sessionResponse(deps, account, rotated.value.refreshToken, now));
  });
}

export async function logout(deps: AuthDeps, refreshToken: string | undefined): Promise<void> {
  if (refreshToken) await revokeRefreshToken(deps.db, refreshToken, deps.clock());
}
