import { z } from 'zod';
import { languageCodeSchema } from './languages.ts';
import { v } from './validation.ts';

/** Spec §9: minimum password length 8; name minimum 2 characters; 2FA code 6 digits. */
export const PASSWORD_MIN_LENGTH = 8;
/** argon2 cost grows with input; a cap stops a megabyte "password" from being hashed. */
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 50;
export const TWO_FACTOR_CODE_LENGTH = 6;
export const PASSWORD_SPECIAL_CHARACTERS = '@$!%*?&';

const emailRegex = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const requiredString = (requiredKey: Parameters<typeof v>[0]) =>
  z
    .string({ error: v(requiredKey) })
    .trim()
    .min(1, { error: v(requiredKey) });

export const emailSchema = (invalidKey: 'emailInvalid' | 'emailAddressInvalid') =>
  requiredString('emailRequired')
    .max(254, { error: v('emailTooLong') })
    .regex(emailRegex, { error: v(invalidKey) })
    .transform((email) => email.toLowerCase());

/** Spec §5 password rules, in the order the spec lists them. */
export const newPasswordSchema = z
  .string({ error: v('passwordRequired') })
  .min(1, { error: v('passwordRequired') })
  .min(PASSWORD_MIN_LENGTH, { error: v('passwordMin') })
  .max(PASSWORD_MAX_LENGTH, { error: v('passwordTooLong') })
  .regex(/[a-z]/, { error: v('passwordLowercase') })
  .regex(/[A-Z]/, { error: v('passwordUppercase') })
  .regex(/\d/, { error: v('passwordNumber') })
  .regex(/[@$!%*?&]/, { error: v('passwordSpecial') });

const nameSchema = (requiredKey: 'firstNameRequired' | 'lastNameRequired', minKey: 'firstNameMin' | 'lastNameMin') =>
  requiredString(requiredKey)
    .min(NAME_MIN_LENGTH, { error: v(minKey) })
    .max(NAME_MAX_LENGTH, { error: v('nameTooLong') });

export const twoFactorCodeSchema = z
  .string({ error: v('twoFactorCodeRequired') })
  .trim()
  .min(1, { error: v('twoFactorCodeRequired') })
  .regex(/^\d{6}$/, { error: v('twoFactorCodeLength') });

/**
 * Password strength, 0 to 5: one point each for length >= 8, a lowercase letter, an uppercase
 * letter, a digit and a special character. Labels (spec §5): 0-1 Weak, 2 Fair, 3 Good, 4-5 Strong.
 */
export function passwordStrength(password: string): number {
  let score = 0;
  if (password.length >= PASSWORD_MIN_LENGTH) score++;
  if (/[a-z]/.test(password)) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[@$!%*?&]/.test(password)) score++;
  return score;
}

export type PasswordStrengthLabel = 'weak' | 'fair' | 'good' | 'strong';
export function passwordStrengthLabel(score: number): PasswordStrengthLabel {
  if (score <= 1) return 'weak';
  if (score === 2) return 'fair';
  if (score === 3) return 'good';
  return 'strong';
}

// ---------------------------------------------------------------------------------------------
// Client forms (camelCase names of the spec's forms)
// ---------------------------------------------------------------------------------------------

export const loginFormSchema = z.object({
  email: emailSchema('emailInvalid'),
  password: z.string({ error: v('passwordRequired') }).min(1, { error: v('passwordRequired') }),
});
export type LoginForm = z.input<typeof loginFormSchema>;

export const twoFactorFormSchema = z.object({ twoFactorCode: twoFactorCodeSchema });

