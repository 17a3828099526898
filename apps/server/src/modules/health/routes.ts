import { healthResponseSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { PriceSources } from '../markets/sources.ts';

const startedAt = Date.now();

export function healthRoutes(app: FastifyInstance, context: AppContext, sources: PriceSources): void {
  const { db } = context;
  // Binance's /api/v3/ping: a connectivity check that does nothing, through the same hooks as every
  // other call. It is also the benchmarks' ceiling: no public read can be faster than this.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/v1/ping',
      { schema: { tags: ['system'], summary: 'Connectivity check: an empty object', response: { 200: z.object({}) } } },
      async () => ({}),
    );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and dependency status',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const databaseOk = await db.query('SELECT 1').then(
        () => true,
        () => false,
      );
      const body = {
        status: databaseOk ? ('ok' as const) : ('degraded' as const),
        version: process.env.npm_package_version ?? '0.1.0',
        uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
        database: { kind: db.kind, ok: databaseOk },
        ...priceSourceStatus(sources),
      };
      return reply.status(databaseOk ? 200 : 503).send(body);
    },
  );
}

/**
 * The price sources in chain order. Prices are 'simulator' when no live source is configured or
 * none of them is healthy: the product still works, on the built-in market simulator.
 */
function priceSourceStatus(sources: PriceSources) {
  const reports = sources.sources.map((source) => source.health());
  const live = reports.some((report) => report.name !== sources.simulator.name && report.ok);
  return {
    prices: live ? ('live' as const) : ('simulator' as const),
    price_sources: reports.map((report) => ({ name: report.name, ok: report.ok, last_error: report.lastError })),
  };
}
