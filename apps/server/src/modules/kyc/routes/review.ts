import { kycReviewRequestSchema, kycReviewSubmissionSchema } from '@platform/contracts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { type KycDeps, reviewSubmission } from '../service.ts';
import { idParamsSchema, type ReviewerAccess, tags } from './shared.ts';

/** POST /api/v1/compliance/kyc/{id}/review: approve or reject a pending verification once. */
export function reviewRoute(app: TypedApp, reviewers: ReviewerAccess, deps: KycDeps): void {
  app.post(
    '/api/v1/compliance/kyc/:id/review',
    {
      ...reviewers.hooks,
      schema: {
        tags,
        summary: 'Approve or reject a pending verification (compliance or admin); approval verifies the account',
        security: bearerAuth,
        params: idParamsSchema,
        body: kycReviewRequestSchema,
        response: { 200: kycReviewSubmissionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const role = unwrap(reviewers.roleOfRequest(request));
      return unwrap(
        await reviewSubmission(deps, { id: currentAccount(request).id, role }, request.params.id, request.body),
      );
    },
  );
}
