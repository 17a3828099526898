import {
  createTransferRequestSchema,
  depositEstimateSchema,
  feeQuerySchema,
  minimumAmountsSchema,
  transferHistoryQuerySchema,
  transferHistoryResponseSchema,
  transferSchema,
  transferStatusResponseSchema,
  walletBalancesResponseSchema,
  walletTransactionsQuerySchema,
  walletTransactionsResponseSchema,
  withdrawalFeeEstimateSchema,
  withdrawalFeeSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { walletBalances, walletTransactions } from './balances.ts';
import { depositEstimate, type FeeContext, minimumAmounts, withdrawalFeeEstimate } from './fees.ts';
import { createTransfer, getTransfer, type TransferSettler, transferHistory, type WalletDeps } from './transfers.ts';

const tags = ['wallet'];
const transferIdParamsSchema = z.object({ id: z.uuid() });

/** Spec §7.2's wallet reads and §7.3's transfer calls. */
export function walletRoutes(
  scope: FastifyInstance,
  context: AppContext,
  deps: WalletDeps,
  settler: TransferSettler,
  fees: FeeContext,
) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };

  app.get(
    '/v1/wallet/balances',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Balances from the ledger, with a zero row for every wallet currency not held',
        security: bearerAuth,
        response: { 200: walletBalancesResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ balances: await walletBalances(deps.db, currentAccount(request).id) }),
  );

  app.get(
    '/v1/wallet/transactions',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'What changed the balances (deposits, withdrawals, transfers, trades, conversions), newest first',
        security: bearerAuth,
        querystring: walletTransactionsQuerySchema,
        response: { 200: walletTransactionsResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => walletTransactions(deps.db, currentAccount(request).id, request.query),
  );

  app.post(
    '/api/v1/wallet/transfer',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Send funds to another user by username; held at once, settled right after',
        security: bearerAuth,
        body: createTransferRequestSchema,
        headers: z.object({ 'idempotency-key': z.string().max(64).optional() }),
        response: { 200: transferSchema, 201: transferSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const result = await createTransfer(
        deps,
        settler,
        currentAccount(request).id,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.code(result.created ? 201 : 200).send(result.transfer);
    },
  );

  app.get(
    '/api/v1/wallet/transfer/:id/status',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A transfer the caller sent or received (the status popup polls it)',
        security: bearerAuth,
        params: transferIdParamsSchema,
        response: { 200: transferStatusResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ result: await getTransfer(deps, currentAccount(request).id, request.params.id) }),
  );

  app.get(
    '/api/v1/wallet/transfers/history',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Transfers sent and received, newest first',
        security: bearerAuth,
        querystring: transferHistoryQuerySchema,
        response: { 200: transferHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => transferHistory(deps, currentAccount(request).id, request.query.limit, request.query.page),
  );

  app.get(
    '/api/v1/wallet/withdrawal-fee-estimate',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'What a withdrawal costs: the larger of the base fee and 0.1 %, and the total taken',
        security: bearerAuth,
        querystring: feeQuerySchema,
        response: { 200: withdrawalFeeEstimateSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => withdrawalFeeEstimate(fees, request.query.currency, request.query.amount, request.query.network),
  );

  app.get(
    '/api/v1/wallet/withdrawal-fee',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The withdrawal fee and total',
        security: bearerAuth,
        querystring: feeQuerySchema,
        response: { 200: withdrawalFeeSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const estimate = await withdrawalFeeEstimate(
        fees,
        request.query.currency,
        request.query.amount,
        request.query.network,
      );
      return { currency: estimate.currency, amount: estimate.amount, fee: estimate.fee, total: estimate.total_amount };
    },
  );

  app.get(
    '/api/v1/wallet/deposit-estimate',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'What arrives for a deposit',
        security: bearerAuth,
        querystring: feeQuerySchema,
        response: { 200: depositEstimateSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => depositEstimate(fees, request.query.currency, request.query.amount),
  );

  app.get(
    '/api/v1/wallet/minimum-amounts',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The smallest withdrawal per wallet currency',
        security: bearerAuth,
        response: { 200: minimumAmountsSchema, ...errorResponses(401) },
      },
    },
    async () => minimumAmounts(fees),
  );
}
