import { orderIdParamsSchema, orderSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { cancelOrder } from '../service.ts';
import { providerTags, type TradingRouteContext } from './shared.ts';

export function providerCancelOrderRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.delete(
    `${PROVIDER_PREFIX}/trade/order/:id/cancel`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: 'Cancel an open order',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request) => unwrap(await cancelOrder(deps, currentAccount(request).id, request.params.id)),
  );
}
