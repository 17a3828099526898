import { futuresMarketParamsSchema, futuresSettingsSchema, setLeverageRequestSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { maxLeverageNow } from '../accounts.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function leverageRoute(routes: FuturesRouteContext): void {
  routes.app.put(
    '/v1/futures/markets/:market/leverage',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Set the leverage of a market (refused above the tier maximum for the position and orders)',
        security: bearerAuth,
        params: futuresMarketParamsSchema,
        body: setLeverageRequestSchema,
        response: { 200: futuresSettingsSchema, ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      const accountId = currentAccount(request).id;
      const setting = unwrap(await routes.exchange.accounts.setLeverage(accountId, spec.id, request.body.leverage));
      return {
        market: spec.id,
        leverage: setting.leverage,
        margin_mode: setting.mode,
        max_leverage: maxLeverageNow(routes.core, accountId, spec.id, routes.exchange.markOf),
      };
    },
  );
}
