import { activeSessionsResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { authenticate, currentAccount } from '../guard.ts';
import { ipRateLimit, REFRESH_IP_LIMIT } from '../limits.ts';
import { bearerAuth, errorResponses } from '../openapi.ts';
import { listSessions } from '../sessions.ts';
import { presentedRefreshToken, tags } from './security-shared.ts';

/** GET /v1/auth/sessions: the account's active sessions, the asking browser's marked current. */
export function sessionsRoute(app: TypedApp, context: AppContext): void {
  app.get(
    '/v1/auth/sessions',
    {
      onRequest: authenticate(context),
      config: ipRateLimit(context.config, REFRESH_IP_LIMIT),
      schema: {
        tags,
        summary: "The account's active sessions (device, address, times); the asking browser's is marked current",
        security: bearerAuth,
        response: { 200: activeSessionsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      sessions: await listSessions(
        context.db,
        currentAccount(request).id,
        presentedRefreshToken(request),
        context.clock(),
      ),
    }),
  );
}
