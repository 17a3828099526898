import { createWithdrawalRequestSchema, withdrawalSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import type { WithdrawalDeps } from '../deps.ts';
import { createWithdrawal } from '../service.ts';
import { idempotencyHeaders, providerTags, tags, withdrawFailures } from './shared.ts';

/** POST /api/v1/wallet/withdraw and its provider facade: 201 new, 200 a retry's first result. */
export function withdrawRoutes(app: TypedApp, context: AppContext, deps: WithdrawalDeps): void {
  const withdraw = (path: string, summary: string, routeTags: string[]) =>
    app.post(
      path,
      {
        onRequest: authenticate(context),
        schema: {
          tags: routeTags,
          summary,
          security: bearerAuth,
          body: createWithdrawalRequestSchema,
          headers: idempotencyHeaders,
          response: { 200: withdrawalSchema, 201: withdrawalSchema, ...withdrawFailures },
        },
      },
      async (request, reply) => {
        const accountId = currentAccount(request).id;
        const result = unwrap(
          await createWithdrawal(deps, accountId, request.body, request.headers['idempotency-key']),
        );
        return reply.code(result.created ? 201 : 200).send(result.withdrawal);
      },
    );

  withdraw(
    '/api/v1/wallet/withdraw',
    'Withdraw to an outside address: amount + fee held at once, sent to the payment provider right after',
    tags,
  );
  withdraw(`${PROVIDER_PREFIX}/wallet/withdraw`, 'The provider facade of POST /api/v1/wallet/withdraw', providerTags);
}
