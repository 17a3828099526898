import { kycSubmissionSchema } from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { getSubmission, type KycDeps } from '../service.ts';
import { idParamsSchema, tags } from './shared.ts';

/** GET {provider}/kyc/{id}: the owner's verification (number masked), or anyone's for a reviewer. */
export function submissionRoute(app: TypedApp, context: AppContext, deps: KycDeps): void {
  app.get(
    `${PROVIDER_PREFIX}/kyc/:id`,
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: "A verification: its owner's (document number masked) or, for a reviewer, anyone's",
        security: bearerAuth,
        params: idParamsSchema,
        response: { 200: kycSubmissionSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => unwrap(await getSubmission(deps, currentAccount(request).id, request.params.id)),
  );
}
