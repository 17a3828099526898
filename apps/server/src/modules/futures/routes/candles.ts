import { candlesQuerySchema, candlesResponseSchema, futuresMarketParamsSchema } from '@platform/contracts';
import { sendEncoded } from '../../../http/encoded-body.ts';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

/** The spot candles' query, limits and answer (GET /v1/market/{symbol}/candles), from the perpetual's own trades. */
export function candlesRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets/:market/candles',
    {
      schema: {
        tags,
        summary: "A perpetual's last-price candles: a chart range, or an interval with from/to (unix ms)",
        params: futuresMarketParamsSchema,
        querystring: candlesQuerySchema,
        response: { 200: candlesResponseSchema, ...errorResponses(400, 404) },
      },
    },
    // Pre-encoded (the schema above documents it): one body per trade for every poller, 304 when unchanged.
    async (request, reply) => {
      const spec = marketOf(routes, request.params.market);
      const body = unwrap(routes.candles.read(spec, request.query, routes.context.clock().getTime()));
      return sendEncoded(request, reply, await body);
    },
  );
}
