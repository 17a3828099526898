import { paymentIdParamsSchema, paymentSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { toPayment } from '../payments.ts';
import { type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** GET /payment/:id (§7.4): a payment of the caller. */
export function getPaymentRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.get(
    `${PROVIDER_PREFIX}/payment/:id`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'A payment of the caller, by our id or the provider’s reference',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        response: { 200: paymentSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      toPayment(
        unwrap(await service.ownPayment(currentAccount(request).id, request.params.id, ['deposit', 'payment'])),
        context.clock(),
      ),
  );
}
