import { futuresMarketParamsSchema, markPriceSchema } from '@platform/contracts';
import { AppError } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { rateText, unitsText } from '../units.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function markRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets/:market/mark',
    {
      schema: {
        tags,
        summary: "A market's mark and index prices and funding rate",
        params: futuresMarketParamsSchema,
        response: { 200: markPriceSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      const source = routes.uses.marks?.mark(spec.id) ?? null;
      const mark = routes.exchange.markOf(spec.id);
      if (mark === null) throw new AppError('FUTURES_MARKET_HALTED', { message: 'No mark price for this market yet' });
      return {
        market: spec.id,
        mark_price: unitsText(mark, spec.priceDecimals),
        index_price: unitsText(source?.indexTicks ?? mark, spec.priceDecimals),
        funding_rate: rateText(source?.fundingRate ?? 0n),
        next_funding_time: source?.nextFundingTime ?? 0,
        index_stale: routes.uses.marks?.indexStale?.(spec.id) ?? false,
        timestamp: routes.context.clock().getTime(),
      };
    },
  );
}
