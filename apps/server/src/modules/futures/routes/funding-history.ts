import { fundingHistorySchema, futuresMarketParamsSchema } from '@platform/contracts';
import { errorResponses } from '../../auth/index.ts';
import { listFunding } from '../reads.ts';
import { type FuturesRouteContext, marketOf, pageQuery, tags } from './shared.ts';

export function fundingHistoryRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/markets/:market/funding',
    {
      schema: {
        tags,
        summary: "A market's funding rounds",
        params: futuresMarketParamsSchema,
        querystring: pageQuery,
        response: { 200: fundingHistorySchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => listFunding(routes.context.db, marketOf(routes, request.params.market).id, request.query),
  );
}
