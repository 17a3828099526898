import { checkoutDepositSchema, depositIdParamsSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { toCheckoutDeposit } from '../payments.ts';
import { type PaymentRoutesEnv, WALLET_TAGS } from './route-env.ts';

/** GET /api/v1/wallet/deposit/:id: a checkout deposit of the caller. */
export function getDepositRoute(scope: FastifyInstance, env: PaymentRoutesEnv): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { context, service, signedIn } = env;
  app.get(
    '/api/v1/wallet/deposit/:id',
    {
      ...signedIn,
      schema: {
        tags: WALLET_TAGS,
        summary: 'A checkout deposit of the caller',
        security: bearerAuth,
        params: depositIdParamsSchema,
        response: { 200: checkoutDepositSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      toCheckoutDeposit(
        unwrap(await service.ownPayment(currentAccount(request).id, request.params.id, ['deposit'])),
        context.clock(),
      ),
  );
}
