import { conversionPairsResponseSchema } from '@platform/contracts';
import type { TypedApp } from '../../../http/typed-app.ts';
import type { ConversionDeps } from '../deps.ts';
import { conversionPairs } from '../reads.ts';
import { tags } from './shared.ts';

/** GET /api/v1/conversions/pairs: what converts to what (public). */
export function pairsRoute(app: TypedApp, deps: ConversionDeps): void {
  app.get(
    '/api/v1/conversions/pairs',
    {
      schema: {
        tags,
        summary: 'What can be converted to what, with the route each conversion takes',
        response: { 200: conversionPairsResponseSchema },
      },
    },
    async () => conversionPairs(deps.markets),
  );
}
