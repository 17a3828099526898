import { tradingPairSchema, updateTradingPairRequestSchema } from '@platform/contracts';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { fail, unwrap } from '../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { roleOf } from '../kyc/service.ts';
import type { Markets } from '../markets/index.ts';
import { toTradingPair } from '../markets/service.ts';

/** Longest pair id in a path: ids are under 20 characters; longer is never a pair. */
const MAX_PAIR_LENGTH = 40;

/** What the admin calls use of the markets: the catalogue they change and the feed for the answer. */
export type AdminUses = { markets: Pick<Markets, 'catalogue' | 'feed'> };

/**
 * Admins only: the role as stored now (a role taken away counts at once), read the way the KYC
 * review routes read it; 403 for everyone else.
 */
export function requireAdmin(context: AppContext): preValidationAsyncHookHandler {
  return async (request) => {
    const role = await roleOf(context.db, currentAccount(request).id);
    if (role !== 'admin') unwrap(fail('FORBIDDEN'));
  };
}

/**
 * PATCH /v1/admin/trading-pairs/:id: open or close a pair. The row, the markets' catalogue (every
 * public pair list) and the exchange's market (new orders) change before the answer.
 */
export function adminTradingPairsRoutes(scope: FastifyInstance, context: AppContext, { markets }: AdminUses): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.patch(
    '/v1/admin/trading-pairs/:id',
    {
      onRequest: authenticate(context),
      preValidation: requireAdmin(context),
      schema: {
        tags: ['admin'],
        summary: 'Enable or disable a trading pair (admin); a disabled pair takes no new orders',
        security: bearerAuth,
        params: z.object({ id: z.string().max(MAX_PAIR_LENGTH) }),
        body: updateTradingPairRequestSchema,
        response: { 200: tradingPairSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const pair = markets.catalogue.find(request.params.id);
      const id = unwrap(pair).id;
      const updated = unwrap(await markets.catalogue.update(context.db, id, request.body, context.clock));
      return toTradingPair(updated, markets.feed);
    },
  );
}
