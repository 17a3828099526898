import { futuresAccountSchema } from '@platform/contracts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function accountRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/account',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Your futures wallet and margins',
        security: bearerAuth,
        response: { 200: futuresAccountSchema, ...errorResponses(401) },
      },
    },
    async (request) => routes.exchange.accounts.account(currentAccount(request).id),
  );
}
