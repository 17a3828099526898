import { futuresMarketParamsSchema, futuresOrderBookSchema } from '@platform/contracts';
import { z } from 'zod';
import { errorResponses } from '../../auth/index.ts';
import { unitsText } from '../units.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function orderBookRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets/:market/orderbook',
    {
      schema: {
        tags,
        summary: "A market's order book",
        params: futuresMarketParamsSchema,
        querystring: z.object({ depth: z.coerce.number().int().min(1).max(500).default(50) }),
        response: { 200: futuresOrderBookSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      const depth = routes.exchange.depth(spec.id, request.query.depth);
      const level = (l: { priceTicks: number; quantityLots: number }): [string, string] => [
        unitsText(l.priceTicks, spec.priceDecimals),
        unitsText(l.quantityLots, spec.quantityDecimals),
      ];
      return {
        market: spec.id,
        sequence: routes.core.state.sequence,
        bids: depth.bids.map(level),
        asks: depth.asks.map(level),
        timestamp: routes.context.clock().getTime(),
      };
    },
  );
}
