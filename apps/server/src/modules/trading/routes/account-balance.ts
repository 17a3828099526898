import { accountBalanceSchema, accountIdParamsSchema } from '@platform/contracts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { accountBalances } from '../service.ts';
import { type TradingRouteContext, tags } from './shared.ts';

export function accountBalanceRoute({ app, deps, owner }: TradingRouteContext): void {
  app.get(
    '/v1/accounts/:id/balance',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Balances from the ledger: available, locked (held by open orders) and total',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: accountBalanceSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => accountBalances(deps, request.params.id),
  );
}
