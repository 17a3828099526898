import { modifyOrderRequestSchema, orderIdParamsSchema, orderSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { modifyOrder } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function modifyOrderRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.put(
    '/v1/orders/:id/modify',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Change an open order: lowering only the quantity keeps its place in the queue',
        security: bearerAuth,
        params: orderIdParamsSchema,
        body: modifyOrderRequestSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409, 422, 503) },
      },
    },
    async (request) => unwrap(await modifyOrder(deps, currentAccount(request).id, request.params.id, request.body)),
  );
}
