import { orderBookQuerySchema, orderBookSchema } from '@platform/contracts';
import { sendEncoded } from '../../../http/encoded-body.ts';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { symbolParamsSchema, type TradingRouteContext, tags } from './shared.ts';

export function orderBookRoute({ app, deps }: TradingRouteContext): void {
  app.get(
    '/v1/orderbook/:symbol',
    {
      schema: {
        tags,
        summary: 'The order book (aggregated levels)',
        params: symbolParamsSchema,
        querystring: orderBookQuerySchema,
        response: { 200: orderBookSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendEncoded(request, reply, unwrap(deps.marketReads.orderBook(request.params.symbol, request.query.depth))),
  );
}
