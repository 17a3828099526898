import { createLightningPaymentRequestSchema, lightningPaymentSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { parseIdempotencyKey } from '../../wallet/rules.ts';
import { toLightningPayment } from '../payments.ts';
import { parseCheckoutAmount } from '../rules.ts';
import { IDEMPOTENCY_HEADERS, type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** POST /lightning/payment (§7.4): a Lightning invoice for an amount of BTC. */
export function createLightningPaymentRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.post(
    `${PROVIDER_PREFIX}/lightning/payment`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'A Lightning invoice to receive an amount of BTC; credited once paid',
        security: bearerAuth,
        body: createLightningPaymentRequestSchema,
        headers: IDEMPOTENCY_HEADERS,
        response: { 200: lightningPaymentSchema, 201: lightningPaymentSchema, ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (request, reply) => {
      const amount = unwrap(parseCheckoutAmount(request.body.amount, 'BTC', 'Lightning payment'));
      const key = unwrap(parseIdempotencyKey(request.headers['idempotency-key'], request.body.idempotency_key));
      const description = request.body.description?.trim() || `Lightning payment of ${amount} BTC`;
      const result = unwrap(await service.createLightning(currentAccount(request).id, amount, description, key));
      return reply.code(result.created ? 201 : 200).send(toLightningPayment(result.row, context.clock()));
    },
  );
}
