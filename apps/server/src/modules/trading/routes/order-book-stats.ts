import { orderBookStatsSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { orderBookStats } from '../service.ts';
import { symbolParamsSchema, type TradingRouteContext, tags } from './shared.ts';

export function orderBookStatsRoute({ app, deps }: TradingRouteContext): void {
  app.get(
    '/v1/orderbook/:symbol/stats',
    {
      schema: {
        tags,
        summary: 'Best bid and ask, spread, levels and totals of the whole book',
        params: symbolParamsSchema,
        response: { 200: orderBookStatsSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => unwrap(await orderBookStats(deps, request.params.symbol)),
  );
}
