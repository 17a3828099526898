import { withdrawalLimitsSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { withdrawalLimits } from '../daily-limit.ts';
import type { WithdrawalDeps } from '../deps.ts';
import { tags } from './shared.ts';

/** GET /api/v1/wallet/withdrawal-limits. */
export function limitsRoute(app: TypedApp, context: AppContext, deps: WithdrawalDeps): void {
  app.get(
    '/api/v1/wallet/withdrawal-limits',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: "The rolling 24-hour withdrawal allowance of the caller's KYC tier, in USD",
        security: bearerAuth,
        response: { 200: withdrawalLimitsSchema, ...errorResponses(401) },
      },
    },
    async (request) => withdrawalLimits(deps, currentAccount(request).id),
  );
}
