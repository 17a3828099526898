import type { SessionsRevokedResponse } from '@platform/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { transactionResult } from '../../../db/transaction-result.ts';
import { ok, type Result } from '../../../lib/errors.ts';
import { signAccessToken } from '../access-tokens.ts';
import type { AuthDeps } from '../deps.ts';
import { currentAccount } from '../guard.ts';
import { REFRESH_COOKIE } from '../session.ts';
import { endSessions, recordSessionDevice, type SessionSelection, sessionOfToken } from '../sessions.ts';

export const tags = ['auth'];

/** The device a new session starts on, noted for the sessions list. */
export function noteSessionDevice(context: AppContext, request: FastifyRequest, refreshToken: string): Promise<void> {
  const client = { userAgent: request.headers['user-agent'], ip: request.ip };
  return recordSessionDevice(context.db, refreshToken, client, context.clock());
}

/** The asking browser's refresh token: the body (scripts) or the cookie, which /v1/auth calls carry. */
export function presentedRefreshToken(request: FastifyRequest, body?: { refresh_token?: string | undefined } | null) {
  return body?.refresh_token ?? request.cookies[REFRESH_COOKIE];
}

/**
 * Ends the sessions `pick` selects (given the asking session, or null when it is unknown), and
 * mints the asking session a token under the new session version when it survives. A refusal
 * rolls back whatever was ended.
 */
export async function revokeSessions(
  context: AppContext,
  deps: AuthDeps,
  request: FastifyRequest,
  body: unknown,
  pick: (current: string | null) => Result<SessionSelection>,
): Promise<Result<SessionsRevokedResponse>> {
  const account = currentAccount(request);
  const token = presentedRefreshToken(request, body as { refresh_token?: string } | null);
  const now = context.clock();
  return transactionResult(context.db, async (tx) => {
    const current = await sessionOfToken(tx, account.id, token, now);
    const selection = pick(current);
    if (!selection.ok) return selection;
    const ended = await endSessions(tx, account.id, selection.value, now);
    if (!ended.ok) return ended;
    const only = 'only' in selection.value ? selection.value.only : undefined;
    const survives = current !== null && only !== current;
    const signIn = survives ? await deps.accounts.findSignInAccount(tx, { id: account.id }) : null;
    const fresh = signIn ? await signAccessToken(deps.signing, signIn, now) : null;
    return ok({ revoked: ended.value.revoked, token: fresh, expires_in: fresh ? deps.signing.ttlSeconds : null });
  });
}
