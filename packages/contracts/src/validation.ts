/**
 * Spec §5 validation texts. Schemas carry the key (`validation.<name>`) as their message so the
 * client can translate it; the server answers with the English text and the key in `details`.
 */
export const validationTexts = {
  /** §5 Orders. */
  fillAllRequiredFields: 'Please fill all required fields',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  emailAddressInvalid: 'Invalid email address',
  passwordRequired: 'Password is required',
  twoFactorCodeRequired: 'Two-factor code is required',
  twoFactorCodeLength: 'Code must be 6 digits',
  firstNameRequired: 'First name is required',
  firstNameMin: 'First name must be at least 2 characters',
  lastNameRequired: 'Last name is required',
  lastNameMin: 'Last name must be at least 2 characters',
  passwordMin: 'Password must be at least 8 characters',
  passwordLowercase: 'Password must contain at least one lowercase letter',
  passwordUppercase: 'Password must contain at least one uppercase letter',
  passwordNumber: 'Password must contain at least one number',
  passwordSpecial: 'Password must contain at least one special character',
  passwordTooLong: 'Password must be at most 128 characters',
  confirmPasswordRequired: 'Please confirm your password',
  passwordsMustMatch: 'Passwords must match',
  termsRequired: 'You must accept the terms and conditions',
  nameTooLong: 'Name must be at most 50 characters',
  emailTooLong: 'Email must be at most 254 characters',
  phoneInvalid: 'Invalid phone number',
  usernameInvalid: 'Username must be 3 to 30 letters, digits or underscores',
  displayNameTooLong: 'Display name must be at most 50 characters',
  bioTooLong: 'Bio must be at most 500 characters',
  locationTooLong: 'Location must be at most 100 characters',
  websiteInvalid: 'Website must be a valid http(s) address',
  feePercentInvalid: 'Copy trading fee must be a number from 0 to 50 with at most 2 decimals',
  walletAddressRequired: 'Wallet address is required',
  walletAddressInvalid: 'Invalid wallet address',
  signatureRequired: 'Signature is required',
  messageRequired: 'Message is required',
  walletTypeInvalid: 'Wallet type must be ethereum or solana',
  walletTypeMismatch: 'Wallet type does not match the wallet address',
  loginTypeInvalid: 'Login type must be email or wallet',
  verificationTokenRequired: 'Verification token is required',
  /** Any text field: the NUL character is never part of real input and PostgreSQL cannot store it. */
  nulCharacter: 'Text must not contain the NUL character',
  currentPasswordRequired: 'Current password is required',
  passwordSameAsCurrent: 'New password must differ from the current one',
  recoveryCodeRequired: 'Recovery code is required',
  recoveryCodeInvalid: 'Recovery codes look like abcde-12345',
  resetTokenRequired: 'Reset token is required',
} as const;

export type ValidationKey = keyof typeof validationTexts;

/** The message a schema carries: an i18n key under the `validation` namespace. */
export const v = (key: ValidationKey): string => `validation.${key}`;

/** English text for a schema message; unknown messages pass through unchanged. */
export function validationText(message: string): string {
  if (!message.startsWith('validation.')) return message;
  const key = message.slice('validation.'.length) as ValidationKey;
  return validationTexts[key] ?? message;
}
