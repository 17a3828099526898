import { orderIdParamsSchema, orderSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { getOrder } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function getOrderRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.get(
    '/v1/orders/:id',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'One of your orders',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => unwrap(await getOrder(deps, currentAccount(request).id, request.params.id)),
  );
}
