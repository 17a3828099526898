import { z } from 'zod';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { getDocument, type KycDeps } from '../service.ts';
import { documentParamsSchema, type ReviewerAccess, tags } from './shared.ts';

/** File extension of a served document, from its sniffed content type. */
const EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg' } as const;

/** GET /api/v1/compliance/kyc/{id}/documents/{slot}: one document's bytes, for its reviewer. */
export function documentRoute(app: TypedApp, reviewers: ReviewerAccess, deps: KycDeps): void {
  app.get(
    '/api/v1/compliance/kyc/:id/documents/:slot',
    {
      ...reviewers.hooks,
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
      const { document, object } = unwrap(await getDocument(deps, id, slot));
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
}
