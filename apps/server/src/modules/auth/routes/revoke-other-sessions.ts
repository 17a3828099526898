import { revokeSessionsRequestSchema, sessionsRevokedResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { fail, ok, unwrap } from '../../../lib/errors.ts';
import type { AuthDeps } from '../deps.ts';
import { authenticate } from '../guard.ts';
import { ipRateLimit, REFRESH_IP_LIMIT } from '../limits.ts';
import { bearerAuth, errorResponses } from '../openapi.ts';
import { revokeSessions, tags } from './security-shared.ts';

/** POST /v1/auth/sessions/revoke-others: every session but the asking one ends. */
export function revokeOtherSessionsRoute(app: TypedApp, context: AppContext, deps: AuthDeps): void {
  app.post(
    '/v1/auth/sessions/revoke-others',
    {
      onRequest: authenticate(context),
      config: ipRateLimit(context.config, REFRESH_IP_LIMIT),
      schema: {
        tags,
        summary: 'Sign out everywhere else: every session but the asking one ends',
        security: bearerAuth,
        body: revokeSessionsRequestSchema.nullish(),
        response: { 200: sessionsRevokedResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) =>
      unwrap(
        await revokeSessions(context, deps, request, request.body, (current) =>
          // Without its own session known, "everywhere else" would include the asker.
          current === null
            ? fail('VALIDATION_ERROR', {
                message: 'This session is not known: send its refresh token (cookie or body)',
              })
            : ok({ allExcept: current }),
        ),
      ),
  );
}
