import { kycSubmitResponseSchema } from '@platform/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { fail, ok, type Result, unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses, ipRateLimit } from '../../auth/index.ts';
import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { canSubmit, type KycDeps, recordSubmission } from '../service.ts';
import { KYC_MAX_REQUEST_BYTES, receiveUpload } from '../uploads.ts';
import { tags } from './shared.ts';

const HOUR_MS = 60 * 60_000;
/**
 * Submissions per IP per hour: a person needs one or two (a resubmission after a rejection); each
 * one may carry 30 MiB of files to store.
 */
export const KYC_SUBMIT_IP_LIMIT = { max: 20, timeWindow: HOUR_MS };

/** What can be judged from the headers alone, before a byte of the body is read. */
function checkRequestHeaders(request: FastifyRequest): Result<void> {
  if (!request.isMultipart()) {
    return fail('UNSUPPORTED_MEDIA_TYPE', { message: 'Send the verification as multipart/form-data' });
  }
  const declaredBytes = Number(request.headers['content-length'] ?? 0);
  if (declaredBytes > KYC_MAX_REQUEST_BYTES) return fail('FILE_TOO_LARGE');
  return ok(undefined);
}

/** POST {provider}/kyc/submit (§7.4): a verification with its documents, as multipart/form-data. */
export function submitRoute(app: TypedApp, context: AppContext, deps: KycDeps): void {
  app.post(
    `${PROVIDER_PREFIX}/kyc/submit`,
    {
      onRequest: authenticate(context),
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
      unwrap(checkRequestHeaders(request));
      unwrap(await canSubmit(deps.db, accountId));
      const upload = unwrap(await receiveUpload(request, deps.store));
      return reply.code(201).send(unwrap(await recordSubmission(deps, accountId, upload)));
    },
  );
}
