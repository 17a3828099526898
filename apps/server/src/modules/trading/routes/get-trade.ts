import { accountTradeSchema } from '@platform/contracts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { getTrade } from '../service.ts';
import { type TradingRouteContext, tags, tradeIdParamsSchema } from './shared.ts';

export function getTradeRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.get(
    '/v1/trades/:id',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'One of your trades',
        security: bearerAuth,
        params: tradeIdParamsSchema,
        response: { 200: accountTradeSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => unwrap(await getTrade(deps, currentAccount(request).id, request.params.id)),
  );
}
