import type { Account, SessionResponse } from '@platform/contracts';
import { accountsApi, authApi } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { useAppStore } from '../../state/app-store.ts';
import type { ConnectedWallet } from './wallet-providers.ts';

/**
 * The auth flows of spec §3.2 and §4 as plain async functions: the modals call them and show
 * toasts; tests call them with a stubbed fetch.
 */

/** Stores the token, then the account (fetched by account_id unless the answer carried it). */
export async function establishSession(session: SessionResponse, account?: Account): Promise<Account> {
  const store = useAppStore.getState();
  store.setAccessToken(session.token);
  try {
    const user = account ?? (await accountsApi.get(session.account_id));
    store.setUser(user);
    return user;
  } catch (error) {
    store.setAccessToken(null);
    throw error;
  }
}

export interface EmailCredentials {
  email: string;
  password: string;
  twoFactorCode?: string;
  /** One of the 2FA recovery codes, instead of the authenticator's code. */
  recoveryCode?: string;
}

export async function loginWithEmail({
  email,
  password,
  twoFactorCode,
  recoveryCode,
}: EmailCredentials): Promise<Account> {
  const session = await authApi.login({
    login_type: 'email',
    email,
    password,
    ...(twoFactorCode ? { two_factor_code: twoFactorCode } : {}),
    ...(recoveryCode ? { recovery_code: recoveryCode } : {}),
  });
  return establishSession(session);
}

/** Spec §2.4: the two-factor view opens on HTTP 401 with a message about 2FA. */
export function isTwoFactorChallenge(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  return error.code === 'TWO_FACTOR_REQUIRED' || /two-factor|2fa/i.test(error.message);
}

function rememberWallet(wallet: ConnectedWallet): void {
  useAppStore.getState().setWallet({ address: wallet.address, network: wallet.network, connected: true });
}

async function signChallenge(wallet: ConnectedWallet): Promise<{ message: string; signature: string }> {
  const { challenge } = await authApi.walletChallenge({ wallet_address: wallet.address, wallet_type: wallet.network });
  const signature = await wallet.sign(challenge);
  return { message: challenge, signature };
}

/** Connect, challenge, sign, login (spec §4: an unregistered wallet must register first). */
export async function loginWithWallet(wallet: ConnectedWallet): Promise<Account> {
  rememberWallet(wallet);
  const { message, signature } = await signChallenge(wallet);
  const session = await authApi.login({
    login_type: 'wallet',
    wallet_address: wallet.address,
    signature,
    message,
    wallet_type: wallet.network,
  });
  return establishSession(session);
}

export interface RegistrationDetails {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  marketingConsent?: boolean | undefined;
}

/**
 * Account creation succeeded either way; the outcome says whether the automatic login did too.
 * 'check-email': the login refused the password, which happens when the email already had an
 * account (the server answers registration alike either way and mails that account's owner).
 */
export type RegistrationOutcome = 'logged-in' | 'login-manually' | 'check-email';

export async function registerWithEmail(details: RegistrationDetails): Promise<RegistrationOutcome> {
  await accountsApi.create({
    email: details.email,
    password: details.password,
    first_name: details.firstName,
    last_name: details.lastName,
    terms_accepted: true,
    marketing_consent: details.marketingConsent ?? false,
    // The account's mails are written in the language the user registered in.
    language: useAppStore.getState().language,
  });
  try {
    await loginWithEmail({ email: details.email, password: details.password });
    return 'logged-in';
  } catch (error) {
    return error instanceof ApiError && error.code === 'INVALID_CREDENTIALS' ? 'check-email' : 'login-manually';
  }
}

/**
 * Spec §3.2: a wallet account is named 'User' with terms accepted and no marketing consent. Our
 * server derives the account from the signature, so no synthetic password travels.
 */
export async function registerWithWallet(wallet: ConnectedWallet): Promise<RegistrationOutcome> {
  rememberWallet(wallet);
  const { message, signature } = await signChallenge(wallet);
  const session = await authApi.walletRegister({
    wallet_address: wallet.address,
    signature,
    message,
    wallet_type: wallet.network,
    first_name: 'User',
    marketing_consent: false,
    language: useAppStore.getState().language,
  });
  try {
    await establishSession(session, session.account);
    return 'logged-in';
  } catch {
    return 'login-manually';
  }
}

/** Spec §4: logout clears the session locally at once and revokes the refresh token on the server. */
export async function logout(): Promise<void> {
  const request = authApi.logout().catch(() => undefined);
  useAppStore.getState().clearSession();
  await request;
}
