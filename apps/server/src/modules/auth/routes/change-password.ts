import { accountIdParamsSchema, changePasswordRequestSchema, sessionResponseSchema } from '@platform/contracts';
import type { Mailer } from '../../../adapters/mailer/mailer.ts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import type { AuthDeps } from '../deps.ts';
import { authenticate, requireAccountOwner } from '../guard.ts';
import { ipRateLimit, TWO_FACTOR_IP_LIMIT } from '../limits.ts';
import { bearerAuth, errorResponses } from '../openapi.ts';
import { changePassword } from '../password-change.ts';
import { setRefreshCookie } from '../session.ts';
import { noteSessionDevice, tags } from './security-shared.ts';

/** POST /v1/accounts/{id}/password: ends every session and starts a new one for the asker. */
export function changePasswordRoute(app: TypedApp, context: AppContext, deps: AuthDeps, mailer: Mailer): void {
  app.post(
    '/v1/accounts/:id/password',
    {
      onRequest: authenticate(context),
      preValidation: requireAccountOwner,
      config: ipRateLimit(context.config, TWO_FACTOR_IP_LIMIT),
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
      setRefreshCookie(reply, context.config, session.refresh_token);
      return session;
    },
  );
}
