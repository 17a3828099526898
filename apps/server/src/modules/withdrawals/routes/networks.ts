import { withdrawalNetworksOf, withdrawalNetworksResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, errorResponses } from '../../auth/index.ts';
import { parseCurrency } from '../../wallet/rules.ts';
import { currencyParamsSchema, tags } from './shared.ts';

/** GET /api/v1/wallet/withdrawal-networks/{currency}. */
export function networksRoute(app: TypedApp, context: AppContext): void {
  app.get(
    '/api/v1/wallet/withdrawal-networks/:currency',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: 'The networks a currency can be withdrawn on, each with its fee, minimum and address format',
        security: bearerAuth,
        params: currencyParamsSchema,
        response: { 200: withdrawalNetworksResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const currency = unwrap(parseCurrency(request.params.currency));
      return { currency, networks: withdrawalNetworksOf(currency) };
    },
  );
}
