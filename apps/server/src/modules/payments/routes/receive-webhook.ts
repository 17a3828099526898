import { webhookAckSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import type { PaymentsService } from '../payments.ts';
import { receiveWebhook } from '../webhooks.ts';
import { PROVIDER_TAGS } from './route-env.ts';

/** Longer than any provider's name; a longer path segment is refused before it is looked up. */
const PROVIDER_NAME_MAX_LENGTH = 40;

/**
 * POST /v1/webhooks/{provider}: no sign-in (the signature is the proof). In a scope of its own
 * whose JSON parser keeps the body as received text, because the signatures cover the raw bytes.
 */
export async function receiveWebhookRoute(
  scope: FastifyInstance,
  context: AppContext,
  service: PaymentsService,
): Promise<void> {
  await scope.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const app = raw.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/v1/webhooks/:provider',
      {
        schema: {
          tags: PROVIDER_TAGS,
          summary: 'Webhook receiver: signed provider events (payments, Lightning, payouts)',
          params: z.object({ provider: z.string().max(PROVIDER_NAME_MAX_LENGTH) }),
          response: { 200: webhookAckSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) =>
        unwrap(
          await receiveWebhook(context, service, {
            provider: request.params.provider,
            headers: request.headers,
            rawBody: typeof request.body === 'string' ? request.body : '',
            sourceIp: request.ip,
          }),
        ),
    );
  });
}
