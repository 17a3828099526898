import { createPaymentRequestSchema, paymentSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { parseCurrency, parseIdempotencyKey } from '../../wallet/rules.ts';
import { toPayment } from '../payments.ts';
import { parseCheckoutAmount, parsePayCurrency } from '../rules.ts';
import { IDEMPOTENCY_HEADERS, type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** POST /payment (§7.4): a payment with a hosted checkout. */
export function createPaymentRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.post(
    `${PROVIDER_PREFIX}/payment`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'A payment with a hosted checkout; paid payments credit their creator',
        security: bearerAuth,
        body: createPaymentRequestSchema,
        headers: IDEMPOTENCY_HEADERS,
        response: { 200: paymentSchema, 201: paymentSchema, ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (request, reply) => {
      const account = currentAccount(request);
      const { body } = request;
      const currency = unwrap(parseCurrency(body.currency));
      const amount = unwrap(parseCheckoutAmount(body.amount, currency, 'payment'));
      const payCurrency = unwrap(parsePayCurrency(body.crypto_currency, currency));
      const key = unwrap(parseIdempotencyKey(request.headers['idempotency-key'], body.idempotency_key));
      const description = body.description.trim() || `Payment of ${amount} ${currency}`;
      const result = unwrap(
        await service.createCheckoutPayment(account.id, {
          kind: 'payment',
          description,
          orderCurrency: currency,
          orderAmount: amount,
          payCurrency,
          successUrl: body.success_url ?? service.webUrl('/wallet?tab=payment'),
          cancelUrl: body.cancel_url ?? service.webUrl('/wallet?tab=payment&cancelled=true'),
          payerEmail: body.payer_email,
          payerName: body.payer_name,
          idempotencyKey: key,
        }),
      );
      return reply.code(result.created ? 201 : 200).send(toPayment(result.row, context.clock()));
    },
  );
}
