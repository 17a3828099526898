import { providerBalanceSchema, providerBalancesResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import type { WithdrawalDeps } from '../deps.ts';
import { providerBalanceOf, providerBalances } from '../reads.ts';
import { currencyParamsSchema, providerTags } from './shared.ts';

/** §7.4's provider wallet facade: the caller's balances, all or one currency's, in the provider's shape. */
export function providerBalanceRoutes(app: TypedApp, context: AppContext, deps: WithdrawalDeps): void {
  app.get(
    `${PROVIDER_PREFIX}/wallet/balances`,
    {
      onRequest: authenticate(context),
      schema: {
        tags: providerTags,
        summary: "The caller's balances in the provider's shape (pending = held for orders, transfers, withdrawals)",
        security: bearerAuth,
        response: { 200: providerBalancesResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => providerBalances(deps, currentAccount(request).id),
  );

  app.get(
    `${PROVIDER_PREFIX}/wallet/balance/:currency`,
    {
      onRequest: authenticate(context),
      schema: {
        tags: providerTags,
        summary: "The caller's balance of one currency in the provider's shape",
        security: bearerAuth,
        params: currencyParamsSchema,
        response: { 200: providerBalanceSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => unwrap(await providerBalanceOf(deps, currentAccount(request).id, request.params.currency)),
  );
}
