import { checkoutDepositSchema, createDepositRequestSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { parseCurrency, parseIdempotencyKey } from '../../wallet/rules.ts';
import { cardSupportFor } from '../card.ts';
import { toCheckoutDeposit } from '../payments.ts';
import { parseCheckoutAmount } from '../rules.ts';
import { IDEMPOTENCY_HEADERS, type PaymentRoutesEnv, WALLET_TAGS } from './route-env.ts';

/** POST /api/v1/wallet/deposit: a checkout deposit (§7.3). */
export function createDepositRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.post(
    '/api/v1/wallet/deposit',
    {
      ...signedIn,
      schema: {
        tags: WALLET_TAGS,
        summary: 'A deposit through the payment provider’s hosted checkout; credited once paid and confirmed',
        security: bearerAuth,
        body: createDepositRequestSchema,
        headers: IDEMPOTENCY_HEADERS,
        response: { 200: checkoutDepositSchema, 201: checkoutDepositSchema, ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (request, reply) => {
      const account = currentAccount(request);
      const currency = unwrap(parseCurrency(request.body.currency));
      const amount = unwrap(parseCheckoutAmount(request.body.amount, currency));
      const key = unwrap(parseIdempotencyKey(request.headers['idempotency-key'], request.body.idempotency_key));
      const byCard = request.body.payment_method === 'card';
      if (byCard) unwrap(cardSupportFor(service.provider(), currency));
      const result = unwrap(
        await service.createCheckoutPayment(account.id, {
          kind: 'deposit',
          description: byCard ? `Buy ${amount} ${currency} with a card` : `Deposit of ${amount} ${currency}`,
          orderCurrency: currency,
          orderAmount: amount,
          payCurrency: currency === 'USD' || byCard ? null : currency,
          payMethod: byCard ? 'card' : 'crypto',
          successUrl: service.webUrl('/wallet?action=deposit'),
          cancelUrl: service.webUrl('/wallet?action=deposit&cancelled=true'),
          idempotencyKey: key,
        }),
      );
      return reply.code(result.created ? 201 : 200).send(toCheckoutDeposit(result.row, context.clock()));
    },
  );
}
