import { Readable } from 'node:stream';
import {
  portfolioLotsQuerySchema,
  portfolioLotsSchema,
  portfolioRealisedSchema,
  portfolioTaxYearQuerySchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { assetLots, type LotsDeps, realisedReport, taxReportCsv } from './lots-service.ts';

const tags = ['portfolio'];

/**
 * Cost basis of the signed-in account, from its own ledger history (owner only: the account is
 * the token's, no id is taken). The lot method is a query parameter; without it, the account's
 * stored preference (GET /v1/portfolio/settings, fifo until set).
 */
export function lotsRoutes(scope: FastifyInstance, context: AppContext, deps: LotsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  app.get(
    '/v1/portfolio/lots',
    {
      onRequest: signedIn.onRequest,
      schema: {
        tags,
        security: bearerAuth,
        summary: 'Your open lots of one asset under a lot method, valued at the live price, with their totals',
        querystring: portfolioLotsQuerySchema,
        response: { 200: portfolioLotsSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const accountId = currentAccount(request).id;
      return assetLots(deps, accountId, request.query.asset, request.query.method ?? (await deps.method(accountId)));
    },
  );
  app.get(
    '/v1/portfolio/realised',
    {
      onRequest: signedIn.onRequest,
      schema: {
        tags,
        security: bearerAuth,
        summary: 'Your realised gains of a tax year (calendar, UTC) under a lot method, every asset',
        querystring: portfolioTaxYearQuerySchema,
        response: { 200: portfolioRealisedSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const accountId = currentAccount(request).id;
      return realisedReport(
        deps,
        accountId,
        request.query.year,
        request.query.method ?? (await deps.method(accountId)),
      );
    },
  );
  app.get(
    '/v1/portfolio/tax-report.csv',
    {
      onRequest: signedIn.onRequest,
      schema: {
        tags,
        security: bearerAuth,
        summary:
          'Your realised gains of a tax year as CSV (Date Acquired, Date Sold, Asset, Amount, Proceeds, Cost Basis, Gain), streamed',
        // No response schema: the body is a stream of CSV text (errors as every route's).
        querystring: portfolioTaxYearQuerySchema,
      },
    },
    async (request, reply) => {
      const accountId = currentAccount(request).id;
      const year = request.query.year;
      const method = request.query.method ?? (await deps.method(accountId));
      const records = taxReportCsv(deps, accountId, year, method);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="realised-gains-${year}-${method}.csv"`)
        .send(Readable.from(records));
    },
  );
}
