import { kycStatusResponseSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type KycDeps, kycStatus } from '../service.ts';
import { tags } from './shared.ts';

/** GET /api/v1/kyc/status: the account's tier, latest verification and withdrawal limit. */
export function statusRoute(app: TypedApp, context: AppContext, deps: KycDeps): void {
  app.get(
    '/api/v1/kyc/status',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: 'The account tier, its latest verification and the daily withdrawal limit that follows',
        security: bearerAuth,
        response: { 200: kycStatusResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => kycStatus(deps, currentAccount(request).id),
  );
}
