import {
  activeSessionsResponseSchema,
  type ChangePasswordRequest,
  passwordResetDoneSchema,
  passwordResetRequestedSchema,
  recoveryCodesResponseSchema,
  sessionResponseSchema,
  sessionsRevokedResponseSchema,
  twoFactorStatusResponseSchema,
} from '@platform/contracts';
import { apiClient } from './http.ts';

const accountPath = (accountId: string) => `/v1/accounts/${encodeURIComponent(accountId)}`;

/** Password reset, change of password, recovery codes and sessions (docs/auth.md, "Account security"). */
export const accountSecurityApi = {
  requestPasswordReset: (email: string) =>
    apiClient.request('/v1/auth/password-reset/request', {
      method: 'POST',
      body: { email },
      schema: passwordResetRequestedSchema,
    }),
  confirmPasswordReset: (token: string, password: string) =>
    apiClient.request('/v1/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password },
      schema: passwordResetDoneSchema,
    }),
  /** Every session ends; the answer is this device's new session. */
  changePassword: (accountId: string, body: ChangePasswordRequest) =>
    apiClient.request(`${accountPath(accountId)}/password`, { method: 'POST', body, schema: sessionResponseSchema }),
  disableTwoFactorWithRecoveryCode: (accountId: string, recoveryCode: string) =>
    apiClient.request(`${accountPath(accountId)}/2fa/disable`, {
      method: 'POST',
      body: { recovery_code: recoveryCode },
      schema: twoFactorStatusResponseSchema,
    }),
  renewRecoveryCodes: (accountId: string, code: string) =>
    apiClient.request(`${accountPath(accountId)}/2fa/recovery-codes`, {
      method: 'POST',
      body: { code },
      schema: recoveryCodesResponseSchema,
    }),
  sessions: () => apiClient.request('/v1/auth/sessions', { schema: activeSessionsResponseSchema }),
  revokeSession: (sessionId: string) =>
    apiClient.request(`/v1/auth/sessions/${encodeURIComponent(sessionId)}/revoke`, {
      method: 'POST',
      body: {},
      schema: sessionsRevokedResponseSchema,
    }),
  revokeOtherSessions: () =>
    apiClient.request('/v1/auth/sessions/revoke-others', {
      method: 'POST',
      body: {},
      schema: sessionsRevokedResponseSchema,
    }),
};
