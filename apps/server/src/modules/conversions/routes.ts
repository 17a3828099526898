import {
  conversionEstimateQuerySchema,
  conversionHistoryQuerySchema,
  conversionHistoryResponseSchema,
  conversionPairsResponseSchema,
  conversionQuoteSchema,
  conversionSchema,
  conversionSupportedResponseSchema,
  createConversionRequestSchema,
  executeQuickTradeRequestSchema,
  executeQuickTradeResponseSchema,
  QUICK_TRADE_EXECUTED_MESSAGE,
  quickTradeHistoryQuerySchema,
  quickTradeHistoryResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import {
  type ConversionDeps,
  conversionHistory,
  conversionPairs,
  conversionSupported,
  createConversion,
  estimateConversion,
  executeQuickTrade,
  getConversion,
  toConversion,
  toQuickTrade,
} from './service.ts';

const tags = ['conversions'];
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().max(64).optional() });
// Anything goes in: an id that is not the caller's, malformed or not, is 'Conversion not found'.
const conversionIdParamsSchema = z.object({ id: z.string().max(100) });
// §7.3: the support check answers false on anything unknown, never an error, so nothing is refused here.
const supportedQuerySchema = z.object({ from_currency: z.unknown().optional(), to_currency: z.unknown().optional() });

/** Spec §7.3's conversion and quick-trade calls. */
export function conversionRoutes(scope: FastifyInstance, context: AppContext, deps: ConversionDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };

  app.get(
    '/api/v1/conversions/estimate',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A quote at the reference price for converting from_amount: stored, executable once before it expires',
        security: bearerAuth,
        querystring: conversionEstimateQuerySchema,
        response: { 200: conversionQuoteSchema, ...errorResponses(400, 401, 422, 503) },
      },
    },
    async (request) => estimateConversion(deps, currentAccount(request).id, request.query),
  );

  app.get(
    '/api/v1/conversions/pairs',
    {
      schema: {
        tags,
        summary: 'What can be converted to what, with the route each conversion takes',
        response: { 200: conversionPairsResponseSchema },
      },
    },
    async () => conversionPairs(deps.markets),
  );

  app.get(
    '/api/v1/conversions/supported',
    {
      schema: {
        tags,
        summary: 'Whether from_currency converts to to_currency (false on anything unknown)',
        querystring: supportedQuerySchema,
        response: { 200: conversionSupportedResponseSchema },
      },
    },
    async (request) => ({
      supported: conversionSupported(deps.markets, request.query.from_currency, request.query.to_currency),
    }),
  );

  app.post(
    '/api/v1/conversions',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Executes a conversion at the caller's quote (quote_id, or the latest for this from/to/amount)",
        security: bearerAuth,
        body: createConversionRequestSchema,
        headers: idempotencyHeaders,
        response: {
          200: conversionSchema,
          201: conversionSchema,
          ...errorResponses(400, 401, 404, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const result = await createConversion(
        deps,
        currentAccount(request).id,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.code(result.created ? 201 : 200).send(result.conversion);
    },
  );

  app.get(
    '/api/v1/conversions/history',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "The caller's conversions, newest first",
        security: bearerAuth,
        querystring: conversionHistoryQuerySchema,
        response: { 200: conversionHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const rows = await conversionHistory(deps, currentAccount(request).id, 'conversion', request.query.limit);
      return { conversions: rows.map(toConversion) };
    },
  );

  app.get(
    '/api/v1/conversions/:id',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "One of the caller's conversions or quick trades",
        security: bearerAuth,
        params: conversionIdParamsSchema,
        response: { 200: conversionSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => getConversion(deps, currentAccount(request).id, request.params.id),
  );

  app.post(
    '/api/v1/trade/execute',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A quick trade: converts sell_amount at the current price, refused below target_amount',
        security: bearerAuth,
        body: executeQuickTradeRequestSchema,
        headers: idempotencyHeaders,
        response: {
          200: executeQuickTradeResponseSchema,
          201: executeQuickTradeResponseSchema,
          ...errorResponses(400, 401, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const result = await executeQuickTrade(
        deps,
        currentAccount(request).id,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply
        .code(result.created ? 201 : 200)
        .send({ message: QUICK_TRADE_EXECUTED_MESSAGE, trade: result.trade });
    },
  );

  app.get(
    '/api/v1/trade/history',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "The caller's quick trades, newest first",
        security: bearerAuth,
        querystring: quickTradeHistoryQuerySchema,
        response: { 200: quickTradeHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const rows = await conversionHistory(deps, currentAccount(request).id, 'trade', request.query.limit);
      return { trades: rows.map(toQuickTrade) };
    },
  );
}
