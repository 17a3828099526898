import type { Account, LanguageCode, WalletType } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import type { Result } from '../../lib/errors.ts';

/**
 * What auth reads and changes of an account's credentials. The accounts module keeps the accounts
 * and provides this; the composition root hands it to auth, so auth never imports accounts (which
 * uses auth's guard and password hashing).
 */
export interface AccountCredentials {
  findSignInAccount(q: Queryable, by: SignInLookup): Promise<SignInAccount | null>;
  /** Keeps a new TOTP secret aside until the user proves their app has it. */
  savePendingTwoFactorSecret(q: Queryable, id: string, secret: string, now: Date): Promise<boolean>;
  /** Turns the pending secret on, if it is still the one the code was checked against. */
  activateTwoFactor(q: Queryable, id: string, pendingSecret: string, step: number, now: Date): Promise<boolean>;
  /** Turns 2FA off, if the code's step is still unused (a concurrent use of the same code loses). */
  deactivateTwoFactor(q: Queryable, id: string, secret: string, step: number, now: Date): Promise<boolean>;
  /** Records a used TOTP step atomically: of two requests with the same code, only one wins. */
  claimTotpStep(q: Queryable, id: string, step: number): Promise<boolean>;
  /** A wallet account (no password); a clash answers WALLET_ALREADY_REGISTERED. */
  createWalletAccount(q: Queryable, input: NewWalletAccount, now: Date): Promise<Result<Account>>;
  /** Who a password reset mail for this email goes to: an account with a password and a mailbox, if any. */
  resetRecipient(q: Queryable, email: string): Promise<ResetRecipient | null>;
}

export type SignInAccount = {
  id: string;
  role: 'user' | 'admin' | 'compliance';
  email: string;
  passwordHash: string | null;
  emailVerified: boolean;
  /** The account's chosen language (its mails are written in it); null when none. */
  language: LanguageCode | null;
  /** The active TOTP secret and the last time step used with it; null when 2FA is off. */
  twoFactor: { secret: string; lastUsedStep: number | null } | null;
  pendingTwoFactorSecret: string | null;
  /** Frozen by an operator: no sign-in, no token refresh. */
  frozen: boolean;
  /** Minted into access tokens; raising it voids the older ones (auth/session-versions.ts). */
  sessionVersion: number;
};

export type SignInLookup = { email: string } | { id: string } | { wallet: { type: WalletType; address: string } };

export type NewWalletAccount = {
  walletType: WalletType;
  address: string;
  firstName: string | undefined;
  marketingConsent: boolean;
  language?: LanguageCode | undefined;
};

export type ResetRecipient = { id: string; email: string; firstName: string; language: LanguageCode | null };
