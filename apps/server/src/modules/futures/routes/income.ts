import { futuresIncomeListSchema, futuresIncomeQuerySchema } from '@platform/contracts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { listIncome } from '../reads.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function incomeRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/income',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Your futures income: realised P&L, fees, funding, transfers',
        security: bearerAuth,
        querystring: futuresIncomeQuerySchema,
        response: { 200: futuresIncomeListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => listIncome(routes.context.db, currentAccount(request).id, request.query),
  );
}
