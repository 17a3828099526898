import { accountIdParamsSchema, periodQuerySchema, tradingStatisticsSchema } from '@platform/contracts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { tradingStatistics } from '../service.ts';
import { statisticsRange, type TradingRouteContext, tags } from './shared.ts';

export function tradingStatisticsRoute({ app, deps, owner }: TradingRouteContext): void {
  app.get(
    '/v1/accounts/:id/trading/statistics',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Your trading totals: counts, volume and fees (all time, or fills of the UTC days from..to)',
        security: bearerAuth,
        params: accountIdParamsSchema,
        querystring: periodQuerySchema,
        response: { 200: tradingStatisticsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => tradingStatistics(deps, request.params.id, statisticsRange(request.query)),
  );
}
