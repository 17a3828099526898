import { healthResponseSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

const startedAt = Date.now();

export function healthRoutes(app: FastifyInstance, { db }: AppContext): void {
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
      };
      return reply.status(databaseOk ? 200 : 503).send(body);
    },
  );
}
