import { z } from 'zod';
import { emailSchema, newPasswordSchema, twoFactorCodeSchema } from './auth.ts';
import { v } from './validation.ts';

/**
 * Account security beyond sign-in: password reset by mailed link, change of password, 2FA recovery
 * codes and the list of active sessions (docs/auth.md, "Account security").
 */

/** Ten one-time codes are shown once when 2FA is turned on. */
export const RECOVERY_CODE_COUNT = 10;
/** Two groups of five base-32 characters: 50 random bits each, typed from paper without confusion. */
export const RECOVERY_CODE_PATTERN = /^[0-9a-z]{5}-[0-9a-z]{5}$/;

/** A recovery code as typed: any case, with or without the hyphen or spaces; normalised to `abcde-12345`. */
export const recoveryCodeSchema = z
  .string({ error: v('recoveryCodeRequired') })
  .max(64, { error: v('recoveryCodeInvalid') })
  .transform((code) => code.toLowerCase().replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .min(1, { error: v('recoveryCodeRequired') })
      .regex(/^[0-9a-z]{10}$/, { error: v('recoveryCodeInvalid') })
      .transform((code) => `${code.slice(0, 5)}-${code.slice(5)}`),
  );

/** Turning 2FA off takes a current code, or a recovery code when the authenticator is lost. */
export const twoFactorDisableRequestSchema = z
  .object({ code: twoFactorCodeSchema.optional(), recovery_code: recoveryCodeSchema.optional() })
  .refine((body) => body.code !== undefined || body.recovery_code !== undefined, {
    error: v('twoFactorCodeRequired'),
    path: ['code'],
  });

/** 2FA status; the answer that turns 2FA on also carries the recovery codes, the only time they are shown. */
export const twoFactorStatusResponseSchema = z.object({
  two_factor_enabled: z.boolean(),
  recovery_codes: z.array(z.string()).optional().describe('Shown once, when 2FA is turned on or codes are renewed'),
});
export type TwoFactorStatusResponse = z.infer<typeof twoFactorStatusResponseSchema>;

export const recoveryCodesRequestSchema = z.object({ code: twoFactorCodeSchema });
export const recoveryCodesResponseSchema = z.object({ recovery_codes: z.array(z.string()) });

// Password reset ---------------------------------------------------------------------------------

export const passwordResetRequestSchema = z.object({ email: emailSchema('emailInvalid') });
export const passwordResetRequestedSchema = z.object({
  requested: z.literal(true).describe('Same answer whether or not the email has an account'),
});

export const passwordResetConfirmSchema = z.object({
  token: z
    .string({ error: v('resetTokenRequired') })
    .trim()
    .min(1, { error: v('resetTokenRequired') })
    .max(256),
  password: newPasswordSchema,
});
export const passwordResetDoneSchema = z.object({ password_reset: z.literal(true) });

/** The reset screen's form (spec §5 Register password rules). */
export const resetPasswordFormSchema = z
  .object({
    password: newPasswordSchema,
    confirmPassword: z.string({ error: v('confirmPasswordRequired') }).min(1, { error: v('confirmPasswordRequired') }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: v('passwordsMustMatch'),
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>;

export const forgotPasswordFormSchema = z.object({ email: emailSchema('emailInvalid') });

// Change of password -----------------------------------------------------------------------------

const currentPasswordSchema = z
  .string({ error: v('currentPasswordRequired') })
  .min(1, { error: v('currentPasswordRequired') })
  .max(1024);

export const changePasswordRequestSchema = z
  .object({
    current_password: currentPasswordSchema,
    new_password: newPasswordSchema,
    two_factor_code: twoFactorCodeSchema.optional(),
  })
  .refine((body) => body.current_password !== body.new_password, {
    error: v('passwordSameAsCurrent'),
    path: ['new_password'],
  });
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

export const changePasswordFormSchema = z
  .object({
    currentPassword: currentPasswordSchema,
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: v('confirmPasswordRequired') }).min(1, { error: v('confirmPasswordRequired') }),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    error: v('passwordsMustMatch'),
    path: ['confirmPassword'],
  })
  .refine((form) => form.currentPassword !== form.newPassword, {
    error: v('passwordSameAsCurrent'),
    path: ['newPassword'],
  });
export type ChangePasswordForm = z.input<typeof changePasswordFormSchema>;

// Sessions ---------------------------------------------------------------------------------------

export const activeSessionSchema = z.object({
  id: z.string().describe('The session (one sign-in on one device)'),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().describe('The last sign-in or token refresh of the session'),
  current: z.boolean().describe('The session of the browser asking (its refresh cookie)'),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;
export const activeSessionsResponseSchema = z.object({ sessions: z.array(activeSessionSchema) });

export const sessionIdParamsSchema = z.object({ sessionId: z.string().uuid() });
export const revokeSessionsRequestSchema = z.object({ refresh_token: z.string().min(1).max(512).optional() });

/**
 * Ending sessions voids every access token of the account at once; the browser asking gets a fresh
 * access token for its own session (absent when its session was not identified or was the one ended).
 */
export const sessionsRevokedResponseSchema = z.object({
  revoked: z.number().int(),
  token: z.string().nullable(),
  expires_in: z.number().int().nullable(),
});
export type SessionsRevokedResponse = z.infer<typeof sessionsRevokedResponseSchema>;
