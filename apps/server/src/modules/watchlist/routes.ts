import { accountIdParamsSchema, updateWatchlistRequestSchema, watchlistSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { unwrap } from '../../lib/errors.ts';
import { authenticate, bearerAuth, errorResponses, requireAccountOwner } from '../auth/index.ts';
import { getWatchlist, setWatchlist } from './service.ts';

const tags = ['watchlist'];

/** The signed-in user's favourite trading pairs. */
export function watchlistModule(scope: FastifyInstance, context: AppContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db } = context;
  const owner = { onRequest: authenticate(context), preValidation: requireAccountOwner };

  app.get(
    '/v1/accounts/:id/watchlist',
    {
      ...owner,
      schema: {
        tags,
        summary: 'The watchlist: pair ids in the user’s order',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: watchlistSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => getWatchlist(db, request.params.id),
  );

  app.put(
    '/v1/accounts/:id/watchlist',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Replace the watchlist; duplicates are dropped, unknown pairs refuse the whole list',
        security: bearerAuth,
        params: accountIdParamsSchema,
        body: updateWatchlistRequestSchema,
        response: { 200: watchlistSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => unwrap(await setWatchlist(db, request.params.id, request.body)),
  );
}
