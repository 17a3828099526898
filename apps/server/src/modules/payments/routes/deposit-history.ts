import { depositHistoryQuerySchema, depositHistoryResponseSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { depositHistory } from '../history.ts';
import { type PaymentRoutesEnv, WALLET_TAGS } from './route-env.ts';

/** GET /api/v1/wallet/deposits: address and checkout deposits, newest first. */
export function depositHistoryRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, signedIn } = env;
  app.get(
    '/api/v1/wallet/deposits',
    {
      ...signedIn,
      schema: {
        tags: WALLET_TAGS,
        summary: 'Deposits to the account’s addresses and through checkout, newest first',
        security: bearerAuth,
        querystring: depositHistoryQuerySchema,
        response: { 200: depositHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      depositHistory(context.db, currentAccount(request).id, context.clock(), request.query.limit, request.query.page),
  );
}
