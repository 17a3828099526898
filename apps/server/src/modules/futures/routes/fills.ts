import { futuresFillListSchema } from '@platform/contracts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { listFills } from '../reads.ts';
import { type FuturesRouteContext, marketQuery, pageQuery, tags } from './shared.ts';

export function fillsRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/fills',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Your futures fills',
        security: bearerAuth,
        querystring: pageQuery.merge(marketQuery),
        response: { 200: futuresFillListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => listFills(routes.context.db, currentAccount(request).id, request.query.market, request.query),
  );
}
