import {
  candlesQuerySchema,
  candlesResponseSchema,
  marketStatisticsSchema,
  priceUpdateSchema,
  tradingPairSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendEncoded } from '../../http/encoded-body.ts';
import { unwrap } from '../../lib/errors.ts';
import { errorResponses } from '../auth/index.ts';
import type { CandleReads } from './candle-cache.ts';
import type { MarketSnapshots } from './snapshots.ts';

const tags = ['markets'];
/** Longest pair id or symbol in a path: 'USDT/USDC' and the like are under 20; longer is never a pair. */
const MAX_PAIR_LENGTH = 40;
const symbolParams = z.object({
  symbol: z.string().max(MAX_PAIR_LENGTH).describe('Pair as BTC_USD, BTC-USD or BTC/USD (url-encoded)'),
});

/**
 * Public market data: pairs, tickers, statistics and candles. All but the candles are sent from
 * bodies encoded once per change (snapshots.ts), with an ETag that a client's If-None-Match turns
 * into a 304; the response schemas stay for the OpenAPI document and are checked when a body is built.
 */
export function marketsRoutes(
  scope: FastifyInstance,
  context: AppContext,
  snapshots: MarketSnapshots,
  candleReads: CandleReads,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { clock } = context;

  app.get(
    '/v1/trading-pairs',
    {
      schema: {
        tags,
        summary: 'All trading pairs with their current price, 24 h volume and change',
        response: { 200: z.array(tradingPairSchema) },
      },
    },
    async (request, reply) => sendEncoded(request, reply, snapshots.tradingPairs()),
  );

  app.get(
    '/v1/trading-pairs/:id',
    {
      schema: {
        tags,
        summary: 'One trading pair',
        params: z.object({ id: z.string().max(MAX_PAIR_LENGTH) }),
        response: { 200: tradingPairSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => sendEncoded(request, reply, unwrap(snapshots.tradingPair(request.params.id))),
  );

  app.get(
    '/v1/ticker/:symbol',
    {
      schema: {
        tags,
        summary: 'Latest price and 24 h figures of a pair',
        params: symbolParams,
        response: { 200: priceUpdateSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => sendEncoded(request, reply, unwrap(snapshots.ticker(request.params.symbol))),
  );

  app.get(
    '/v1/market/:symbol/statistics',
    {
      schema: {
        tags,
        summary: '24 h statistics of a pair',
        params: symbolParams,
        response: { 200: marketStatisticsSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => sendEncoded(request, reply, unwrap(snapshots.statistics(request.params.symbol))),
  );

  app.get(
    '/v1/market/:symbol/candles',
    {
      schema: {
        tags,
        summary: 'Candles of a pair: a chart range, or an interval with from/to (unix ms)',
        params: symbolParams,
        querystring: candlesQuerySchema,
        response: { 200: candlesResponseSchema, ...errorResponses(400, 404) },
      },
    },
    // Pre-encoded (the schema above documents it): one body per change for every poller, 304 when unchanged.
    async (request, reply) => {
      const body = unwrap(await candleReads.read(request.params.symbol, request.query, clock().getTime()));
      return sendEncoded(request, reply, body);
    },
  );
}
