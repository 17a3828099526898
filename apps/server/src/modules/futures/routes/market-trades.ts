import { futuresMarketParamsSchema, futuresMarketTradeSchema } from '@platform/contracts';
import { z } from 'zod';
import { errorResponses } from '../../auth/index.ts';
import { marketTrades } from '../reads.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function marketTradesRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets/:market/trades',
    {
      schema: {
        tags,
        summary: "A market's recent trades",
        params: futuresMarketParamsSchema,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
        response: { 200: z.object({ trades: z.array(futuresMarketTradeSchema) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      return { trades: await marketTrades(routes.context.db, spec.id, request.query.limit) };
    },
  );
}
