import { orderBookQuerySchema, orderBookSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { orderBook } from '../service.ts';
import { symbolParamsSchema, type TradingRouteContext, tags } from './shared.ts';

export function orderBookDepthRoute({ app, deps }: TradingRouteContext): void {
  app.get(
    '/v1/orderbook/:symbol/depth',
    {
      schema: {
        tags,
        summary: 'Order book depth: price levels with their total quantity',
        params: symbolParamsSchema,
        querystring: orderBookQuerySchema,
        response: { 200: orderBookSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => unwrap(await orderBook(deps, request.params.symbol, request.query.depth)),
  );
}
