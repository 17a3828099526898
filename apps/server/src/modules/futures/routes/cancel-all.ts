import { futuresOrderSchema } from '@platform/contracts';
import { z } from 'zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type FuturesRouteContext, marketOf, marketQuery, tags } from './shared.ts';

export function cancelAllRoute(routes: FuturesRouteContext): void {
  routes.app.delete(
    '/v1/futures/orders',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Cancel all your open orders (of one market with ?market=); TP/SL stay with their positions',
        security: bearerAuth,
        querystring: marketQuery,
        response: { 200: z.object({ cancelled: z.array(futuresOrderSchema) }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const market = request.query.market ? marketOf(routes, request.query.market).id : null;
      return { cancelled: unwrap(await routes.exchange.orders.cancelAll(currentAccount(request).id, market)) };
    },
  );
}
