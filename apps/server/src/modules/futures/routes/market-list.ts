import { futuresMarketListSchema } from '@platform/contracts';
import { errorResponses } from '../../auth/index.ts';
import { marketView } from './market-view.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function marketListRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets',
    {
      schema: {
        tags,
        summary: 'The perpetual markets',
        response: { 200: futuresMarketListSchema, ...errorResponses(400) },
      },
    },
    async () => {
      const now = routes.context.clock();
      const specs = [...routes.exchange.markets.values()];
      return { markets: await Promise.all(specs.map((spec) => marketView(routes, routes.context.db, spec, now))) };
    },
  );
}
