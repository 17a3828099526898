import {
  KYC_DOCUMENT_SLOTS,
  kycReviewListQuerySchema,
  kycReviewListResponseSchema,
  kycReviewRequestSchema,
  kycReviewSubmissionSchema,
  kycStatusResponseSchema,
  kycSubmissionSchema,
  kycSubmitResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses, ipRateLimit } from '../auth/index.ts';
import { PROVIDER_PREFIX } from '../provider/routes.ts';
import {
  assertCanSubmit,
  getDocument,
  getForReview,
  getSubmission,
  isReviewerRole,
  type KycDeps,
  kycStatus,
  listForReview,
  recordSubmission,
  reviewSubmission,
  roleOf,
} from './service.ts';
import { KYC_MAX_REQUEST_BYTES, receiveUpload } from './uploads.ts';

const tags = ['kyc'];
const HOUR_MS = 60 * 60_000;
/**
 * Submissions per IP per hour: a person needs one or two (a resubmission after a rejection); each
 * one may carry 30 MiB of files to store.
 */
export const KYC_SUBMIT_IP_LIMIT = { max: 20, timeWindow: HOUR_MS };

// Ids are opaque to callers: a malformed one is simply not found (404), like someone else's.
const idParamsSchema = z.object({ id: z.string().max(64) });
const documentParamsSchema = z.object({ id: z.string().max(64), slot: z.enum(KYC_DOCUMENT_SLOTS) });

/** File extension of a served document, from its sniffed content type. */
const EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg' } as const;

/** KYC submission and reading (§7.4, on the payment-provider path) and the compliance review calls. */
export function kycRoutes(scope: FastifyInstance, context: AppContext, deps: KycDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };

  /** Who may review: compliance and admin roles, as stored now (403 for everyone else). */
  const reviewerRoles = new WeakMap<FastifyRequest, 'compliance' | 'admin'>();
  const requireReviewer: preValidationAsyncHookHandler = async (request) => {
    const role = await roleOf(deps.db, currentAccount(request).id);
    if (!role || !isReviewerRole(role)) throw new AppError('FORBIDDEN');
    reviewerRoles.set(request, role);
  };
  const reviewerOnly = { onRequest: authenticate(context), preValidation: requireReviewer };

  app.post(
    `${PROVIDER_PREFIX}/kyc/submit`,
    {
      ...signedIn,
      config: ipRateLimit(context.config, KYC_SUBMIT_IP_LIMIT),
      schema: {
        tags,
        summary: 'Submit identity verification: multipart/form-data with the §3.4 fields and PNG/JPG files',
        description:
          'Text fields firstName, lastName, email, phone, dateOfBirth (YYYY-MM-DD, 18 or older), country (2 letters), ' +
          'address, city, postalCode, documentType (passport | drivers_license | national_id; "driver\'s license" and ' +
          '"national ID" are accepted), documentNumber. Files documentFront (required), documentBack (required unless ' +
          'passport), selfie (optional): PNG or JPG by content, 10 MB each at most.',
        security: bearerAuth,
        consumes: ['multipart/form-data'],
        response: { 201: kycSubmitResponseSchema, ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const accountId = currentAccount(request).id;
      if (!request.isMultipart()) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', { message: 'Send the verification as multipart/form-data' });
      }
      const declaredBytes = Number(request.headers['content-length'] ?? 0);
      if (declaredBytes > KYC_MAX_REQUEST_BYTES) throw new AppError('FILE_TOO_LARGE');
      await assertCanSubmit(deps.db, accountId);
      const upload = await receiveUpload(request, deps.store);
      return reply.code(201).send(await recordSubmission(deps, accountId, upload));
    },
  );

  app.get(
    `${PROVIDER_PREFIX}/kyc/:id`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: "A verification: its owner's (document number masked) or, for a reviewer, anyone's",
        security: bearerAuth,
        params: idParamsSchema,
        response: { 200: kycSubmissionSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => getSubmission(deps, currentAccount(request).id, request.params.id),
  );

  app.get(
    '/api/v1/kyc/status',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The account tier, its latest verification and the daily withdrawal limit that follows',
        security: bearerAuth,
        response: { 200: kycStatusResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => kycStatus(deps, currentAccount(request).id),
  );

  app.get(
    '/api/v1/compliance/kyc',
    {
      ...reviewerOnly,
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

  app.get(
    '/api/v1/compliance/kyc/:id',
    {
      ...reviewerOnly,
      schema: {
        tags,
        summary: 'A verification in full, with its document files (compliance or admin)',
        security: bearerAuth,
        params: idParamsSchema,
        response: { 200: kycReviewSubmissionSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => getForReview(deps.db, request.params.id),
  );

  app.get(
    '/api/v1/compliance/kyc/:id/documents/:slot',
    {
      ...reviewerOnly,
      schema: {
        tags,
        summary: 'Download one document (compliance or admin): PNG or JPEG as an attachment, never rendered inline',
        security: bearerAuth,
        params: documentParamsSchema,
        response: { 200: z.unknown().describe('The PNG or JPEG bytes'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id, slot } = request.params;
      const { document, object } = await getDocument(deps, id, slot);
      // Only the sniffed image types are ever stored; the headers keep a browser from treating the
      // bytes as anything else, from rendering them in the app's origin, or from caching them.
      return reply
        .header('Content-Type', document.content_type)
        .header('Content-Length', String(object.sizeBytes))
        .header('Content-Disposition', `attachment; filename="${slot}-${id}.${EXTENSIONS[document.content_type]}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'no-store')
        .send(object.stream);
    },
  );

  app.post(
    '/api/v1/compliance/kyc/:id/review',
    {
      ...reviewerOnly,
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
      const role = reviewerRoles.get(request);
      if (!role) throw new AppError('FORBIDDEN');
      return reviewSubmission(deps, { id: currentAccount(request).id, role }, request.params.id, request.body);
    },
  );
}
