import { portfolioSettingsSchema, portfolioSettingsUpdateSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { readSettings, writeSettings } from './settings.ts';

const tags = ['portfolio'];

/** The signed-in account's portfolio settings (the token's account; no id is taken). */
export function settingsRoutes(scope: FastifyInstance, context: AppContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const onRequest = authenticate(context);
  app.get(
    '/v1/portfolio/settings',
    {
      onRequest,
      schema: {
        tags,
        security: bearerAuth,
        summary: 'Your portfolio settings: the lot method of your cost basis (fifo until you choose)',
        response: { 200: portfolioSettingsSchema, ...errorResponses(401) },
      },
    },
    async (request) => readSettings(context.db, currentAccount(request).id),
  );
  app.put(
    '/v1/portfolio/settings',
    {
      onRequest,
      schema: {
        tags,
        security: bearerAuth,
        summary:
          'Choose the lot method (fifo, lifo or hifo) of your portfolio cost basis, lots, realised gains and tax report',
        body: portfolioSettingsUpdateSchema,
        response: { 200: portfolioSettingsSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => writeSettings(context.db, currentAccount(request).id, request.body, context.clock()),
  );
}
