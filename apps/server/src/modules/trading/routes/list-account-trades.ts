import { accountIdParamsSchema, accountTradeListSchema, tradesQuerySchema } from '@platform/contracts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { listAccountTrades } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function listAccountTradesRoute({ app, deps, owner }: TradingRouteContext): void {
  // The same list under its two documented paths.
  for (const path of ['/v1/accounts/:id/trades', '/v1/accounts/:id/trades/history']) {
    app.get(
      path,
      {
        ...owner,
        schema: {
          tags,
          summary: 'Your trades, newest first, with filters and paging',
          security: bearerAuth,
          params: accountIdParamsSchema,
          querystring: tradesQuerySchema,
          response: { 200: accountTradeListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => listAccountTrades(deps, request.params.id, request.query),
    );
  }
}
