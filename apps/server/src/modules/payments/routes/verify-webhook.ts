import { webhookVerifyRequestSchema, webhookVerifyResponseSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { verifyWebhookSignature } from '../webhooks.ts';
import { type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** POST /webhook/verify (§7.4): would the configured provider accept this signed payload? */
export function verifyWebhookRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.post(
    `${PROVIDER_PREFIX}/webhook/verify`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'Would the configured provider accept this webhook payload with this signature (and timestamp)?',
        security: bearerAuth,
        body: webhookVerifyRequestSchema,
        response: { 200: webhookVerifyResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ valid: verifyWebhookSignature(context, service, request.body) }),
  );
}
