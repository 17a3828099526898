import { futuresMarketParamsSchema, futuresTierListSchema } from '@platform/contracts';
import { errorResponses } from '../../auth/index.ts';
import { tierViews } from './market-view.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function tiersRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets/:market/tiers',
    {
      schema: {
        tags,
        summary: "A market's risk-limit tiers (leverage and maintenance margin by notional)",
        params: futuresMarketParamsSchema,
        response: { 200: futuresTierListSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      return { market: spec.id, tiers: tierViews(spec) };
    },
  );
}
