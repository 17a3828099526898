import { simulatorShockRequestSchema, simulatorShockResponseSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { fail, unwrap } from '../../lib/errors.ts';
import { authenticate, bearerAuth, errorResponses } from '../auth/index.ts';
import type { Markets } from '../markets/index.ts';
import { requireAdmin } from './trading-pairs.ts';

/** The most a shock may move a price: -90 % (a crash) to +900 % (a squeeze). */
const MIN_MOVE_BPS = -9_000;
const MAX_MOVE_BPS = 90_000;

export type AdminSimulatorUses = { markets: Pick<Markets, 'sources'> };

/** '-12.5' percent -> -1250 bps, exactly (at most 2 decimals by the schema). */
function percentToBps(text: string): number {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const bps = Number.parseInt(whole, 10) * 100 + Number.parseInt(fraction.padEnd(2, '0'), 10);
  return negative ? -bps : bps;
}

/**
 * POST /v1/admin/simulator/shock: on a venue priced by the built-in simulator alone (the sandbox
 * default), an admin moves a coin's price at once to stress the venue (liquidations, margin calls,
 * price bands). Refused when live sources price the venue: nobody moves a real market.
 */
export function adminSimulatorRoutes(
  scope: FastifyInstance,
  context: AppContext,
  { markets }: AdminSimulatorUses,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/admin/simulator/shock',
    {
      onRequest: authenticate(context),
      preValidation: requireAdmin(context),
      schema: {
        tags: ['admin'],
        summary: "Move a coin's simulated price at once (admin, simulator-priced venues only)",
        security: bearerAuth,
        body: simulatorShockRequestSchema,
        response: { 200: simulatorShockResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const simulatorOnly = context.config.priceSources.every((name) => name === 'simulator');
      if (!simulatorOnly) unwrap(fail('SIMULATOR_NOT_IN_USE'));
      const bps = percentToBps(request.body.move_percent);
      if (bps < MIN_MOVE_BPS || bps > MAX_MOVE_BPS) {
        unwrap(fail('VALIDATION_ERROR', { message: 'move_percent must be from -90 to 900' }));
      }
      const quote = markets.sources.simulator.shock(request.body.symbol, bps);
      if (quote === null) return unwrap(fail('NOT_FOUND', { message: 'Unknown coin' }));
      return { symbol: request.body.symbol, price_usd: quote.priceUsd };
    },
  );
}
