import { conversionEstimateQuerySchema, conversionQuoteSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { ConversionDeps } from '../deps.ts';
import { estimateConversion } from '../quotes.ts';
import { tags } from './shared.ts';

/** GET /api/v1/conversions/estimate: a stored quote, executable once before it expires. */
export function estimateRoute(app: TypedApp, context: AppContext, deps: ConversionDeps): void {
  app.get(
    '/api/v1/conversions/estimate',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: 'A quote at the reference price for converting from_amount: stored, executable once before it expires',
        security: bearerAuth,
        querystring: conversionEstimateQuerySchema,
        response: { 200: conversionQuoteSchema, ...errorResponses(400, 401, 422, 503) },
      },
    },
    async (request) => unwrap(await estimateConversion(deps, currentAccount(request).id, request.query)),
  );
}
