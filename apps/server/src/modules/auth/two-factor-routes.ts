import {
  accountIdParamsSchema,
  recoveryCodesRequestSchema,
  recoveryCodesResponseSchema,
  twoFactorDisableRequestSchema,
  twoFactorEnableRequestSchema,
  twoFactorSetupResponseSchema,
  twoFactorStatusResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { unwrap } from '../../lib/errors.ts';
import type { AuthDeps } from './deps.ts';
import { authenticate, requireAccountOwner } from './guard.ts';
import { ipRateLimit, TWO_FACTOR_IP_LIMIT } from './limits.ts';
import { bearerAuth, errorResponses } from './openapi.ts';
import { confirmTwoFactorSetup, disableTwoFactor, renewRecoveryCodes, startTwoFactorSetup } from './two-factor.ts';

const tags = ['auth'];

export function twoFactorRoutes(scope: FastifyInstance, context: AppContext, deps: AuthDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const guarded = {
    onRequest: authenticate(context),
    preValidation: requireAccountOwner,
    config: ipRateLimit(context.config, TWO_FACTOR_IP_LIMIT),
  };

  app.post(
    '/v1/accounts/:id/2fa/enable',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Start 2FA setup ({}: a pending secret and its QR code) or confirm it ({code}: 2FA on)',
        security: bearerAuth,
        params: accountIdParamsSchema,
        body: twoFactorEnableRequestSchema.nullish(),
        response: {
          200: twoFactorSetupResponseSchema.or(twoFactorStatusResponseSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => {
      const code = request.body?.code;
      if (code === undefined) return unwrap(await startTwoFactorSetup(deps, request.params.id));
      return unwrap(await confirmTwoFactorSetup(deps, request.params.id, code));
    },
  );

  app.post(
    '/v1/accounts/:id/2fa/disable',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Turn 2FA off with a valid code or a recovery code',
        security: bearerAuth,
        params: accountIdParamsSchema,
        body: twoFactorDisableRequestSchema,
        response: { 200: twoFactorStatusResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => unwrap(await disableTwoFactor(deps, request.params.id, request.body)),
  );

  app.post(
    '/v1/accounts/:id/2fa/recovery-codes',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Renew the 2FA recovery codes with a valid code (the old ones stop working); shown once',
        security: bearerAuth,
        params: accountIdParamsSchema,
        body: recoveryCodesRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => unwrap(await renewRecoveryCodes(deps, request.params.id, request.body.code)),
  );
}
