import crypto from 'node:crypto';
import type { SessionResponse } from '@platform/contracts';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { type AccessTokenKey, type AuthenticatedAccount, signAccessToken } from './access-tokens.ts';
import { storeRefreshToken, sweepExpiredRefreshTokens } from './refresh-tokens.ts';

export type SessionDeps = {
  config: Pick<Config, 'publicUrl' | 'refreshTokenTtlDays'>;
  clock: () => Date;
  signing: AccessTokenKey;
};

/** A new sign-in: a fresh refresh-token family and an access token. */
export async function startSession(
  q: Queryable,
  deps: SessionDeps,
  account: AuthenticatedAccount,
): Promise<SessionResponse> {
  const now = deps.clock();
  await sweepExpiredRefreshTokens(q, account.id, now);
  const refreshToken = await storeRefreshToken(q, {
    accountId: account.id,
    familyId: crypto.randomUUID(),
    now,
    ttlDays: deps.config.refreshTokenTtlDays,
  });
  return sessionResponse(deps, account, refreshToken, now);
}

export async function sessionResponse(
  deps: SessionDeps,
  account: AuthenticatedAccount,
  refreshToken: string,
  now: Date,
): Promise<SessionResponse> {
  return {
    token: await signAccessToken(deps.signing, account, now),
    account_id: account.id,
    token_type: 'Bearer',
    expires_in: deps.signing.ttlSeconds,
    refresh_token: refreshToken,
  };
}

export const REFRESH_COOKIE = 'refresh_token';
/** The browser sends the cookie to the auth calls only: no other request carries it. */
const REFRESH_COOKIE_PATH = '/v1/auth';

function cookieOptions(config: SessionDeps['config']) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    path: REFRESH_COOKIE_PATH,
    secure: config.publicUrl.startsWith('https://'),
  };
}

export function setRefreshCookie(reply: FastifyReply, config: SessionDeps['config'], token: string): void {
  reply.setCookie(REFRESH_COOKIE, token, {
    ...cookieOptions(config),
    maxAge: config.refreshTokenTtlDays * 24 * 60 * 60,
  });
}

export function clearRefreshCookie(reply: FastifyReply, config: SessionDeps['config']): void {
  reply.clearCookie(REFRESH_COOKIE, cookieOptions(config));
}
