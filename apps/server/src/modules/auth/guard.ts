import type { FastifyRequest, onRequestAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, fail, ok, type Result, unwrap } from '../../lib/errors.ts';
import { type AuthenticatedAccount, accessTokenKey, verifyAccessToken } from './access-tokens.ts';
import { accountStates, usableAccount } from './account-state.ts';
import { sessionCurrent } from './session-versions.ts';

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
 * The hook is the edge: every refusal is a result, unwrapped in this one place.
 * Usage: `{ onRequest: authenticate(context) }`.
 */
export function authenticate(
  context: Pick<AppContext, 'config' | 'secrets' | 'clock' | 'db'>,
): onRequestAsyncHookHandler {
  const signing = accessTokenKey(context.secrets.jwtSecret, context.config.accessTokenTtlSeconds);
  const states = accountStates(context);
  const bearerAccount = async (authorization: string | undefined): Promise<Result<AuthenticatedAccount>> => {
    const token = BEARER.exec(authorization ?? '')?.[1];
    if (!token) return fail('UNAUTHORIZED');
    const now = context.clock();
    const account = await verifyAccessToken(signing, token, now);
    if (!account.ok) return account;
    const usable = usableAccount(await states.of(account.value.id));
    if (!usable.ok) return usable;
    // Sessions ended since the token was minted (password change, sign out elsewhere) void it.
    const current = await sessionCurrent(context.db, account.value, now);
    return current.ok ? account : current;
  };
  return async (request) => {
    request.account = unwrap(await bearerAccount(request.headers.authorization));
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * preValidation hook for /accounts/{id}/... routes: another account's id is 403 before the body
 * is even looked at. A malformed id is left to the params schema (400).
 */
export const requireAccountOwner: preValidationAsyncHookHandler = async (request) => {
  const account = currentAccount(request);
  unwrap(ownerCheck(account, (request.params as { id?: unknown }).id));
};

function ownerCheck(account: AuthenticatedAccount, id: unknown): Result<void> {
  if (typeof id !== 'string' || !UUID.test(id)) return ok(undefined);
  return id.toLowerCase() === account.id ? ok(undefined) : fail('FORBIDDEN');
}

/**
 * For owner-only reads under /accounts/{id}/... that must not tell whether an account exists (the
 * portfolio's and analytics' routes): the signed-in account's id when `id` is its own; any other id,
 * well-formed or not, is 404 NOT_FOUND, exactly as an id that does not exist (not 403).
 */
export function ownAccountId(request: FastifyRequest, id: string): string {
  const account = currentAccount(request);
  if (id.toLowerCase() !== account.id) throw new AppError('NOT_FOUND');
  return account.id;
}

/**
 * The authenticated account of a route behind `authenticate`. A route without the hook is a
 * wiring mistake, answered as the hook would (401) rather than as a crash.
 */
export function currentAccount(request: FastifyRequest): AuthenticatedAccount {
  if (!request.account) throw new AppError('UNAUTHORIZED');
  return request.account;
}
