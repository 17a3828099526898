import { orderIdParamsSchema, orderSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { cancelOrder } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function cancelOrderRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.post(
    '/v1/orders/:id/cancel',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Cancel an open order; its held funds are released',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request) => unwrap(await cancelOrder(deps, currentAccount(request).id, request.params.id)),
  );
}
