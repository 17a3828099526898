import crypto from 'node:crypto';
import {
  type Account,
  type createAccountRequestSchema,
  type updateProfileRequestSchema,
  v,
  validationText,
  type WalletType,
} from '@platform/contracts';
import type { z } from 'zod';
import { isUniqueViolation, type Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { NewWalletAccount, SignInAccount, SignInLookup } from '../auth/account-credentials.ts';
import { hashPassword } from '../auth/passwords.ts';
import {
  type AccountRow,
  insertAccount,
  type ProfileChanges,
  selectAccount,
  selectAccountByWallet,
  toAccount,
  updateProfileColumns,
} from './queries.ts';

/**
 * Wallet accounts get a synthetic email under a reserved domain: `.invalid` never resolves
 * (RFC 2606), so no mail is ever sent there, and nobody may register an email under it.
 */
export const WALLET_EMAIL_DOMAIN = 'wallet.meridian.invalid';
/** Spec §3.2: a wallet account is called 'User' unless the client sends a first name. */
const WALLET_ACCOUNT_FIRST_NAME = 'User';
/** Spec §3.2 names no last name; 'Wallet' keeps names non-empty and at least 2 characters like every other account. */
export const WALLET_ACCOUNT_LAST_NAME = 'Wallet';

export type CreateAccountInput = z.output<typeof createAccountRequestSchema>;
export type UpdateProfileInput = z.output<typeof updateProfileRequestSchema>;

const emailIssue = (key: 'emailAddressInvalid') => ({
  message: validationText(v(key)),
  details: { issues: [{ path: 'email', message: validationText(v(key)), key: v(key) }] },
});

export async function registerAccount(q: Queryable, input: CreateAccountInput, now: Date): Promise<Result<Account>> {
  if (input.email.endsWith(`@${WALLET_EMAIL_DOMAIN}`))
    return fail('VALIDATION_ERROR', emailIssue('emailAddressInvalid'));
  // The cheap check first spares an argon2 hash; the unique index settles races.
  if (await selectAccount(q, 'email', input.email)) return fail('EMAIL_TAKEN');
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await insertAccount(q, {
      id: crypto.randomUUID(),
      email: input.email,
      passwordHash,
      firstName: input.first_name,
      lastName: input.last_name,
      phone: input.phone ?? null,
      marketingConsent: input.marketing_consent,
      wallet: null,
      language: input.language ?? null,
      now,
    });
    return row ? ok(toAccount(row)) : fail('EMAIL_TAKEN');
  } catch (error) {
    if (isUniqueViolation(error, 'accounts_email_key')) return fail('EMAIL_TAKEN');
    throw error;
  }
}

export function walletAccountEmail(walletType: WalletType, address: string): string {
  // Base58 is case-sensitive, so a Solana address keeps its case; hex is not, so it is lowered.
  const local = walletType === 'ethereum' ? address.toLowerCase() : address;
  return `${local}@${WALLET_EMAIL_DOMAIN}`;
}

/**
 * A wallet account has no password: it signs in by signature only. Terms are accepted by signing
 * up. Safe inside a transaction: a clash answers WALLET_ALREADY_REGISTERED without an SQL error.
 */
export async function createWalletAccount(q: Queryable, input: NewWalletAccount, now: Date): Promise<Result<Account>> {
  const account = {
    id: crypto.randomUUID(),
    email: walletAccountEmail(input.walletType, input.address),
    passwordHash: null,
    firstName: input.firstName || WALLET_ACCOUNT_FIRST_NAME,
    lastName: WALLET_ACCOUNT_LAST_NAME,
    phone: null,
    marketingConsent: input.marketingConsent,
    wallet: { type: input.walletType, address: input.address },
    language: input.language ?? null,
    now,
  };
  const row = await insertAccount(q, account, 'skip');
  return row ? ok(toAccount(row)) : fail('WALLET_ALREADY_REGISTERED');
}

export async function getAccount(q: Queryable, id: string): Promise<Result<Account>> {
  const row = await selectAccount(q, 'id', id);
  return row ? ok(toAccount(row)) : fail('ACCOUNT_NOT_FOUND');
}

