import { createPayoutRequestSchema, payoutSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount } from '../../auth/index.ts';
import type { WithdrawalDeps } from '../deps.ts';
import { createPayout } from '../service.ts';
import { idempotencyHeaders, tags, withdrawFailures } from './shared.ts';

/** POST /api/v1/wallet/payout: a mass payout, all held or none; 201 new, 200 a retry's first result. */
export function payoutRoute(app: TypedApp, context: AppContext, deps: WithdrawalDeps): void {
  app.post(
    '/api/v1/wallet/payout',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: 'A mass payout (§3.5 payout items): every item checked by the withdrawal rules, all held or none',
        security: bearerAuth,
        body: createPayoutRequestSchema,
        headers: idempotencyHeaders,
        response: { 200: payoutSchema, 201: payoutSchema, ...withdrawFailures },
      },
    },
    async (request, reply) => {
      const accountId = currentAccount(request).id;
      const result = unwrap(await createPayout(deps, accountId, request.body, request.headers['idempotency-key']));
      return reply.code(result.created ? 201 : 200).send(result.payout);
    },
  );
}
