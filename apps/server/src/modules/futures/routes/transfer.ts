import { futuresTransferRequestSchema, futuresTransferSchema } from '@platform/contracts';
import { AppError, unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { moneyText, parseUnits } from '../units.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

/** Most USD one transfer moves (10^9 USD), in money units. */
const MAX_AMOUNT = 10n ** 17n;

export function transferRoute(routes: FuturesRouteContext): void {
  routes.app.post(
    '/v1/futures/transfers',
    {
      ...routes.signedIn,
      schema: {
        tags,
        summary: 'Move USD between your spot and futures wallets (to spot: only what is transferable)',
        security: bearerAuth,
        body: futuresTransferRequestSchema,
        response: { 200: futuresTransferSchema, 201: futuresTransferSchema, ...errorResponses(400, 401, 409, 422) },
      },
    },
    async (request, reply) => {
      const amount = parseUnits(request.body.amount, 8, MAX_AMOUNT);
      if (amount === null)
        throw new AppError('VALIDATION_ERROR', { message: 'Amount must be positive with at most 8 decimals' });
      const done = unwrap(
        await routes.exchange.accounts.transfer({
          accountId: currentAccount(request).id,
          direction: request.body.direction,
          amount,
          clientTransferId: request.body.client_transfer_id ?? null,
        }),
      );
      return reply.status(done.repeated ? 200 : 201).send({
        id: done.id,
        direction: done.direction,
        currency: 'USD',
        amount: moneyText(done.amount),
        created_at: done.createdAt.toISOString(),
      });
    },
  );
}
