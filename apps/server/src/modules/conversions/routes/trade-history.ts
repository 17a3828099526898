import { quickTradeHistoryQuerySchema, quickTradeHistoryResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { ConversionDeps } from '../deps.ts';
import { conversionHistory } from '../reads.ts';
import { toQuickTrade } from '../rows.ts';
import { tags } from './shared.ts';

/** GET /api/v1/trade/history. */
export function tradeHistoryRoute(app: TypedApp, context: AppContext, deps: ConversionDeps): void {
  app.get(
    '/api/v1/trade/history',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: "The caller's quick trades, newest first",
        security: bearerAuth,
        querystring: quickTradeHistoryQuerySchema,
        response: { 200: quickTradeHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const rows = await conversionHistory(deps, currentAccount(request).id, 'trade', request.query.limit);
      return { trades: rows.map(toQuickTrade) };
    },
  );
}
