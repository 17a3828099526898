import { insuranceFundSchema } from '@platform/contracts';
import { errorResponses } from '../../auth/index.ts';
import { systemBalance } from '../../ledger/service.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

export function insuranceFundRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/futures/insurance-fund',
    {
      schema: {
        tags,
        summary: "The insurance fund's balance",
        response: { 200: insuranceFundSchema, ...errorResponses(400) },
      },
    },
    async () => {
      const balance = await systemBalance(routes.context.db, 'insurance_fund', 'USD');
      return { currency: 'USD' as const, balance: balance.available };
    },
  );
}
