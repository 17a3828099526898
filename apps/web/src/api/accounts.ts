import {
  type Account,
  accountSchema,
  type CreateAccountRequest,
  type LoginRequest,
  registrationResponseSchema,
  sessionResponseSchema,
  twoFactorSetupResponseSchema,
  twoFactorStatusResponseSchema,
  type UpdateProfileRequest,
  verifyEmailResponseSchema,
  type WalletRegisterRequest,
  walletChallengeResponseSchema,
} from '@platform/contracts';
import { apiClient } from './http.ts';

/** Wallet registration answers a session and the new account in one go. */
export const walletRegisterResponseSchema = sessionResponseSchema.extend({ account: accountSchema.optional() });

const accountPath = (accountId: string) => `/v1/accounts/${encodeURIComponent(accountId)}`;

export const authApi = {
  login: (body: LoginRequest) =>
    apiClient.request('/v1/auth/login', { method: 'POST', body, schema: sessionResponseSchema }),
  walletChallenge: (body: { wallet_address: string; wallet_type: 'ethereum' | 'solana' }) =>
    apiClient.request('/v1/auth/wallet-challenge', { method: 'POST', body, schema: walletChallengeResponseSchema }),
  walletRegister: (body: WalletRegisterRequest) =>
    apiClient.request('/v1/auth/wallet-register', { method: 'POST', body, schema: walletRegisterResponseSchema }),
  logout: () => apiClient.request('/v1/auth/logout', { method: 'POST', body: {} }),
};

export const accountsApi = {
  create: (body: CreateAccountRequest) =>
    apiClient.request('/v1/accounts', { method: 'POST', body, schema: registrationResponseSchema }),
  get: (accountId: string): Promise<Account> => apiClient.request(accountPath(accountId), { schema: accountSchema }),
  updateProfile: (accountId: string, body: UpdateProfileRequest) =>
    apiClient.request(`${accountPath(accountId)}/profile`, { method: 'PUT', body, schema: accountSchema }),
  startTwoFactorSetup: (accountId: string) =>
    apiClient.request(`${accountPath(accountId)}/2fa/enable`, {
      method: 'POST',
      body: {},
      schema: twoFactorSetupResponseSchema,
    }),
  confirmTwoFactor: (accountId: string, code: string) =>
    apiClient.request(`${accountPath(accountId)}/2fa/enable`, {
      method: 'POST',
      body: { code },
      schema: twoFactorStatusResponseSchema,
    }),
  disableTwoFactor: (accountId: string, code: string) =>
    apiClient.request(`${accountPath(accountId)}/2fa/disable`, {
      method: 'POST',
      body: { code },
      schema: twoFactorStatusResponseSchema,
    }),
  sendVerificationEmail: (accountId: string) =>
    apiClient.request(`${accountPath(accountId)}/verify`, {
      method: 'POST',
      body: {},
      schema: verifyEmailResponseSchema,
    }),
  verifyEmail: (accountId: string, token: string) =>
    apiClient.request(`${accountPath(accountId)}/verify`, {
      method: 'POST',
      body: { token },
      schema: verifyEmailResponseSchema,
    }),
};
