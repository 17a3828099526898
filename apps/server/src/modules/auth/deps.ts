import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AccessTokenKey } from './access-tokens.ts';
import type { AccountCredentials } from './account-credentials.ts';
import type { AttemptBudget } from './attempt-budget.ts';
import type { SessionDeps } from './session.ts';

/**
 * What the sign-in flows need, in a file of its own so that the parts of the flow (recovery codes,
 * 2FA, password change) take it without importing service.ts, which imports them.
 */
export type AuthDeps = SessionDeps & {
  db: Database;
  config: Pick<Config, 'publicUrl' | 'refreshTokenTtlDays'>;
  signing: AccessTokenKey;
  /** Failed sign-ins per email, counted in the database before each check. */
  loginAttempts: AttemptBudget;
  /** Failed 2FA codes per account, outside sign-in. */
  twoFactorAttempts: AttemptBudget;
  /** Seals TOTP secrets at rest. */
  secretBox: SecretBox;
  /** The accounts' credentials (the accounts module's). */
  accounts: AccountCredentials;
};
