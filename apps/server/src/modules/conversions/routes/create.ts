import { conversionSchema, createConversionRequestSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { ConversionDeps } from '../deps.ts';
import { createConversion } from '../service.ts';
import { idempotencyHeaders, tags } from './shared.ts';

/** POST /api/v1/conversions: 201 for a new conversion, 200 for a retry's first result. */
export function createRoute(app: TypedApp, context: AppContext, deps: ConversionDeps): void {
  app.post(
    '/api/v1/conversions',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: "Executes a conversion at the caller's quote (quote_id, or the latest for this from/to/amount)",
        security: bearerAuth,
        body: createConversionRequestSchema,
        headers: idempotencyHeaders,
        response: {
          200: conversionSchema,
          201: conversionSchema,
          ...errorResponses(400, 401, 404, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const accountId = currentAccount(request).id;
      const result = unwrap(await createConversion(deps, accountId, request.body, request.headers['idempotency-key']));
      return reply.code(result.created ? 201 : 200).send(result.conversion);
    },
  );
}
