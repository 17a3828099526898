import { paymentBatchStatusRequestSchema, paymentBatchStatusResponseSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { toPayment } from '../payments.ts';
import { type PaymentRoutesEnv, PROVIDER_TAGS } from './route-env.ts';

/** POST /payment/batch/status (§7.4): several payments of the caller at once. */
export function paymentBatchStatusRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.post(
    `${PROVIDER_PREFIX}/payment/batch/status`,
    {
      ...signedIn,
      schema: {
        tags: PROVIDER_TAGS,
        summary: 'Several payments of the caller at once; references not found (or not the caller’s) are listed apart',
        security: bearerAuth,
        body: paymentBatchStatusRequestSchema,
        response: { 200: paymentBatchStatusResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { rows, notFound } = await service.ownPayments(currentAccount(request).id, request.body.payment_references);
      return { payments: rows.map((row) => toPayment(row, context.clock())), not_found: notFound };
    },
  );
}