export const registerFormSchema = z
  .object({
    firstName: nameSchema('firstNameRequired', 'firstNameMin'),
    lastName: nameSchema('lastNameRequired', 'lastNameMin'),
    email: emailSchema('emailAddressInvalid'),
    password: newPasswordSchema,
    confirmPassword: z.string({ error: v('confirmPasswordRequired') }).min(1, { error: v('confirmPasswordRequired') }),
    termsAccepted: z.boolean().refine((accepted) => accepted, { error: v('termsRequired') }),
    marketingConsent: z.boolean().optional(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: v('passwordsMustMatch'),
    path: ['confirmPassword'],
  });
export type RegisterForm = z.input<typeof registerFormSchema>;

// ---------------------------------------------------------------------------------------------
// HTTP payloads (snake_case, spec §3.2 and §7.2)
// ---------------------------------------------------------------------------------------------

export const walletTypeSchema = z.enum(['ethereum', 'solana'], { error: v('walletTypeInvalid') });
export type WalletType = z.infer<typeof walletTypeSchema>;

export const ethereumAddressRegex = /^0x[0-9a-fA-F]{40}$/;
/** Base58 public key of 32 bytes: 32 to 44 characters of the Bitcoin alphabet. */
export const solanaAddressRegex = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export function walletTypeOfAddress(address: string): WalletType | null {
  if (ethereumAddressRegex.test(address)) return 'ethereum';
  if (solanaAddressRegex.test(address)) return 'solana';
  return null;
}

export const walletAddressSchema = requiredString('walletAddressRequired')
  .max(64, { error: v('walletAddressInvalid') })
  .refine((address) => walletTypeOfAddress(address) !== null, { error: v('walletAddressInvalid') });

export const createAccountRequestSchema = z.object({
  email: emailSchema('emailAddressInvalid'),
  password: newPasswordSchema,
  first_name: nameSchema('firstNameRequired', 'firstNameMin'),
  last_name: nameSchema('lastNameRequired', 'lastNameMin'),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,20}$/, { error: v('phoneInvalid') })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  terms_accepted: z.literal(true, { error: v('termsRequired') }),
  marketing_consent: z.boolean().optional().default(false),
  /** The client's interface language: the account's mails are written in it (docs/i18n.md "Server texts"). */
  language: languageCodeSchema.optional(),
});
export type CreateAccountRequest = z.input<typeof createAccountRequestSchema>;

/** What POST /v1/accounts answers to a new email and to a taken one alike, so it tells nobody which emails have accounts. */
export const REGISTRATION_RECEIVED_MESSAGE =
  'Registration received. Sign in with your email and password; if this email already had an account, we have emailed it.';
export const registrationResponseSchema = z.object({ email: z.string(), message: z.string() });
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

export const emailLoginRequestSchema = z.object({
  login_type: z.literal('email'),
  email: emailSchema('emailInvalid'),
  password: z
    .string({ error: v('passwordRequired') })
    .min(1, { error: v('passwordRequired') })
    .max(1024),
  two_factor_code: twoFactorCodeSchema.optional(),
  /** Instead of a TOTP code: one of the account's single-use recovery codes (account-security.ts). */
  recovery_code: z.string().max(64).optional(),
});

const signedWalletFields = {
  wallet_address: walletAddressSchema,
  signature: requiredString('signatureRequired').max(512),
  message: requiredString('messageRequired').max(2048),
  /** Inferred from the address format when absent. */
  wallet_type: walletTypeSchema.optional(),
};

/** A wallet type that is given must be the one the address format says. */
const walletTypeMatchesAddress = (request: { wallet_address: string; wallet_type?: WalletType | undefined }) =>
  request.wallet_type === undefined || walletTypeOfAddress(request.wallet_address) === request.wallet_type;
const walletTypeMismatch = { error: v('walletTypeMismatch'), path: ['wallet_type'] };

export const walletLoginRequestSchema = z
  .object({
    login_type: z.literal('wallet'),
    ...signedWalletFields,
  })
  .refine(walletTypeMatchesAddress, walletTypeMismatch);

