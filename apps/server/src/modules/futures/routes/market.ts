import { futuresMarketParamsSchema, futuresMarketSchema } from '@platform/contracts';
import { errorResponses } from '../../auth/index.ts';
import { marketView } from './market-view.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function marketRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets/:market',
    {
      schema: {
        tags,
        summary: 'One perpetual market',
        params: futuresMarketParamsSchema,
        response: { 200: futuresMarketSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      marketView(routes, routes.context.db, marketOf(routes, request.params.market), routes.context.clock()),
  );
}
