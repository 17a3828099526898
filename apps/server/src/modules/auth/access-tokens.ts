import crypto from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { fail, ok, type Result } from '../../lib/errors.ts';

/** Who a token was made by and for; a token of another service or environment is refused. */
export const ACCESS_TOKEN_ISSUER = 'meridian';
export const ACCESS_TOKEN_AUDIENCE = 'meridian-api';
const ALGORITHM = 'HS256';

export type AuthenticatedAccount = {
  id: string;
  role: 'user' | 'admin' | 'compliance';
  /** The account's session version when the token was minted (claim `sv`, see session-versions.ts). */
  sessionVersion?: number;
};

const claimsSchema = z.object({
  sub: z.string().uuid(),
  role: z.enum(['user', 'admin', 'compliance']),
  sv: z.number().int().nonnegative().optional(),
});

/**
 * Tokens whose signature and claims were checked, with what they stand for: a token is immutable,
 * so a second request with it needs only its expiry checked again (HMAC through Web Crypto costs more
 * than the rest of an order's HTTP handling). Past the limit the cache starts over.
 */
const VERIFIED_TOKENS_LIMIT = 50_000;

export type AccessTokenKey = {
  key: Uint8Array;
  ttlSeconds: number;
  /** token -> the account and its expiry (seconds), for tokens verified with this key. */
  verified: Map<string, { account: AuthenticatedAccount; expiresAt: number; notBefore: number }>;
};

export function accessTokenKey(jwtSecret: string, ttlSeconds: number): AccessTokenKey {
  return { key: new TextEncoder().encode(jwtSecret), ttlSeconds, verified: new Map() };
}

/** A short-lived bearer token: sub = account id, role claim, expiry from the server clock. */
export function signAccessToken(signing: AccessTokenKey, account: AuthenticatedAccount, now: Date): Promise<string> {
  const issuedAtSeconds = Math.floor(now.getTime() / 1000);
  return new SignJWT({ role: account.role, sv: account.sessionVersion ?? 0 })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(account.id)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt(issuedAtSeconds)
    .setExpirationTime(issuedAtSeconds + signing.ttlSeconds)
    .setJti(crypto.randomUUID())
    .sign(signing.key);
}

/** TOKEN_EXPIRED for a token past its expiry (the client may refresh); UNAUTHORIZED for anything else wrong. */
export async function verifyAccessToken(
  signing: AccessTokenKey,
  token: string,
  now: Date,
): Promise<Result<AuthenticatedAccount>> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const known = signing.verified.get(token);
  if (known !== undefined) {
    // The same tests jose makes on exp and nbf (no clock tolerance).
    if (nowSeconds >= known.expiresAt) return fail('TOKEN_EXPIRED');
    if (nowSeconds >= known.notBefore) return ok(known.account);
  }
  try {
    const { payload } = await jwtVerify(token, signing.key, {
      algorithms: [ALGORITHM],
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success) return fail('UNAUTHORIZED');
    const account: AuthenticatedAccount = {
      id: claims.data.sub,
      role: claims.data.role,
      sessionVersion: claims.data.sv ?? 0,
    };
    if (typeof payload.exp === 'number') {
      if (signing.verified.size >= VERIFIED_TOKENS_LIMIT) signing.verified.clear();
      signing.verified.set(token, {
        account,
        expiresAt: payload.exp,
        notBefore: typeof payload.nbf === 'number' ? payload.nbf : Number.NEGATIVE_INFINITY,
      });
    }
    return ok(account);
  } catch (error) {
    return fail(error instanceof errors.JWTExpired ? 'TOKEN_EXPIRED' : 'UNAUTHORIZED');
  }
}
