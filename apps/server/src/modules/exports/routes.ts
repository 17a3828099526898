import { Readable } from 'node:stream';
import { EXPORT_CSV_COLUMNS, EXPORT_KINDS, exportQuerySchema } from '@platform/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { exportPeriod } from './period.ts';
import { type ExportDeps, exportCsv } from './service.ts';

const tags = ['exports'];

const WHAT = {
  trades: 'spot and futures fills',
  transfers: 'transfers between your spot and futures wallets and to and from other users',
  deposits: 'deposits (to your addresses and through the payment provider)',
  withdrawals: 'withdrawals',
} as const;

/**
 * GET /v1/exports/{kind}.csv: the signed-in account's history as CSV (owner only: the account is
 * the token's, no id is taken), streamed in keyset pages, oldest first.
 */
export function exportRoutes(scope: FastifyInstance, context: AppContext, deps: ExportDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  for (const kind of EXPORT_KINDS) {
    app.get(
      `/v1/exports/${kind}.csv`,
      {
        onRequest: authenticate(context),
        schema: {
          tags,
          security: bearerAuth,
          summary: `Your ${WHAT[kind]} as CSV (${EXPORT_CSV_COLUMNS[kind].join(', ')}), streamed, oldest first`,
          querystring: exportQuerySchema,
          response: {
            200: {
              description: `CSV (RFC 4180, UTF-8, CRLF), header first; sent as an attachment named meridian-${kind}-{from|start}-to-{to|today}.csv`,
              content: { 'text/csv': { schema: z.string() } },
            },
            ...errorResponses(400, 401),
          },
        },
      },
      async (request, reply) => {
        const period = exportPeriod(kind, request.query, context.clock());
        const chunks = exportCsv(deps, kind, currentAccount(request).id, period.window);
        // The schema documents the body as text; what is sent is that text as a stream, which the
        // typed reply (string) does not model.
        return (reply as unknown as FastifyReply)
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${period.filename}"`)
          .header('Cache-Control', 'no-store')
          .send(Readable.from(chunks));
      },
    );
  }
}
