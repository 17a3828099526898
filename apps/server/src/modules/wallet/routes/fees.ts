import {
  depositEstimateSchema,
  feeQuerySchema,
  minimumAmountsSchema,
  withdrawalFeeEstimateSchema,
  withdrawalFeeSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../context.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, errorResponses } from '../../auth/index.ts';
import { depositEstimate, type FeeContext, minimumAmounts, withdrawalFeeEstimate } from '../fees.ts';

const tags = ['wallet'];

/** What moving money costs before it moves: withdrawal fees, what a deposit brings, the minimums. */
export function walletFeeRoutes(scope: FastifyInstance, context: AppContext, fees: FeeContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };

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
    async (request) =>
      unwrap(await withdrawalFeeEstimate(fees, request.query.currency, request.query.amount, request.query.network)),
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
      const estimate = unwrap(
        await withdrawalFeeEstimate(fees, request.query.currency, request.query.amount, request.query.network),
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
    async (request) => unwrap(await depositEstimate(fees, request.query.currency, request.query.amount)),
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
