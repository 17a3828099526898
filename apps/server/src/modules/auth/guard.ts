import type { FastifyRequest, onRequestAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, unwrap } from '../../lib/errors.ts';
import { type AuthenticatedAccount, accessTokenKey, verifyAccessToken } from './access-tokens.ts';
import { accountStates, usableAccount } from './account-state.ts';
import { assertSessionCurrent } from './session-versions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate`: the account the bearer token belongs to. */
    account?: AuthenticatedAccount;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.=]+)$/i;

/**
 * onRequest hook: checks the bearer access token and sets request.account. It runs before body
 * validation, so an anonymous caller learns nothing about a route's inputs. A valid token of an
 * account that was frozen or no longer exists is refused too (401), for reads and writes alike.
 * Usage: `{ onRequest: authenticate(context) }`.
 */
export function authenticate(
  context: Pick<AppContext, 'config' | 'secrets' | 'clock' | 'db'>,
): onRequestAsyncHookHandler {
  const signing = accessTokenKey(context.secrets.jwtSecret, context.config.accessTokenTtlSeconds);
  const states = accountStates(context);
  return async (request) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) throw new AppError('UNAUTHORIZED');
    const now = context.clock();
    const account = unwrap(await verifyAccessToken(signing, token, now));
    unwrap(usableAccount(await states.of(account.id)));
    // Sessions ended since the token was minted (password change, sign out elsewhere) void it.
    await assertSessionCurrent(context.db, account, now);
    request.account = account;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * preValidation hook for /accounts/{id}/... routes: another account's id is 403 before the body
 * is even looked at. A malformed id is left to the params schema (400).
 */
export const requireAccountOwner: preValidationAsyncHookHandler = async (request) => {
  const account = currentAccount(request);
  const id = (request.params as { id?: unknown }).id;
  if (typeof id !== 'string' || !UUID.test(id)) return;
  if (id.toLowerCase() !== account.id) throw new AppError('FORBIDDEN');
};

/** The authenticated account of a route behind `authenticate`. */
export function currentAccount(request: FastifyRequest): AuthenticatedAccount {
  if (!request.account) throw new AppError('UNAUTHORIZED');
  return request.account;
}
