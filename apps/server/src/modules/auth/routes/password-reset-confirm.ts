import { passwordResetConfirmSchema, passwordResetDoneSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { ipRateLimit, LOGIN_IP_LIMIT } from '../limits.ts';
import { errorResponses } from '../openapi.ts';
import { confirmPasswordReset, type PasswordResetDeps } from '../password-reset.ts';
import { clearRefreshCookie } from '../session.ts';
import { tags } from './security-shared.ts';

/** POST /v1/auth/password-reset/confirm: a new password from a reset link's token. */
export function passwordResetConfirmRoute(app: TypedApp, context: AppContext, resetDeps: PasswordResetDeps): void {
  app.post(
    '/v1/auth/password-reset/confirm',
    {
      config: ipRateLimit(context.config, LOGIN_IP_LIMIT),
      schema: {
        tags,
        summary: "Set a new password with a reset link's token; every session of the account ends",
        body: passwordResetConfirmSchema,
        response: { 200: passwordResetDoneSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const done = unwrap(await confirmPasswordReset(resetDeps, request.body.token, request.body.password));
      clearRefreshCookie(reply, context.config);
      return done;
    },
  );
}
