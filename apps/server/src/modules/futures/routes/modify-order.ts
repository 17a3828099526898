import { futuresOrderSchema, modifyFuturesOrderRequestSchema } from '@platform/contracts';
import { AppError, unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { lotsOf, priceTicksOf } from '../parse.ts';
import { type FuturesRouteContext, orderIdParams, tags } from './shared.ts';

export function modifyOrderRoute(routes: FuturesRouteContext): void {
  routes.app.put(
    '/v1/futures/orders/:id',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: "Change an open order's quantity, price or stop price",
        security: bearerAuth,
        params: orderIdParams,
        body: modifyFuturesOrderRequestSchema,
        response: { 200: futuresOrderSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request) => {
      const accountId = currentAccount(request).id;
      const open = routes.core.state.orders.get(request.params.id);
      if (!open || open.accountId !== accountId) throw new AppError('ORDER_NOT_FOUND');
      const spec = routes.exchange.markets.get(open.marketId)!;
      const quantityLots = lotsOf(spec, request.body.quantity);
      const priceTicks = priceTicksOf(spec, request.body.price);
      const stopTicks = priceTicksOf(spec, request.body.stop_price);
      if (quantityLots === null || priceTicks === null || stopTicks === null) {
        throw new AppError('VALIDATION_ERROR', {
          message: 'Quantity and prices must be positive within the market tick and lot',
        });
      }
      return unwrap(
        await routes.exchange.accounts.modifyOrder({
          accountId,
          orderId: open.id,
          quantityLots,
          priceTicks,
          stopTicks,
        }),
      );
    },
  );
}
