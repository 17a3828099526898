import {
  accountIdParamsSchema,
  activeSessionsResponseSchema,
  changePasswordRequestSchema,
  passwordResetConfirmSchema,
  passwordResetDoneSchema,
  passwordResetRequestedSchema,
  passwordResetRequestSchema,
  revokeSessionsRequestSchema,
  type SessionsRevokedResponse,
  sessionIdParamsSchema,
  sessionResponseSchema,
  sessionsRevokedResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMailer } from '../../adapters/mailer/mailer.ts';
import type { AppContext } from '../../context.ts';
import { AppError, type Result, unwrap } from '../../lib/errors.ts';
import { findSignInAccount } from '../accounts/service.ts';
import { signAccessToken } from './access-tokens.ts';
import { AttemptLimiter } from './attempt-limiter.ts';
import { authenticate, currentAccount, requireAccountOwner } from './guard.ts';
import { ipRateLimit, LOGIN_IP_LIMIT, REFRESH_IP_LIMIT, TWO_FACTOR_IP_LIMIT } from './limits.ts';
import { bearerAuth, errorResponses } from './openapi.ts';
import { changePassword } from './password-change.ts';
import { confirmPasswordReset, type PasswordResetDeps, requestPasswordReset } from './password-reset.ts';
import type { AuthDeps } from './service.ts';
import { clearRefreshCookie, REFRESH_COOKIE, setRefreshCookie } from './session.ts';
import { endSessions, listSessions, recordSessionDevice, type SessionSelection, sessionOfToken } from './sessions.ts';

const tags = ['auth'];
const HOUR_MS = 60 * 60 * 1000;

/** Reset requests per IP: a person asks a few times; more is someone mailing strangers. */
export const PASSWORD_RESET_IP_LIMIT = { max: 10, timeWindow: HOUR_MS };
/** Three reset mails per address an hour: enough to ask again, too few to flood an inbox. */
export const RESET_MAILS_PER_EMAIL = { maxFailures: 3, windowMs: HOUR_MS };

/** The device a new session starts on, noted for the sessions list. */
export function noteSessionDevice(context: AppContext, request: FastifyRequest, refreshToken: string): Promise<void> {
  const client = { userAgent: request.headers['user-agent'], ip: request.ip };
  return recordSessionDevice(context.db, refreshToken, client, context.clock());
}

/** The asking browser's refresh token: the body (scripts) or the cookie, which /v1/auth calls carry. */
function presentedRefreshToken(request: FastifyRequest, body?: { refresh_token?: string | undefined } | null) {
  return body?.refresh_token ?? request.cookies[REFRESH_COOKIE];
}

/** Password reset, change of password and the sessions list (docs/auth.md, "Account security"). */
export function accountSecurityRoutes(scope: FastifyInstance, context: AppContext, deps: AuthDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { config, db, clock } = context;
  const mailer = createMailer(config, clock);
  const resetDeps: PasswordResetDeps = {
    db,
    mailer,
    publicUrl: config.publicUrl,
    clock,
    log: context.log,
    resetMailLimiter: new AttemptLimiter(RESET_MAILS_PER_EMAIL, clock),
    loginAttempts: deps.loginAttempts,
  };
  const signedIn = { onRequest: authenticate(context), config: ipRateLimit(config, REFRESH_IP_LIMIT) };

  app.post(
    '/v1/auth/password-reset/request',
    {
      config: ipRateLimit(config, PASSWORD_RESET_IP_LIMIT),
      schema: {
        tags,
        summary: 'Mail a single-use password reset link; the same answer whether or not the email has an account',
        body: passwordResetRequestSchema,
        response: { 202: passwordResetRequestedSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => reply.status(202).send(unwrap(await requestPasswordReset(resetDeps, request.body.email))),
  );

  app.post(
    '/v1/auth/password-reset/confirm',
    {
      config: ipRateLimit(config, LOGIN_IP_LIMIT),
      schema: {
        tags,
        summary: "Set a new password with a reset link's token; every session of the account ends",
        body: passwordResetConfirmSchema,
        response: { 200: passwordResetDoneSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const done = unwrap(await confirmPasswordReset(resetDeps, request.body.token, request.body.password));
      clearRefreshCookie(reply, config);
      return done;
    },
  );

  app.post(
    '/v1/accounts/:id/password',
    {
      onRequest: authenticate(context),
      preValidation: requireAccountOwner,
      config: ipRateLimit(config, TWO_FACTOR_IP_LIMIT),
      schema: {
        tags,
        summary:
          'Change the password (current password, and the 2FA code when on); ends every session and starts a new one',
        security: bearerAuth,
        params: accountIdParamsSchema,
        body: changePasswordRequestSchema,
        response: { 200: sessionResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const session = unwrap(
        await changePassword({ ...deps, mailer, log: context.log }, request.params.id, request.body),
      );
      await noteSessionDevice(context, request, session.refresh_token);
      setRefreshCookie(reply, config, session.refresh_token);
      return session;
    },
  );

  app.get(
    '/v1/auth/sessions',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "The account's active sessions (device, address, times); the asking browser's is marked current",
        security: bearerAuth,
        response: { 200: activeSessionsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      sessions: await listSessions(db, currentAccount(request).id, presentedRefreshToken(request), clock()),
    }),
  );

  /** Ends sessions, and mints the asking session a token under the new session version. */
  const revoke = async (request: FastifyRequest, body: unknown, pick: (current: string | null) => SessionSelection) => {
    const account = currentAccount(request);
    const token = presentedRefreshToken(request, body as { refresh_token?: string } | null);
    const now = clock();
    const result: Result<SessionsRevokedResponse> = await db.transaction(async (tx) => {
      const current = await sessionOfToken(tx, account.id, token, now);
      const selection = pick(current);
      const ended = await endSessions(tx, account.id, selection, now);
      if (!ended.ok) return ended;
      const survives = current !== null && !('only' in selection && selection.only === current);
      const signIn = survives ? await findSignInAccount(tx, { id: account.id }) : null;
      const fresh = signIn ? await signAccessToken(deps.signing, signIn, now) : null;
      return {
        ok: true,
        value: { revoked: ended.value.revoked, token: fresh, expires_in: fresh ? deps.signing.ttlSeconds : null },
      };
    });
    return unwrap(result);
  };

  app.post(
    '/v1/auth/sessions/:sessionId/revoke',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Sign one session out (its tokens stop working); the answer carries a fresh token for this one',
        security: bearerAuth,
        params: sessionIdParamsSchema,
        body: revokeSessionsRequestSchema.nullish(),
        response: { 200: sessionsRevokedResponseSchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => revoke(request, request.body, () => ({ only: request.params.sessionId })),
  );

  app.post(
    '/v1/auth/sessions/revoke-others',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Sign out everywhere else: every session but the asking one ends',
        security: bearerAuth,
        body: revokeSessionsRequestSchema.nullish(),
        response: { 200: sessionsRevokedResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) =>
      revoke(request, request.body, (current) => {
        // Without its own session known, "everywhere else" would include the asker.
        if (current === null) {
          throw new AppError('VALIDATION_ERROR', {
            message: 'This session is not known: send its refresh token (cookie or body)',
          });
        }
        return { allExcept: current };
      }),
  );
}
