import { futuresOrderListSchema, futuresOrdersQuerySchema } from '@platform/contracts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { listOrders } from '../reads.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function listOrdersRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/orders',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Your futures orders (open, closed or by status)',
        security: bearerAuth,
        querystring: futuresOrdersQuerySchema,
        response: { 200: futuresOrderListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      listOrders(routes.context.db, routes.exchange.markets, currentAccount(request).id, request.query),
  );
}
