import { futuresMarketParamsSchema, futuresPositionSchema, isolatedMarginRequestSchema } from '@platform/contracts';
import { AppError, unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { parseUnits } from '../units.ts';
import { positionOf } from './position-of.ts';
import { type FuturesRouteContext, marketOf, tags } from './shared.ts';

/** Most USD one call moves (10^9 USD), in money units. */
const MAX_AMOUNT = 10n ** 17n;

export function isolatedMarginRoute(routes: FuturesRouteContext): void {
  routes.app.post(
    '/v1/futures/positions/:market/margin',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary:
          "Add to or remove from an isolated position's margin (removal keeps it at or above its initial margin)",
        security: bearerAuth,
        params: futuresMarketParamsSchema,
        body: isolatedMarginRequestSchema,
        response: { 200: futuresPositionSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request) => {
      const spec = marketOf(routes, request.params.market);
      const accountId = currentAccount(request).id;
      const amount = parseUnits(request.body.amount, 8, MAX_AMOUNT);
      if (amount === null)
        throw new AppError('VALIDATION_ERROR', { message: 'Amount must be positive with at most 8 decimals' });
      unwrap(
        await routes.exchange.accounts.moveMargin({
          accountId,
          marketId: spec.id,
          action: request.body.action,
          amount,
        }),
      );
      return positionOf(routes, accountId, spec.id);
    },
  );
}
