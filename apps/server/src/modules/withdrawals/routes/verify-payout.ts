import { verifyPayoutRequestSchema, verifyPayoutResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { WithdrawalDeps } from '../deps.ts';
import type { PayoutProcessor } from '../processor.ts';
import { verifyPayout } from '../verify.ts';
import { tags } from './shared.ts';

/** POST /api/v1/wallet/verify-payout: the provider's verification code for a waiting payout. */
export function verifyPayoutRoute(
  app: TypedApp,
  context: AppContext,
  deps: WithdrawalDeps,
  processor: PayoutProcessor,
): void {
  app.post(
    '/api/v1/wallet/verify-payout',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: "Confirm a payout waiting for the provider's verification code",
        security: bearerAuth,
        body: verifyPayoutRequestSchema,
        response: { 200: verifyPayoutResponseSchema, ...errorResponses(400, 401, 404, 409, 502) },
      },
    },
    async (request) => unwrap(await verifyPayout(deps, processor, currentAccount(request).id, request.body)),
  );
}
