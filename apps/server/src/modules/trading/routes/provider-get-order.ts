import { orderIdParamsSchema, orderSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { getOrder } from '../service.ts';
import { providerTags, type TradingRouteContext } from './shared.ts';

export function providerGetOrderRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.get(
    `${PROVIDER_PREFIX}/trade/order/:id`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: 'One of your orders',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => unwrap(await getOrder(deps, currentAccount(request).id, request.params.id)),
  );
}
