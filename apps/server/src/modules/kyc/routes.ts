import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { documentRoute } from './routes/document.ts';
import { reviewRoute } from './routes/review.ts';
import { reviewQueueRoute } from './routes/review-queue.ts';
import { reviewSubmissionRoute } from './routes/review-submission.ts';
import { reviewerAccess } from './routes/shared.ts';
import { statusRoute } from './routes/status.ts';
import { submissionRoute } from './routes/submission.ts';
import { submitRoute } from './routes/submit.ts';
import type { KycDeps } from './service.ts';

export { KYC_SUBMIT_IP_LIMIT } from './routes/submit.ts';

/** KYC submission and reading (§7.4, on the payment-provider path) and the compliance review calls, one file each. */
export function kycRoutes(scope: FastifyInstance, context: AppContext, deps: KycDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  submitRoute(app, context, deps);
  submissionRoute(app, context, deps);
  statusRoute(app, context, deps);
  const reviewers = reviewerAccess(context, deps);
  reviewQueueRoute(app, reviewers, deps);
  reviewSubmissionRoute(app, reviewers, deps);
  documentRoute(app, reviewers, deps);
  reviewRoute(app, reviewers, deps);
}
