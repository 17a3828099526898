import { accountIdParamsSchema, portfolioHistoryQuerySchema, portfolioHistorySchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses, ownAccountId } from '../auth/index.ts';
import { type HistoryDeps, portfolioHistory } from './history-service.ts';

const tags = ['portfolio'];
const summary =
  'Your portfolio value over time: hourly snapshots for 1D and 1W, daily for 1M, 3M, 1Y and all, then the live value now';

/**
 * Value over time, owner only: GET /v1/portfolio/history for the signed-in account, and the same
 * under /v1/accounts/{id}/portfolio/history, where any id but one's own answers 404 exactly as an
 * id that does not exist (as the summary).
 */
export function historyRoutes(scope: FastifyInstance, context: AppContext, deps: HistoryDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  app.get(
    '/v1/portfolio/history',
    {
      ...signedIn,
      schema: {
        tags,
        summary,
        security: bearerAuth,
        querystring: portfolioHistoryQuerySchema,
        response: { 200: portfolioHistorySchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => portfolioHistory(deps, currentAccount(request).id, request.query.range),
  );
  app.get(
    '/v1/accounts/:id/portfolio/history',
    {
      ...signedIn,
      schema: {
        tags,
        summary: `${summary} (your own account id only)`,
        security: bearerAuth,
        params: accountIdParamsSchema,
        querystring: portfolioHistoryQuerySchema,
        response: { 200: portfolioHistorySchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => portfolioHistory(deps, ownAccountId(request, request.params.id), request.query.range),
  );
}
