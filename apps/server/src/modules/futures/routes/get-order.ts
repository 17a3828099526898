import { futuresOrderSchema } from '@platform/contracts';
import { AppError } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { getOrder } from '../reads.ts';
import { type FuturesRouteContext, orderIdParams, tags } from './shared.ts';

export function getOrderRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/orders/:id',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'One of your futures orders',
        security: bearerAuth,
        params: orderIdParams,
        response: { 200: futuresOrderSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const order = await getOrder(
        routes.context.db,
        routes.exchange.markets,
        currentAccount(request).id,
        request.params.id,
      );
      if (!order) throw new AppError('ORDER_NOT_FOUND');
      return order;
    },
  );
}
