import {
  accountBalanceSchema,
  accountIdParamsSchema,
  accountTradeListSchema,
  accountTradeSchema,
  marketTradesQuerySchema,
  modifyOrderRequestSchema,
  orderBookQuerySchema,
  orderBookSchema,
  orderBookStatsSchema,
  orderIdParamsSchema,
  orderListSchema,
  orderSchema,
  orderStatisticsSchema,
  ordersQuerySchema,
  type PlaceOrderRequest,
  placeOrderRequestSchema,
  tradeSchema,
  tradesQuerySchema,
  tradingStatisticsSchema,
} from '@platform/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses, requireAccountOwner } from '../auth/index.ts';
import { PROVIDER_PREFIX } from '../provider/routes.ts';
import {
  accountBalances,
  cancelOrder,
  getOrder,
  getTrade,
  listAccountTrades,
  listOrders,
  marketTrades,
  modifyOrder,
  orderBook,
  orderBookStats,
  orderStatistics,
  placeOrder,
  type TradingDeps,
  tradingStatistics,
} from './service.ts';

const tags = ['trading'];
const symbolParamsSchema = z.object({ symbol: z.string().min(1).max(32) });
const tradeIdParamsSchema = z.object({ id: z.string().min(1).max(80) });

/** Spec §7.2's trading calls and §7.4's payment-provider /trade/* facade over the same engine. */
export function tradingRoutes(scope: FastifyInstance, context: AppContext, deps: TradingDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  const owner = { onRequest: authenticate(context), preValidation: requireAccountOwner };

  // One placement, served at both paths: the main API's and the payment-provider facade's (§7.4).
  const placeSchema = {
    body: placeOrderRequestSchema,
    response: { 200: orderSchema, 201: orderSchema, ...errorResponses(400, 401, 404, 409, 422, 503) },
    security: bearerAuth,
  };
  const place = async (request: FastifyRequest, body: PlaceOrderRequest, reply: FastifyReply) => {
    const result = await placeOrder(deps, currentAccount(request).id, body);
    return reply.code(result.created ? 201 : 200).send(result.order);
  };

  app.post(
    '/v1/orders',
    {
      ...signedIn,
      schema: {
        ...placeSchema,
        tags,
        summary: 'Place an order (market, limit, stop_loss, stop_limit, take_profit, take_profit_limit, oco)',
        description:
          'Funds are held first (Insufficient balance otherwise); the answer comes once the engine result is durable. ' +
          'A repeated client_order_id returns the first order with status 200.',
      },
    },
    (request, reply) => place(request, request.body, reply),
  );

  app.get(
    '/v1/orders/:id',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'One of your orders',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => getOrder(deps, currentAccount(request).id, request.params.id),
  );

  app.post(
    '/v1/orders/:id/cancel',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Cancel an open order; its held funds are released',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request) => cancelOrder(deps, currentAccount(request).id, request.params.id),
  );

  app.put(
    '/v1/orders/:id/modify',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Change an open order: lowering only the quantity keeps its place in the queue',
        security: bearerAuth,
        params: orderIdParamsSchema,
        body: modifyOrderRequestSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409, 422, 503) },
      },
    },
    async (request) => modifyOrder(deps, currentAccount(request).id, request.params.id, request.body),
  );

  app.get(
    '/v1/accounts/:id/orders',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Your orders, newest first, with filters and paging',
        security: bearerAuth,
        params: accountIdParamsSchema,
        querystring: ordersQuerySchema,
        response: { 200: orderListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listOrders(deps, request.params.id, request.query),
  );

  app.get(
    '/v1/accounts/:id/orders/statistics',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Counts of your orders by status, side and type',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: orderStatisticsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => orderStatistics(deps, request.params.id),
  );

  const bookSchema = {
    tags,
    params: symbolParamsSchema,
    querystring: orderBookQuerySchema,
    response: { 200: orderBookSchema, ...errorResponses(400, 404) },
  };
  app.get(
    '/v1/orderbook/:symbol',
    { schema: { ...bookSchema, summary: 'The order book (aggregated levels)' } },
    async (request) => orderBook(deps, request.params.symbol, request.query.depth),
  );
  app.get(
    '/v1/orderbook/:symbol/depth',
    { schema: { ...bookSchema, summary: 'Order book depth: price levels with their total quantity' } },
    async (request) => orderBook(deps, request.params.symbol, request.query.depth),
  );
  app.get(
    '/v1/orderbook/:symbol/stats',
    {
      schema: {
        tags,
        summary: 'Best bid and ask, spread, levels and totals of the whole book',
        params: symbolParamsSchema,
        response: { 200: orderBookStatsSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => orderBookStats(deps, request.params.symbol),
  );

  app.get(
    '/v1/trades/:id',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'One of your trades',
        security: bearerAuth,
        params: tradeIdParamsSchema,
        response: { 200: accountTradeSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => getTrade(deps, currentAccount(request).id, request.params.id),
  );

  for (const path of ['/v1/accounts/:id/trades', '/v1/accounts/:id/trades/history']) {
    app.get(
      path,
      {
        ...owner,
        schema: {
          tags,
          summary: 'Your trades, newest first, with filters and paging',
          security: bearerAuth,
          params: accountIdParamsSchema,
          querystring: tradesQuerySchema,
          response: { 200: accountTradeListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => listAccountTrades(deps, request.params.id, request.query),
    );
  }

  app.get(
    '/v1/market/:symbol/trades',
    {
      schema: {
        tags,
        summary: 'Recent trades of a market, newest first',
        params: symbolParamsSchema,
        querystring: marketTradesQuerySchema,
        response: { 200: z.array(tradeSchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => marketTrades(deps, request.params.symbol, request.query.limit),
  );

  app.get(
    '/v1/accounts/:id/trading/statistics',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Your trading totals: counts, volume and fees',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: tradingStatisticsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => tradingStatistics(deps, request.params.id),
  );

  app.get(
    '/v1/accounts/:id/balance',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Balances from the ledger: available, locked (held by open orders) and total',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: accountBalanceSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => accountBalances(deps, request.params.id),
  );

  // Spec §7.4: the payment provider's trade calls, served by the same engine.
  const providerTags = ['payment-provider'];
  app.post(
    `${PROVIDER_PREFIX}/trade/order`,
    {
      ...signedIn,
      schema: {
        ...placeSchema,
        tags: providerTags,
        summary: 'Place an order (same body and rules as POST /v1/orders)',
      },
    },
    (request, reply) => place(request, request.body, reply),
  );
  app.get(
    `${PROVIDER_PREFIX}/trade/order/:id`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: 'One of your orders',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => getOrder(deps, currentAccount(request).id, request.params.id),
  );
  app.delete(
    `${PROVIDER_PREFIX}/trade/order/:id/cancel`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: 'Cancel an open order',
        security: bearerAuth,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request) => cancelOrder(deps, currentAccount(request).id, request.params.id),
  );
  const providerListQuery = z.object({
    symbol: z.string().max(32).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  });
  app.get(
    `${PROVIDER_PREFIX}/trade/orders/open`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: 'Your open orders',
        security: bearerAuth,
        querystring: providerListQuery,
        response: { 200: z.array(orderSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { symbol, limit } = request.query;
      const result = await listOrders(deps, currentAccount(request).id, { status: 'open', symbol, limit, page: 1 });
      return result.orders;
    },
  );
  app.get(
    `${PROVIDER_PREFIX}/trade/orders/history`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: 'Your closed orders, newest first (optional symbol and limit)',
        security: bearerAuth,
        querystring: providerListQuery,
        response: { 200: z.array(orderSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { symbol, limit } = request.query;
      const result = await listOrders(deps, currentAccount(request).id, { status: 'closed', symbol, limit, page: 1 });
      return result.orders;
    },
  );
}
