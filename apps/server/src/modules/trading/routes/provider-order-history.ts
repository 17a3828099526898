import { orderSchema } from '@platform/contracts';
import { z } from 'zod';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { listOrders } from '../service.ts';
import { providerListQuery, providerTags, type TradingRouteContext } from './shared.ts';

export function providerOrderHistoryRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.get(
    `${PROVIDER_PREFIX}/trade/orders/history`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: 'Your closed orders, newest first (optional symbol and limit)',
        security: bearerAuth,
        querystring: providerListQuery,
        response: { 200: z.array(orderSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { symbol, limit } = request.query;
      const result = await listOrders(deps, currentAccount(request).id, { status: 'closed', symbol, limit, page: 1 });
      return result.orders;
    },
  );
}
