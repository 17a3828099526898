import { futuresTransferListSchema } from '@platform/contracts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { listTransfers } from '../reads.ts';
import { type FuturesRouteContext, pageQuery, tags } from './shared.ts';

export function transfersRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/transfers',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Your transfers between spot and futures',
        security: bearerAuth,
        querystring: pageQuery,
        response: { 200: futuresTransferListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => listTransfers(routes.context.db, currentAccount(request).id, request.query),
  );
}
