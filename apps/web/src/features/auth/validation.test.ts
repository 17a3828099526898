import { loginFormSchema, registerFormSchema, twoFactorFormSchema } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { translateMessage } from '../../lib/translate.ts';

/** The English texts a user reads for each failing field, through the i18n layer. */
function messages(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]);
    byField[field] ??= translateMessage(i18n.t, issue.message);
  }
  return byField;
}

const validRegistration = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  password: 'Str0ng!pass',
  confirmPassword: 'Str0ng!pass',
  termsAccepted: true,
  marketingConsent: false,
};

describe('login validation texts (spec §5)', () => {
  it('requires email and password', () => {
    expect(messages(loginFormSchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('rejects a malformed email', () => {
    expect(messages(loginFormSchema.safeParse({ email: 'ada@', password: 'x' }))).toEqual({ email: 'Invalid email' });
  });

  it('checks the two-factor code', () => {
    expect(messages(twoFactorFormSchema.safeParse({ twoFactorCode: '' }))).toEqual({
      twoFactorCode: 'Two-factor code is required',
    });
    expect(messages(twoFactorFormSchema.safeParse({ twoFactorCode: '123' }))).toEqual({
      twoFactorCode: 'Code must be 6 digits',
    });
    expect(twoFactorFormSchema.safeParse({ twoFactorCode: '123456' }).success).toBe(true);
  });
});

describe('register validation texts (spec §5)', () => {
  it('accepts a valid form', () => {
    expect(registerFormSchema.safeParse(validRegistration).success).toBe(true);
  });

  it('requires every field, word for word', () => {
    const result = registerFormSchema.safeParse({
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
      termsAccepted: false,
    });
    expect(messages(result)).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      password: 'Password is required',
      confirmPassword: 'Please confirm your password',
      termsAccepted: 'You must accept the terms and conditions',
    });
  });

  it.each([
    [{ firstName: 'A' }, 'firstName', 'First name must be at least 2 characters'],
    [{ lastName: 'L' }, 'lastName', 'Last name must be at least 2 characters'],
    [{ email: 'not-an-email' }, 'email', 'Invalid email address'],
    [{ password: 'Ab1!', confirmPassword: 'Ab1!' }, 'password', 'Password must be at least 8 characters'],
    [
      { password: 'ABCDEFG1!', confirmPassword: 'ABCDEFG1!' },
      'password',
      'Password must contain at least one lowercase letter',
    ],
    [
      { password: 'abcdefg1!', confirmPassword: 'abcdefg1!' },
      'password',
      'Password must contain at least one uppercase letter',
    ],
    [{ password: 'Abcdefgh!', confirmPassword: 'Abcdefgh!' }, 'password', 'Password must contain at least one number'],
    [
      { password: 'Abcdefgh1', confirmPassword: 'Abcdefgh1' },
      'password',
      'Password must contain at least one special character',
    ],
    [{ confirmPassword: 'Different1!' }, 'confirmPassword', 'Passwords must match'],
  ])('%o -> %s: %s', (change, field, text) => {
    expect(messages(registerFormSchema.safeParse({ ...validRegistration, ...change }))[field]).toBe(text);
  });
});
