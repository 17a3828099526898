import { accountIdParamsSchema, analyticsQuerySchema, analyticsSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses, ownAccountId } from '../auth/index.ts';
import { type AnalyticsDeps, accountAnalytics } from './service.ts';

const tags = ['analytics'];
const summary =
  'Your trading analytics over a period of UTC days (default the last 30): volume, trades, win rate, profit factor, fees, funding, P&L by asset and day, TWR and drawdown';

/**
 * Analytics, owner only: GET /v1/analytics for the signed-in account, and the same under
 * /v1/accounts/{id}/analytics, where any id but one's own answers 404 exactly as an id that does
 * not exist (as the portfolio).
 */
export function analyticsRoutes(scope: FastifyInstance, context: AppContext, deps: AnalyticsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  app.get(
    '/v1/analytics',
    {
      ...signedIn,
      schema: {
        tags,
        summary,
        security: bearerAuth,
        querystring: analyticsQuerySchema,
        response: { 200: analyticsSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => accountAnalytics(deps, currentAccount(request).id, request.query),
  );
  app.get(
    '/v1/accounts/:id/analytics',
    {
      ...signedIn,
      schema: {
        tags,
        summary: `${summary} (your own account id only)`,
        security: bearerAuth,
        params: accountIdParamsSchema,
        querystring: analyticsQuerySchema,
        response: { 200: analyticsSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => accountAnalytics(deps, ownAccountId(request, request.params.id), request.query),
  );
}
