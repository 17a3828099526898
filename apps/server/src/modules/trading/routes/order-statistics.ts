import { accountIdParamsSchema, orderStatisticsSchema, periodQuerySchema } from '@platform/contracts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { orderStatistics } from '../service.ts';
import { statisticsRange, type TradingRouteContext, tags } from './shared.ts';

export function orderStatisticsRoute({ app, deps, owner }: TradingRouteContext): void {
  app.get(
    '/v1/accounts/:id/orders/statistics',
    {
      ...owner,
      schema: {
        tags,
        summary:
          'Counts of your orders by status, side and type (all time, or orders created on the UTC days from..to)',
        security: bearerAuth,
        params: accountIdParamsSchema,
        querystring: periodQuerySchema,
        response: { 200: orderStatisticsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => orderStatistics(deps, request.params.id, statisticsRange(request.query)),
  );
}
