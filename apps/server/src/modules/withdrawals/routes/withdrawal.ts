import { withdrawalSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import type { WithdrawalDeps } from '../deps.ts';
import { getWithdrawal } from '../reads.ts';
import { idParamsSchema, providerTags, tags } from './shared.ts';

/** GET one withdrawal of the caller: its payout status, and the provider facade's view of it. */
export function singleWithdrawalRoutes(app: TypedApp, context: AppContext, deps: WithdrawalDeps): void {
  const oneWithdrawal = (path: string, summary: string, routeTags: string[]) =>
    app.get(
      path,
      {
        onRequest: authenticate(context),
        schema: {
          tags: routeTags,
          summary,
          security: bearerAuth,
          params: idParamsSchema,
          response: { 200: withdrawalSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => unwrap(await getWithdrawal(deps, currentAccount(request).id, request.params.id)),
    );

  oneWithdrawal('/api/v1/wallet/payout-status/:id', 'A withdrawal of the caller, with its payout status', tags);
  oneWithdrawal(`${PROVIDER_PREFIX}/wallet/withdraw/:id`, 'The provider facade of a withdrawal', providerTags);
}
