import { futuresOrderSchema, placeFuturesOrderRequestSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function placeOrderRoute(routes: FuturesRouteContext): void {
  routes.app.post(
    '/v1/futures/orders',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Place a futures order',
        description:
          'Checked against your margin first (Insufficient margin, Leverage exceeds the maximum for this position size, ' +
          'Reduce-only order would increase the position); answered once durable. A repeated client_order_id returns the first order with 200.',
        security: bearerAuth,
        body: placeFuturesOrderRequestSchema,
        response: { 200: futuresOrderSchema, 201: futuresOrderSchema, ...errorResponses(400, 401, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const placed = unwrap(await routes.exchange.orders.placeOrder(currentAccount(request).id, request.body));
      return reply.status(placed.created ? 201 : 200).send(placed.order);
    },
  );
}
