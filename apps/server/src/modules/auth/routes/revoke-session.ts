import { revokeSessionsRequestSchema, sessionIdParamsSchema, sessionsRevokedResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { ok, unwrap } from '../../../lib/errors.ts';
import type { AuthDeps } from '../deps.ts';
import { authenticate } from '../guard.ts';
import { ipRateLimit, REFRESH_IP_LIMIT } from '../limits.ts';
import { bearerAuth, errorResponses } from '../openapi.ts';
import { revokeSessions, tags } from './security-shared.ts';

/** POST /v1/auth/sessions/{sessionId}/revoke: signs one session out. */
export function revokeSessionRoute(app: TypedApp, context: AppContext, deps: AuthDeps): void {
  app.post(
    '/v1/auth/sessions/:sessionId/revoke',
    {
      onRequest: authenticate(context),
      config: ipRateLimit(context.config, REFRESH_IP_LIMIT),
      schema: {
        tags,
        summary: 'Sign one session out (its tokens stop working); the answer carries a fresh token for this one',
        security: bearerAuth,
        params: sessionIdParamsSchema,
        body: revokeSessionsRequestSchema.nullish(),
        response: { 200: sessionsRevokedResponseSchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) =>
      unwrap(await revokeSessions(context, deps, request, request.body, () => ok({ only: request.params.sessionId }))),
  );
}
