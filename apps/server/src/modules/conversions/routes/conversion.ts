import { conversionSchema } from '@platform/contracts';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { ConversionDeps } from '../deps.ts';
import { getConversion } from '../reads.ts';
import { tags } from './shared.ts';

/** Longest id accepted in the path: a UUID is 36 characters; longer ones are simply not found. */
const MAX_ID_LENGTH = 100;
// Anything goes in: an id that is not the caller's, malformed or not, is 'Conversion not found'.
const conversionIdParamsSchema = z.object({ id: z.string().max(MAX_ID_LENGTH) });

/** GET /api/v1/conversions/{id}: one of the caller's conversions or quick trades. */
export function conversionRoute(app: TypedApp, context: AppContext, deps: ConversionDeps): void {
  app.get(
    '/api/v1/conversions/:id',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: "One of the caller's conversions or quick trades",
        security: bearerAuth,
        params: conversionIdParamsSchema,
        response: { 200: conversionSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => unwrap(await getConversion(deps, currentAccount(request).id, request.params.id)),
  );
}
