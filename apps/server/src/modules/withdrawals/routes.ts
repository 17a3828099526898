import {
  createPayoutRequestSchema,
  createWithdrawalRequestSchema,
  payoutSchema,
  providerBalanceSchema,
  providerBalancesResponseSchema,
  verifyPayoutRequestSchema,
  verifyPayoutResponseSchema,
  withdrawalLimitsSchema,
  withdrawalListQuerySchema,
  withdrawalListResponseSchema,
  withdrawalNetworksOf,
  withdrawalNetworksResponseSchema,
  withdrawalSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unwrap } from '../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { PROVIDER_PREFIX } from '../provider/routes.ts';
import { parseCurrency } from '../wallet/rules.ts';
import type { PayoutProcessor } from './processor.ts';
import {
  createPayout,
  createWithdrawal,
  getPayout,
  getWithdrawal,
  listWithdrawals,
  providerBalanceOf,
  providerBalances,
  type WithdrawalDeps,
  withdrawalLimits,
} from './service.ts';
import { verifyPayout } from './verify.ts';

const tags = ['withdrawals'];
const providerTags = ['payment-provider'];
/** Ids are looked up as given; anything that is not one of the caller's is 404, never 400. */
const idParamsSchema = z.object({ id: z.string().max(128) });
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().max(64).optional() });

/** Spec §7.3's withdrawal and payout calls, §7.2's payout list and §7.4's provider wallet facade. */
export function withdrawalRoutes(
  scope: FastifyInstance,
  context: AppContext,
  deps: WithdrawalDeps,
  processor: PayoutProcessor,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  const withdrawFailures = errorResponses(400, 401, 403, 409, 422, 429, 503);

  const withdraw = (path: string, summary: string, routeTags: string[]) =>
    app.post(
      path,
      {
        ...signedIn,
        schema: {
          tags: routeTags,
          summary,
          security: bearerAuth,
          body: createWithdrawalRequestSchema,
          headers: idempotencyHeaders,
          response: { 200: withdrawalSchema, 201: withdrawalSchema, ...withdrawFailures },
        },
      },
      async (request, reply) => {
        const result = await createWithdrawal(
          deps,
          currentAccount(request).id,
          request.body,
          request.headers['idempotency-key'],
        );
        return reply.code(result.created ? 201 : 200).send(result.withdrawal);
      },
    );

  withdraw(
    '/api/v1/wallet/withdraw',
    'Withdraw to an outside address: amount + fee held at once, sent to the payment provider right after',
    tags,
  );
  withdraw(`${PROVIDER_PREFIX}/wallet/withdraw`, 'The provider facade of POST /api/v1/wallet/withdraw', providerTags);

  const oneWithdrawal = (path: string, summary: string, routeTags: string[]) =>
    app.get(
      path,
      {
        ...signedIn,
        schema: {
          tags: routeTags,
          summary,
          security: bearerAuth,
          params: idParamsSchema,
          response: { 200: withdrawalSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => getWithdrawal(deps, currentAccount(request).id, request.params.id),
    );

  oneWithdrawal('/api/v1/wallet/payout-status/:id', 'A withdrawal of the caller, with its payout status', tags);
  oneWithdrawal(`${PROVIDER_PREFIX}/wallet/withdraw/:id`, 'The provider facade of a withdrawal', providerTags);

  app.post(
    '/api/v1/wallet/payout',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A mass payout (§3.5 payout items): every item checked by the withdrawal rules, all held or none',
        security: bearerAuth,
        body: createPayoutRequestSchema,
        headers: idempotencyHeaders,
        response: { 200: payoutSchema, 201: payoutSchema, ...withdrawFailures },
      },
    },
    async (request, reply) => {
      const result = await createPayout(
        deps,
        currentAccount(request).id,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.code(result.created ? 201 : 200).send(result.payout);
    },
  );

  app.get(
    '/api/v1/wallet/payout/:id/status',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A payout of the caller (a mass payout, or a single withdrawal by its id) and its items',
        security: bearerAuth,
        params: idParamsSchema,
        response: { 200: payoutSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => getPayout(deps, currentAccount(request).id, request.params.id),
  );

  app.post(
    '/api/v1/wallet/verify-payout',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Confirm a payout waiting for the provider's verification code",
        security: bearerAuth,
        body: verifyPayoutRequestSchema,
        response: { 200: verifyPayoutResponseSchema, ...errorResponses(400, 401, 404, 409, 502) },
      },
    },
    async (request) => verifyPayout(deps, processor, currentAccount(request).id, request.body),
  );

  const list = (path: string, summary: string) =>
    app.get(
      path,
      {
        ...signedIn,
        schema: {
          tags,
          summary,
          security: bearerAuth,
          querystring: withdrawalListQuerySchema,
          response: { 200: withdrawalListResponseSchema, ...errorResponses(400, 401) },
        },
      },
      async (request) => listWithdrawals(deps, currentAccount(request).id, request.query.limit, request.query.page),
    );

  list('/api/v1/wallet/payouts/history', 'Withdrawals and payout items of the caller, newest first');
  list('/v1/wallet/payouts', 'Withdrawals and payout items of the caller, newest first, with paging');

  app.get(
    '/api/v1/wallet/withdrawal-limits',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "The rolling 24-hour withdrawal allowance of the caller's KYC tier, in USD",
        security: bearerAuth,
        response: { 200: withdrawalLimitsSchema, ...errorResponses(401) },
      },
    },
    async (request) => withdrawalLimits(deps, currentAccount(request).id),
  );

  app.get(
    '/api/v1/wallet/withdrawal-networks/:currency',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The networks a currency can be withdrawn on, each with its fee, minimum and address format',
        security: bearerAuth,
        params: z.object({ currency: z.string().max(20) }),
        response: { 200: withdrawalNetworksResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const currency = unwrap(parseCurrency(request.params.currency));
      return { currency, networks: withdrawalNetworksOf(currency) };
    },
  );

  app.get(
    `${PROVIDER_PREFIX}/wallet/balances`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: "The caller's balances in the provider's shape (pending = held for orders, transfers, withdrawals)",
        security: bearerAuth,
        response: { 200: providerBalancesResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => providerBalances(deps, currentAccount(request).id),
  );

  app.get(
    `${PROVIDER_PREFIX}/wallet/balance/:currency`,
    {
      ...signedIn,
      schema: {
        tags: providerTags,
        summary: "The caller's balance of one currency in the provider's shape",
        security: bearerAuth,
        params: z.object({ currency: z.string().max(20) }),
        response: { 200: providerBalanceSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => providerBalanceOf(deps, currentAccount(request).id, request.params.currency),
  );
}
