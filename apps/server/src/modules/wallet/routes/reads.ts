import {
  walletBalancesResponseSchema,
  walletTransactionsQuerySchema,
  walletTransactionsResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../context.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { walletBalances, walletTransactions } from '../balances.ts';
import type { WalletDeps } from '../transfers.ts';

const tags = ['wallet'];

/** Spec §7.2's wallet reads: the balances and what changed them. */
export function walletReadRoutes(scope: FastifyInstance, context: AppContext, deps: WalletDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };

  app.get(
    '/v1/wallet/balances',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Balances from the ledger, with a zero row for every wallet currency not held',
        security: bearerAuth,
        response: { 200: walletBalancesResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ balances: await walletBalances(deps.balances, currentAccount(request).id) }),
  );

  app.get(
    '/v1/wallet/transactions',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'What changed the balances (deposits, withdrawals, transfers, trades, conversions), newest first',
        security: bearerAuth,
        querystring: walletTransactionsQuerySchema,
        response: { 200: walletTransactionsResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => unwrap(await walletTransactions(deps.db, currentAccount(request).id, request.query)),
  );
}
