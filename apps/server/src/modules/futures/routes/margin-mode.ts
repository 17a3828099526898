import { futuresMarketParamsSchema, futuresSettingsSchema, setMarginModeRequestSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { maxLeverageNow } from '../accounts.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

export function marginModeRoute(routes: FuturesRouteContext): void {
  routes.app.put(
    '/v1/futures/markets/:market/margin-mode',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Set cross or isolated margin for a market (not while a position or an order exists)',
        security: bearerAuth,
        params: futuresMarketParamsSchema,
        body: setMarginModeRequestSchema,
        response: { 200: futuresSettingsSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      const accountId = currentAccount(request).id;
      const setting = unwrap(
        await routes.exchange.accounts.setMarginMode(accountId, spec.id, request.body.margin_mode),
      );
      return {
        market: spec.id,
        leverage: setting.leverage,
        margin_mode: setting.mode,
        max_leverage: maxLeverageNow(routes.core, accountId, spec.id, routes.exchange.markOf),
      };
    },
  );
}
