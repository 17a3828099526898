import type { Account, LanguageCode, TradingExperience, WalletType } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';

/** One row of `accounts`, as both drivers return it (timestamps as Date, NUMERIC as string, int8 as bigint). */
export type AccountRow = {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  phone: string | null;
  role: 'user' | 'admin' | 'compliance';
  email_verified_at: Date | null;
  marketing_consent: boolean;
  wallet_address: string | null;
  wallet_type: WalletType | null;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_used_step: bigint | number | null;
  /** Raised whenever all of the account's sessions end (auth/session-versions.ts). */
  session_version: number;
  display_name: string | null;
  username: string | null;
  bio: string | null;
  location: string | null;
  website: string | null;
  trading_experience: TradingExperience | null;
  private_profile: boolean;
  allow_copy_trading: boolean;
  copy_trading_fee_percent: string;
  /** The interface language the account chose (its mails are written in it); null until chosen. */
  language: LanguageCode | null;
  created_at: Date;
  /** Set by an operator (npm run freeze-account): the account may not sign in or act. */
  frozen_at: Date | null;
};

export type NewAccount = {
  id: string;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
  marketingConsent: boolean;
  wallet: { type: WalletType; address: string } | null;
  language: LanguageCode | null;
  now: Date;
};

/**
 * Inserts an account. With `onConflict: 'skip'` a clash with an existing email or wallet returns
 * null instead of raising, which keeps a surrounding transaction usable.
 */
export async function insertAccount(
  q: Queryable,
  account: NewAccount,
  onConflict: 'raise' | 'skip' = 'raise',
): Promise<AccountRow | null> {
  const result = await q.query<AccountRow>(
    `INSERT INTO accounts (id, email, password_hash, first_name, last_name, phone, marketing_consent,
       wallet_type, wallet_address, language, terms_accepted_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $11)
     ${onConflict === 'skip' ? 'ON CONFLICT DO NOTHING' : ''}
     RETURNING *`,
    [
      account.id,
      account.email,
      account.passwordHash,
      account.firstName,
      account.lastName,
      account.phone,
      account.marketingConsent,
      account.wallet?.type ?? null,
      account.wallet?.address ?? null,
      account.language,
      account.now,
    ],
  );
  return result.rows[0] ?? null;
}

export async function selectAccount(q: Queryable, where: 'id' | 'email', value: string): Promise<AccountRow | null> {
  const column = where === 'id' ? 'id' : 'email';
  const result = await q.query<AccountRow>(`SELECT * FROM accounts WHERE ${column} = $1`, [value]);
  return result.rows[0] ?? null;
}

export async function selectAccountByWallet(
  q: Queryable,
  walletType: WalletType,
  address: string,
): Promise<AccountRow | null> {
  const result = await q.query<AccountRow>('SELECT * FROM accounts WHERE wallet_type = $1 AND wallet_address = $2', [
    walletType,
    address,
  ]);
  return result.rows[0] ?? null;
}

/** Profile columns a user may change; the keys double as a whitelist for the dynamic UPDATE. */
export const PROFILE_COLUMNS = [
  'display_name',
  'username',
  'bio',
  'location',
  'website',
  'trading_experience',
  'private_profile',
  'allow_copy_trading',
  'copy_trading_fee_percent',
  'language',
] as const;
export type ProfileChanges = Partial<Record<(typeof PROFILE_COLUMNS)[number], string | boolean | null>>;

export async function updateProfileColumns(
  q: Queryable,
  id: string,
  changes: ProfileChanges,
  now: Date,
): Promise<AccountRow | null> {
  const columns = PROFILE_COLUMNS.filter((column) => changes[column] !== undefined);
  const assignments = columns.map((column, index) => `${column} = $${index + 3}`);
  const result = await q.query<AccountRow>(
    `UPDATE accounts SET ${['updated_at = $2', ...assignments].join(', ')} WHERE id = $1 RETURNING *`,
    [id, now, ...columns.map((column) => changes[column])],
  );
  return result.rows[0] ?? null;
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    email_verified: row.email_verified_at !== null,
    two_factor_enabled: row.totp_enabled_at !== null,
    wallet_address: row.wallet_address,
    wallet_type: row.wallet_type,
    marketing_consent: row.marketing_consent,
    role: row.role,
    created_at: iso(row.created_at),
    profile: {
      display_name: row.display_name,
      username: row.username,
      bio: row.bio,
      location: row.location,
      website: row.website,
      trading_experience: row.trading_experience,
      private_profile: row.private_profile,
      allow_copy_trading: row.allow_copy_trading,
      copy_trading_fee_percent: String(row.copy_trading_fee_percent),
      language: row.language ?? null,
    },
  };
}
