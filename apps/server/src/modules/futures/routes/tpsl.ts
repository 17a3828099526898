import { futuresMarketParamsSchema, futuresPositionSchema, positionTpslRequestSchema } from '@platform/contracts';
import { AppError, unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { priceTicksOf } from '../parse.ts';
import { positionOf } from './position-of.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function tpslRoute(routes: FuturesRouteContext): void {
  routes.app.put(
    '/v1/futures/positions/:market/tpsl',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary:
          "Set or remove (null) the position's take-profit and stop-loss (reduce-only orders that follow its size)",
        security: bearerAuth,
        params: futuresMarketParamsSchema,
        body: positionTpslRequestSchema,
        response: { 200: futuresPositionSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      const accountId = currentAccount(request).id;
      const ticks = (value: string | number | null | undefined) => {
        if (value === null) return null;
        const parsed = priceTicksOf(spec, value);
        if (parsed === null)
          throw new AppError('VALIDATION_ERROR', {
            message: `Prices must be positive with at most ${spec.priceDecimals} decimals`,
          });
        return parsed;
      };
      const takeProfitTicks = ticks(request.body.take_profit_price);
      const stopLossTicks = ticks(request.body.stop_loss_price);
      unwrap(await routes.exchange.accounts.setTpsl({ accountId, marketId: spec.id, takeProfitTicks, stopLossTicks }));
      return positionOf(routes, accountId, spec.id);
    },
  );
}
