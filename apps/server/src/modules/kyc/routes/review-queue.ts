import { kycReviewListQuerySchema, kycReviewListResponseSchema } from '@platform/contracts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { type KycDeps, listForReview } from '../service.ts';
import { type ReviewerAccess, tags } from './shared.ts';

/** GET /api/v1/compliance/kyc: the review queue. */
export function reviewQueueRoute(app: TypedApp, reviewers: ReviewerAccess, deps: KycDeps): void {
  app.get(
    '/api/v1/compliance/kyc',
    {
      ...reviewers.hooks,
      schema: {
        tags,
        summary: 'Review queue (compliance or admin): verifications by status, pending oldest first',
        security: bearerAuth,
        querystring: kycReviewListQuerySchema,
        response: { 200: kycReviewListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listForReview(deps, request.query),
  );
}
