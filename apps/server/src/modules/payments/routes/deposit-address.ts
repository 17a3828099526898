import { depositAddressParamsSchema, depositAddressQuerySchema, depositAddressSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { DepositAddresses } from '../deposit-addresses.ts';
import { type PaymentRoutesEnv, WALLET_TAGS } from './route-env.ts';

/** GET /api/v1/wallet/deposit-address/:currency (and the path without /api/v1): the account's address. */
export function depositAddressRoute(scope: FastifyInstance, env: PaymentRoutesEnv, addresses: DepositAddresses): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const addressRoute = {
    ...env.signedIn,
    schema: {
      tags: WALLET_TAGS,
      summary: "The account's deposit address for a currency (and network), with its memo where the network needs one",
      security: bearerAuth,
      params: depositAddressParamsSchema,
      querystring: depositAddressQuerySchema,
      response: { 200: depositAddressSchema, ...errorResponses(400, 401, 502) },
    },
  };
  for (const path of ['/api/v1/wallet/deposit-address/:currency', '/wallet/deposit-address/:currency']) {
    app.get(path, addressRoute, async (request) =>
      unwrap(await addresses.addressFor(currentAccount(request).id, request.params.currency, request.query.network)),
    );
  }
}
