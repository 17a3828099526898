import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import { baseUrl } from './browser.ts';

/** A fresh identity per test: the suite shares one server and one database. */
export function newIdentity() {
  const id = crypto.randomBytes(4).toString('hex');
  return {
    email: `trader-${id}@example.com`,
    password: `Str0ng!${id}Pw`,
    firstName: 'Ada',
    lastName: 'Lovelace',
  };
}

/** One call to the server's API, as any client makes it: JSON in and out, the token as a bearer. */
export async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json().catch(() => ({}))) as T;
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Registers through the public API, as an independent client would. */
export async function registerByApi(identity = newIdentity()) {
  await call('POST', '/v1/accounts', {
    email: identity.email,
    password: identity.password,
    first_name: identity.firstName,
    last_name: identity.lastName,
    terms_accepted: true,
  });
  const session = await call<{ token: string; account_id: string }>('POST', '/v1/auth/login', {
    login_type: 'email',
    email: identity.email,
    password: identity.password,
  });
  return { identity, session };
}

/** Turns on TOTP for the account and returns a code generator for it. */
export async function enableTwoFactorByApi(session: { token: string; account_id: string }) {
  const setup = await call<{ secret: string }>(
    'POST',
    `/v1/accounts/${session.account_id}/2fa/enable`,
    {},
    session.token,
  );
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.secret), digits: 6, period: 30 });
  await call('POST', `/v1/accounts/${session.account_id}/2fa/enable`, { code: totp.generate() }, session.token);
  return totp;
}

/**
 * Funds an account the way a payer would, without the browser: a checkout deposit, paid in full on
 * the sandbox's hosted page (its "Pay" button posts to /pay), then credited once it confirms.
 */
export async function fundByCheckout(session: { token: string }, currency: string, amount: string): Promise<void> {
  const deposit = await call<{ id: string; checkout_url: string }>(
    'POST',
    '/api/v1/wallet/deposit',
    { currency, amount, payment_method: 'crypto' },
    session.token,
  );
  const paid = await fetch(`${deposit.checkout_url}/pay`, { method: 'POST', redirect: 'manual' });
  if (paid.status !== 303) throw new Error(`sandbox pay -> ${paid.status}`);
  await expect
    .poll(
      async () =>
        (await call<{ status: string }>('GET', `/api/v1/wallet/deposit/${deposit.id}`, undefined, session.token))
          .status,
      { timeout: 20_000, interval: 250 },
    )
    .toBe('completed');
}
