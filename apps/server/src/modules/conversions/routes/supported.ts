import { conversionSupportedResponseSchema } from '@platform/contracts';
import { z } from 'zod';
import type { TypedApp } from '../../../http/typed-app.ts';
import type { ConversionDeps } from '../deps.ts';
import { conversionSupported } from '../reads.ts';
import { tags } from './shared.ts';

// §7.3: the support check answers false on anything unknown, never an error, so nothing is refused here.
const supportedQuerySchema = z.object({ from_currency: z.unknown().optional(), to_currency: z.unknown().optional() });

/** GET /api/v1/conversions/supported (public). */
export function supportedRoute(app: TypedApp, deps: ConversionDeps): void {
  app.get(
    '/api/v1/conversions/supported',
    {
      schema: {
        tags,
        summary: 'Whether from_currency converts to to_currency (false on anything unknown)',
        querystring: supportedQuerySchema,
        response: { 200: conversionSupportedResponseSchema },
      },
    },
    async (request) => ({
      supported: conversionSupported(deps.markets, request.query.from_currency, request.query.to_currency),
    }),
  );
}
