import { withdrawalListQuerySchema, withdrawalListResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { WithdrawalDeps } from '../deps.ts';
import { listWithdrawals } from '../reads.ts';
import { tags } from './shared.ts';

/** The caller's withdrawals, newest first: §7.3's history and §7.2's paged payout list. */
export function historyRoutes(app: TypedApp, context: AppContext, deps: WithdrawalDeps): void {
  const list = (path: string, summary: string) =>
    app.get(
      path,
      {
        onRequest: authenticate(context),
        schema: {
          tags,
          summary,
          security: bearerAuth,
          querystring: withdrawalListQuerySchema,
          response: { 200: withdrawalListResponseSchema, ...errorResponses(400, 401) },
        },
      },
      async (request) => listWithdrawals(deps, currentAccount(request).id, request.query.limit, request.query.page),
    );

  list('/api/v1/wallet/payouts/history', 'Withdrawals and payout items of the caller, newest first');
  list('/v1/wallet/payouts', 'Withdrawals and payout items of the caller, newest first, with paging');
}
