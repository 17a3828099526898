import { accountIdParamsSchema, orderListSchema, ordersQuerySchema } from '@platform/contracts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { listOrders } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function listOrdersRoute({ app, deps, owner }: TradingRouteContext): void {
  app.get(
    '/v1/accounts/:id/orders',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Your orders, newest first, with filters and paging',
        security: bearerAuth,
        params: accountIdParamsSchema,
        querystring: ordersQuerySchema,
        response: { 200: orderListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listOrders(deps, request.params.id, request.query),
  );
}
