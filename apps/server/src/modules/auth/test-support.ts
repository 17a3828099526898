import crypto from 'node:crypto';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestResponse, TestServer } from '../../test/harness.ts';
import { totpCode } from './totp.ts';

/** Meets every spec §5 password rule. */
export const STRONG_PASSWORD = 'Corr3ct&Horse';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${crypto.randomBytes(6).toString('hex')}@example.com`;
}

export function registrationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: uniqueEmail(),
    password: STRONG_PASSWORD,
    first_name: 'Ada',
    last_name: 'Lovelace',
    terms_accepted: true,
    ...overrides,
  };
}

export type Session = { token: string; account_id: string; refresh_token: string; expires_in: number };
export type SignedUp = { email: string; password: string; session: Session };

/** Registers an email account and signs it in. */
export async function signUp(server: TestServer, overrides: Record<string, unknown> = {}): Promise<SignedUp> {
  const body = registrationBody(overrides);
  const created = await server.request('POST', '/v1/accounts', { body });
  if (created.status !== 201) throw new Error(`registration failed: ${JSON.stringify(created.body)}`);
  const login = await emailLogin(server, String(body.email), String(body.password));
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { email: String(body.email), password: String(body.password), session: login.body };
}

export function emailLogin(server: TestServer, email: string, password: string, twoFactorCode?: string) {
  const body = { login_type: 'email', email, password, ...(twoFactorCode ? { two_factor_code: twoFactorCode } : {}) };
  return server.request('POST', '/v1/auth/login', { body });
}

/** The code an authenticator app shows at the server's current time. */
export function currentCode(server: TestServer, secret: string): string {
  return totpCode(secret, server.clock.now);
}

export type TestWallet = { type: 'ethereum' | 'solana'; address: string; sign(message: string): Promise<string> };

export function ethereumWallet(): TestWallet {
  const account = privateKeyToAccount(generatePrivateKey());
  return { type: 'ethereum', address: account.address, sign: (message) => account.signMessage({ message }) };
}

export function solanaWallet(): TestWallet {
  const keys = nacl.sign.keyPair();
  return {
    type: 'solana',
    address: bs58.encode(keys.publicKey),
    sign: async (message) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), keys.secretKey)),
  };
}

/** A challenge for the wallet, signed by `signer` (the wallet itself unless a test says otherwise). */
export async function signedChallenge(server: TestServer, wallet: TestWallet, signer: TestWallet = wallet) {
  const challenge = await server.request('POST', '/v1/auth/wallet-challenge', {
    body: { wallet_address: wallet.address },
  });
  if (challenge.status !== 200) throw new Error(`challenge failed: ${JSON.stringify(challenge.body)}`);
  const message: string = challenge.body.challenge;
  return {
    wallet_address: wallet.address,
    wallet_type: wallet.type,
    message,
    signature: await signer.sign(message),
    nonce: challenge.body.nonce as string,
  };
}

export function walletLogin(server: TestServer, signed: Record<string, unknown>) {
  const { nonce: _nonce, ...body } = signed;
  return server.request('POST', '/v1/auth/login', { body: { login_type: 'wallet', ...body } });
}

export function walletRegister(server: TestServer, signed: Record<string, unknown>) {
  const { nonce: _nonce, ...body } = signed;
  return server.request('POST', '/v1/auth/wallet-register', { body });
}

/** The value of a Set-Cookie header for `name`, with its attributes. */
export function setCookie(response: TestResponse, name: string): string | undefined {
  return response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
}

export async function countRows(server: TestServer, table: string): Promise<number> {
  const result = await server.db.query<{ count: bigint | number }>(`SELECT count(*) AS count FROM ${table}`);
  return Number(result.rows[0]?.count ?? 0);
}
