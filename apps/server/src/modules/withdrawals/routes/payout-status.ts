import { payoutSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { WithdrawalDeps } from '../deps.ts';
import { getPayout } from '../reads.ts';
import { idParamsSchema, tags } from './shared.ts';

/** GET /api/v1/wallet/payout/{id}/status. */
export function payoutStatusRoute(app: TypedApp, context: AppContext, deps: WithdrawalDeps): void {
  app.get(
    '/api/v1/wallet/payout/:id/status',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: 'A payout of the caller (a mass payout, or a single withdrawal by its id) and its items',
        security: bearerAuth,
        params: idParamsSchema,
        response: { 200: payoutSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => unwrap(await getPayout(deps, currentAccount(request).id, request.params.id)),
  );
}
