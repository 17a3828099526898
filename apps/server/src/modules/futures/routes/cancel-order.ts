import { futuresOrderSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type FuturesRouteContext, orderIdParams, tags } from './shared.ts';

export function cancelOrderRoute(routes: FuturesRouteContext): void {
  routes.app.delete(
    '/v1/futures/orders/:id',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Cancel an open futures order',
        security: bearerAuth,
        params: orderIdParams,
        response: { 200: futuresOrderSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => unwrap(await routes.exchange.orders.cancelOrder(currentAccount(request).id, request.params.id)),
  );
}
