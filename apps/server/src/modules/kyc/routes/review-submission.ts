import { kycReviewSubmissionSchema } from '@platform/contracts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { getForReview, type KycDeps } from '../service.ts';
import { idParamsSchema, type ReviewerAccess, tags } from './shared.ts';

/** GET /api/v1/compliance/kyc/{id}: a verification in full, for its reviewer. */
export function reviewSubmissionRoute(app: TypedApp, reviewers: ReviewerAccess, deps: KycDeps): void {
  app.get(
    '/api/v1/compliance/kyc/:id',
    {
      ...reviewers.hooks,
      schema: {
        tags,
        summary: 'A verification in full, with its document files (compliance or admin)',
        security: bearerAuth,
        params: idParamsSchema,
        response: { 200: kycReviewSubmissionSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => unwrap(await getForReview(deps.db, request.params.id)),
  );
}
