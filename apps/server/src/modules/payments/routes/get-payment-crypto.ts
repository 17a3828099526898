import { paymentCryptoSchema, paymentIdParamsSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { toPayment } from '../payments.ts';
import { type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** GET /payment/:id/crypto (§7.4): where and how much to pay in crypto. */
export function getPaymentCryptoRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.get(
    `${PROVIDER_PREFIX}/payment/:id/crypto`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'Where and how much to pay in crypto',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        response: { 200: paymentCryptoSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const payment = toPayment(
        unwrap(await service.ownPayment(currentAccount(request).id, request.params.id, ['deposit', 'payment'])),
        context.clock(),
      );
      return {
        id: payment.id,
        crypto_currency: payment.crypto_currency,
        crypto_address: payment.crypto_address,
        crypto_amount: payment.crypto_amount,
        exchange_rate: payment.exchange_rate,
        expiresAt: payment.expiresAt,
        status: payment.status,
      };
    },
  );
}
