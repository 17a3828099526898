import { accountIdParamsSchema, portfolioSummarySchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses, ownAccountId } from '../auth/index.ts';
import { type PortfolioDeps, portfolioSummary } from './service.ts';

const tags = ['portfolio'];
const summary = 'Your portfolio: total value in USD, 24 h change, allocation, holdings and open futures positions';

/**
 * The portfolio summary, owner only: GET /v1/portfolio for the signed-in account, and the same
 * under /v1/accounts/{id}/portfolio, where any id but one's own answers 404 exactly as an id that
 * does not exist (not 403: the answer must not tell that the account exists).
 */
export function portfolioRoutes(scope: FastifyInstance, context: AppContext, deps: PortfolioDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  app.get(
    '/v1/portfolio',
    {
      ...signedIn,
      schema: {
        tags,
        summary,
        security: bearerAuth,
        response: { 200: portfolioSummarySchema, ...errorResponses(401) },
      },
    },
    async (request) => portfolioSummary(deps, currentAccount(request).id),
  );
  app.get(
    '/v1/accounts/:id/portfolio',
    {
      ...signedIn,
      schema: {
        tags,
        summary: `${summary} (your own account id only)`,
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: portfolioSummarySchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => portfolioSummary(deps, ownAccountId(request, request.params.id)),
  );
}
