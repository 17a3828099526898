import { lightningPaymentSchema, paymentIdParamsSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { toLightningPayment } from '../payments.ts';
import { type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** GET /lightning/payment/:id (§7.4): a Lightning payment of the caller. */
export function getLightningPaymentRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.get(
    `${PROVIDER_PREFIX}/lightning/payment/:id`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'A Lightning payment of the caller',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        response: { 200: lightningPaymentSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      toLightningPayment(
        unwrap(await service.ownPayment(currentAccount(request).id, request.params.id, ['lightning'])),
        context.clock(),
      ),
  );
}
