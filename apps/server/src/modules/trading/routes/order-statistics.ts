import { accountIdParamsSchema, orderStatisticsSchema } from '@platform/contracts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { orderStatistics } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function orderStatisticsRoute({ app, deps, owner }: TradingRouteContext): void {
  app.get(
    '/v1/accounts/:id/orders/statistics',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Counts of your orders by status, side and type',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: orderStatisticsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => orderStatistics(deps, request.params.id),
  );
}