/** Absent fields stay as they are; null (or an empty text) clears a field. */
export async function updateProfile(
  q: Queryable,
  id: string,
  input: UpdateProfileInput,
  now: Date,
): Promise<Result<Account>> {
  const emptyToNull = (value: string | null | undefined) => (value === '' ? null : value);
  const changes: ProfileChanges = {
    ...input,
    display_name: emptyToNull(input.display_name),
    bio: emptyToNull(input.bio),
    location: emptyToNull(input.location),
  };
  try {
    const row = await updateProfileColumns(q, id, changes, now);
    return row ? ok(toAccount(row)) : fail('ACCOUNT_NOT_FOUND');
  } catch (error) {
    if (isUniqueViolation(error, 'accounts_username_key')) return fail('USERNAME_TAKEN');
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// What the auth module needs to know and change about an account's credentials (its
// AccountCredentials, handed to auth by the composition root).
// ---------------------------------------------------------------------------------------------

function toSignInAccount(row: AccountRow): SignInAccount {
  const lastUsedStep = row.totp_last_used_step === null ? null : Number(row.totp_last_used_step);
  return {
    id: row.id,
    role: row.role,
    email: row.email,
    passwordHash: row.password_hash,
    emailVerified: row.email_verified_at !== null,
    language: row.language ?? null,
    twoFactor: row.totp_enabled_at !== null && row.totp_secret ? { secret: row.totp_secret, lastUsedStep } : null,
    pendingTwoFactorSecret: row.totp_pending_secret,
    frozen: row.frozen_at !== null && row.frozen_at !== undefined,
    sessionVersion: Number(row.session_version ?? 0),
  };
}

export async function findSignInAccount(q: Queryable, by: SignInLookup): Promise<SignInAccount | null> {
  let row: AccountRow | null;
  if ('email' in by) row = await selectAccount(q, 'email', by.email);
  else if ('id' in by) row = await selectAccount(q, 'id', by.id);
  else row = await selectAccountByWallet(q, by.wallet.type, by.wallet.address);
  return row ? toSignInAccount(row) : null;
}

async function updated(q: Queryable, sql: string, params: unknown[]): Promise<boolean> {
  return (await q.query(sql, params)).rowCount > 0;
}

/** Keeps a new TOTP secret aside until the user proves their app has it. */
export function savePendingTwoFactorSecret(q: Queryable, id: string, secret: string, now: Date): Promise<boolean> {
  return updated(
    q,
    'UPDATE accounts SET totp_pending_secret = $2, updated_at = $3 WHERE id = $1 AND totp_enabled_at IS NULL',
    [id, secret, now],
  );
}

/** Turns the pending secret on, if it is still the one the code was checked against. */
export function activateTwoFactor(q: Queryable, id: string, pendingSecret: string, step: number, now: Date) {
  return updated(
    q,
    `UPDATE accounts SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_enabled_at = $4,
       totp_last_used_step = $3, updated_at = $4
     WHERE id = $1 AND totp_pending_secret = $2 AND totp_enabled_at IS NULL`,
    [id, pendingSecret, step, now],
  );
}

/** Turns 2FA off, if the code's step is still unused (a concurrent use of the same code loses). */
export function deactivateTwoFactor(q: Queryable, id: string, secret: string, step: number, now: Date) {
  return updated(
    q,
    `UPDATE accounts SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL,
       totp_last_used_step = NULL, updated_at = $4
     WHERE id = $1 AND totp_secret = $2 AND (totp_last_used_step IS NULL OR totp_last_used_step < $3)`,
    [id, secret, step, now],
  );
}

/** Records a used TOTP step atomically: of two requests with the same code, only one wins. */
export function claimTotpStep(q: Queryable, id: string, step: number): Promise<boolean> {
  return updated(
    q,
    `UPDATE accounts SET totp_last_used_step = $2
     WHERE id = $1 AND (totp_last_used_step IS NULL OR totp_last_used_step < $2)`,
    [id, step],
  );
}

/**
 * For a transfer: the account a username belongs to (any case; usernames are unique without regard
 * to case) and the sender's own row, in one read.
 */
export async function transferParties(
  q: Queryable,
  username: string,
  senderId: string,
): Promise<{ recipient: { id: string; username: string } | null; senderUsername: string | null }> {
  const found = await q.query<{ id: string; username: string | null }>(
    'SELECT id, username FROM accounts WHERE lower(username) = lower($1) OR id = $2',
    [username, senderId],
  );
  const recipient = found.rows.find((row) => row.username?.toLowerCase() === username.toLowerCase());
  return {
    recipient: recipient?.username ? { id: recipient.id, username: recipient.username } : null,
    senderUsername: found.rows.find((row) => row.id === senderId)?.username ?? null,
  };
}

/** Usernames of many accounts (null where none is set). */
export async function usernamesOf(q: Queryable, ids: readonly string[]): Promise<Map<string, string | null>> {
  const found = await q.query<{ id: string; username: string | null }>(
    'SELECT id, username FROM accounts WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(found.rows.map((row) => [row.id, row.username]));
}
