import type { AppContext, ModuleParts } from '../../context.ts';
import type { Queryable } from '../../db/database.ts';
import type { AccountCredentials, ResetRecipient } from '../auth/account-credentials.ts';
import { selectAccount } from './queries.ts';
import { accountsModule } from './routes.ts';
import {
  activateTwoFactor,
  claimTotpStep,
  createWalletAccount,
  deactivateTwoFactor,
  findSignInAccount,
  savePendingTwoFactorSecret,
  WALLET_EMAIL_DOMAIN,
} from './service.ts';

/** The accounts, and the credentials of theirs that auth reads and changes. */
export type Accounts = ModuleParts & { credentials: AccountCredentials };

/** Accounts: registration, the account itself, its profile and email verification. */
export function createAccounts(context: AppContext): Accounts {
  return {
    credentials: {
      findSignInAccount,
      savePendingTwoFactorSecret,
      activateTwoFactor,
      deactivateTwoFactor,
      claimTotpStep,
      createWalletAccount,
      resetRecipient,
    },
    routes: (scope) => accountsModule(scope, context),
  };
}

async function resetRecipient(q: Queryable, email: string): Promise<ResetRecipient | null> {
  const account = await selectAccount(q, 'email', email);
  // Wallet accounts have no password and an address that receives no mail.
  if (!account?.password_hash || account.email.endsWith(`@${WALLET_EMAIL_DOMAIN}`)) return null;
  return { id: account.id, email: account.email, firstName: account.first_name, language: account.language ?? null };
}
