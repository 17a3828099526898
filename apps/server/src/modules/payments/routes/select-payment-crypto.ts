import {
  LIGHTNING_CRYPTO_CURRENCY,
  paymentIdParamsSchema,
  selectPaymentCryptoRequestSchema,
  selectPaymentCryptoResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { invariant } from '../../../lib/invariant.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { toPayment } from '../payments.ts';
import { parseSelectedCrypto } from '../rules.ts';
import { type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** POST /payment/:id/select (§7.4): pay a payment with Lightning. */
export function selectPaymentCryptoRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.post(
    `${PROVIDER_PREFIX}/payment/:id/select`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'Pay with Lightning (LNBC): attaches a BOLT11 invoice to the payment',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        body: selectPaymentCryptoRequestSchema,
        response: { 200: selectPaymentCryptoResponseSchema, ...errorResponses(400, 401, 404, 409, 502, 503) },
      },
    },
    async (request) => {
      unwrap(parseSelectedCrypto(request.body.crypto_currency));
      const selected = unwrap(await service.selectLightning(currentAccount(request).id, request.params.id));
      const payment = toPayment(selected, context.clock());
      invariant(payment.lightning, 'selected payment has no Lightning invoice');
      return {
        id: payment.id,
        crypto_currency: LIGHTNING_CRYPTO_CURRENCY as typeof LIGHTNING_CRYPTO_CURRENCY,
        invoice: payment.lightning.invoice,
        payment_hash: payment.lightning.payment_hash,
        amount: payment.lightning.amount,
        expires_at: payment.lightning.expires_at,
        status: payment.status,
      };
    },
  );
}
