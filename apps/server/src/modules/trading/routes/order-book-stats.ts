import { orderBookStatsSchema } from '@platform/contracts';
import { sendEncoded } from '../../../http/encoded-body.ts';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
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
    async (request, reply) =>
      sendEncoded(request, reply, unwrap(deps.marketReads.orderBookStats(request.params.symbol))),
  );
}
