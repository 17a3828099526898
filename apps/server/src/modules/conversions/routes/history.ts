import { conversionHistoryQuerySchema, conversionHistoryResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { ConversionDeps } from '../deps.ts';
import { conversionHistory } from '../reads.ts';
import { toConversion } from '../rows.ts';
import { tags } from './shared.ts';

/** GET /api/v1/conversions/history. */
export function historyRoute(app: TypedApp, context: AppContext, deps: ConversionDeps): void {
  app.get(
    '/api/v1/conversions/history',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: "The caller's conversions, newest first",
        security: bearerAuth,
        querystring: conversionHistoryQuerySchema,
        response: { 200: conversionHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const rows = await conversionHistory(deps, currentAccount(request).id, 'conversion', request.query.limit);
      return { conversions: rows.map(toConversion) };
    },
  );
}