export const loginRequestSchema = z.discriminatedUnion(
  'login_type',
  [emailLoginRequestSchema, walletLoginRequestSchema],
  {
    error: v('loginTypeInvalid'),
  },
);
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** Token pair answered by login, wallet registration and refresh. */
export const sessionResponseSchema = z.object({
  token: z.string(),
  account_id: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Access-token lifetime in seconds'),
  refresh_token: z.string().describe('Also set as an httpOnly cookie for browsers'),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const walletChallengeRequestSchema = z
  .object({
    wallet_address: walletAddressSchema,
    wallet_type: walletTypeSchema.optional(),
  })
  .refine(walletTypeMatchesAddress, walletTypeMismatch);
export const walletChallengeResponseSchema = z.object({
  challenge: z.string().describe('The exact message to sign: EIP-4361 or Sign-In-With-Solana'),
  nonce: z.string(),
  expires_at: z.string(),
});
export type WalletChallengeResponse = z.infer<typeof walletChallengeResponseSchema>;

export const walletRegisterRequestSchema = z
  .object({
    ...signedWalletFields,
    first_name: z.string().trim().max(NAME_MAX_LENGTH).optional(),
    marketing_consent: z.boolean().optional().default(false),
    language: languageCodeSchema.optional(),
  })
  .refine(walletTypeMatchesAddress, walletTypeMismatch);
export type WalletRegisterRequest = z.input<typeof walletRegisterRequestSchema>;

export const refreshRequestSchema = z.object({ refresh_token: z.string().min(1).max(512).optional() });
export const logoutRequestSchema = refreshRequestSchema;

export const tradingExperienceSchema = z.enum(['lt1', '1-2', '3-5', '5+', '10+']);
export type TradingExperience = z.infer<typeof tradingExperienceSchema>;

export const profileSchema = z.object({
  display_name: z.string().nullable(),
  username: z.string().nullable(),
  bio: z.string().nullable(),
  location: z.string().nullable(),
  website: z.string().nullable(),
  trading_experience: tradingExperienceSchema.nullable(),
  private_profile: z.boolean(),
  allow_copy_trading: z.boolean(),
  copy_trading_fee_percent: z.string().describe('Decimal string, 0 to 50'),
  /** The interface language the account chose; null until it chooses one. Mails are written in it. */
  language: languageCodeSchema.nullable().default(null),
});
export type Profile = z.infer<typeof profileSchema>;

export const accountSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  email_verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  wallet_address: z.string().nullable(),
  wallet_type: walletTypeSchema.nullable(),
  marketing_consent: z.boolean(),
  role: z.enum(['user', 'admin', 'compliance']),
  created_at: z.string(),
  profile: profileSchema,
});
export type Account = z.infer<typeof accountSchema>;

const optionalText = (max: number, key: Parameters<typeof v>[0]) =>
  z
    .string()
    .trim()
    .max(max, { error: v(key) })
    .nullable()
    .optional();

export const updateProfileRequestSchema = z.object({
  display_name: optionalText(50, 'displayNameTooLong'),
  username: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_]{3,30}$/, { error: v('usernameInvalid') })
    .nullable()
    .optional(),
  bio: optionalText(500, 'bioTooLong'),
  location: optionalText(100, 'locationTooLong'),
  website: z
    .string()
    .trim()
    .max(200, { error: v('websiteInvalid') })
    .regex(/^https?:\/\/[^\s]+\.[^\s]+$/, { error: v('websiteInvalid') })
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  trading_experience: tradingExperienceSchema.nullable().optional(),
  private_profile: z.boolean().optional(),
  allow_copy_trading: z.boolean().optional(),
  copy_trading_fee_percent: z
    .string()
    .regex(/^(?:[0-9]|[1-4][0-9]|50)(?:\.\d{1,2})?$/, { error: v('feePercentInvalid') })
    .refine((value) => !value.startsWith('50.') || /^50\.0{1,2}$/.test(value), { error: v('feePercentInvalid') })
    .optional(),
  /** One of the 22 language codes; null forgets the choice. */
  language: languageCodeSchema.nullable().optional(),
});
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const twoFactorEnableRequestSchema = z.object({ code: twoFactorCodeSchema.optional() });
export const twoFactorSetupResponseSchema = z.object({
  two_factor_enabled: z.literal(false),
  secret: z.string().describe('Base32 TOTP secret'),
  otpauth_url: z.string(),
  qr_code: z.string().describe('PNG data URL of the otpauth URL'),
});
// twoFactorStatusResponseSchema and twoFactorDisableRequestSchema live in account-security.ts.

export const verifyEmailRequestSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, { error: v('verificationTokenRequired') })
    .max(256)
    .optional(),
});
export const verifyEmailResponseSchema = z.object({
  email_verified: z.boolean(),
  sent: z.boolean().describe('True when a verification mail was just sent'),
});

/** Wallet registration signs the new account in at once. */
export const walletRegisterResponseSchema = sessionResponseSchema.extend({ account: accountSchema });
export type WalletRegisterResponse = z.infer<typeof walletRegisterResponseSchema>;

export const accountIdParamsSchema = z.object({ id: z.string().uuid() });
