import { futuresPositionListSchema } from '@platform/contracts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function positionsRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/positions',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Your open positions',
        security: bearerAuth,
        response: { 200: futuresPositionListSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ positions: await routes.exchange.accounts.positions(currentAccount(request).id) }),
  );
}
