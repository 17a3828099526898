import { futuresOrderPreviewSchema, placeFuturesOrderRequestSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { previewOrder } from '../preview.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function previewOrderRoute(routes: FuturesRouteContext): void {
  routes.app.post(
    '/v1/futures/orders/preview',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary:
          'What an order would cost and leave (margin, fee, resulting position, its liquidation price), without sending it',
        security: bearerAuth,
        body: placeFuturesOrderRequestSchema,
        response: { 200: futuresOrderPreviewSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.body.market);
      const accountId = currentAccount(request).id;
      await routes.core.state.loadWallets(routes.context.db, [accountId]);
      return unwrap(
        previewOrder(
          routes.core,
          routes.exchange.markOf,
          routes.context.config.priceBandBps,
          accountId,
          spec,
          request.body,
        ),
      );
    },
  );
}
