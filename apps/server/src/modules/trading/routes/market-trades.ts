import { marketTradesQuerySchema, tradeSchema } from '@platform/contracts';
import { z } from 'zod';
import { sendEncoded } from '../../../http/encoded-body.ts';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { symbolParamsSchema, type TradingRouteContext, tags } from './shared.ts';

export function marketTradesRoute({ app, deps }: TradingRouteContext): void {
  app.get(
    '/v1/market/:symbol/trades',
    {
      schema: {
        tags,
        summary: 'Recent trades of a market, newest first',
        params: symbolParamsSchema,
        querystring: marketTradesQuerySchema,
        response: { 200: z.array(tradeSchema), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendEncoded(request, reply, unwrap(deps.marketReads.marketTrades(request.params.symbol, request.query.limit))),
  );
}
