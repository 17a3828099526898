import { futuresSettingsListSchema } from '@platform/contracts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function settingsRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/settings',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Your leverage and margin mode per market',
        security: bearerAuth,
        response: { 200: futuresSettingsListSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ settings: routes.exchange.accounts.settings(currentAccount(request).id) }),
  );
}
