import crypto from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { fail, ok, type Result } from '../../lib/errors.ts';

/** Who a token was made by and for; a token of another service or environment is refused. */
export const ACCESS_TOKEN_ISSUER = 'meridian';
export const ACCESS_TOKEN_AUDIENCE = 'meridian-api';
const ALGORITHM = 'HS256';

export type AuthenticatedAccount = { id: string; role: 'user' | 'admin' };

const claimsSchema = z.object({ sub: z.string().uuid(), role: z.enum(['user', 'admin']) });

export type AccessTokenKey = { key: Uint8Array; ttlSeconds: number };

export function accessTokenKey(jwtSecret: string, ttlSeconds: number): AccessTokenKey {
  return { key: new TextEncoder().encode(jwtSecret), ttlSeconds };
}

/** A short-lived bearer token: sub = account id, role claim, expiry from the server clock. */
export function signAccessToken(signing: AccessTokenKey, account: AuthenticatedAccount, now: Date): Promise<string> {
  const issuedAtSeconds = Math.floor(now.getTime() / 1000);
  return new SignJWT({ role: account.role })
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
    return ok({ id: claims.data.sub, role: claims.data.role });
  } catch (error) {
    return fail(error instanceof errors.JWTExpired ? 'TOKEN_EXPIRED' : 'UNAUTHORIZED');
  }
}
