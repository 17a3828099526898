import { passwordResetRequestedSchema, passwordResetRequestSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { ipRateLimit } from '../limits.ts';
import { errorResponses } from '../openapi.ts';
import { type PasswordResetDeps, requestPasswordReset } from '../password-reset.ts';
import { tags } from './security-shared.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Reset requests per IP: a person asks a few times; more is someone mailing strangers. */
export const PASSWORD_RESET_IP_LIMIT = { max: 10, timeWindow: HOUR_MS };

/** POST /v1/auth/password-reset/request: the same answer whether or not the email has an account. */
export function passwordResetRequestRoute(app: TypedApp, context: AppContext, resetDeps: PasswordResetDeps): void {
  app.post(
    '/v1/auth/password-reset/request',
    {
      config: ipRateLimit(context.config, PASSWORD_RESET_IP_LIMIT),
      schema: {
        tags,
        summary: 'Mail a single-use password reset link; the same answer whether or not the email has an account',
        body: passwordResetRequestSchema,
        response: { 202: passwordResetRequestedSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => reply.status(202).send(unwrap(await requestPasswordReset(resetDeps, request.body.email))),
  );
}
