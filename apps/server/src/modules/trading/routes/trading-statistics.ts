import { accountIdParamsSchema, tradingStatisticsSchema } from '@platform/contracts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { tradingStatistics } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function tradingStatisticsRoute({ app, deps, owner }: TradingRouteContext): void {
  app.get(
    '/v1/accounts/:id/trading/statistics',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Your trading totals: counts, volume and fees',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: tradingStatisticsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => tradingStatistics(deps, request.params.id),
  );
}
