import {
  chainDepositSchema,
  checkoutDepositSchema,
  createDepositRequestSchema,
  createLightningPaymentRequestSchema,
  createPaymentRequestSchema,
  depositAddressParamsSchema,
  depositAddressQuerySchema,
  depositAddressSchema,
  depositHistoryQuerySchema,
  depositHistoryResponseSchema,
  depositIdParamsSchema,
  LIGHTNING_CRYPTO_CURRENCY,
  lightningPaymentSchema,
  paymentBatchStatusRequestSchema,
  paymentBatchStatusResponseSchema,
  paymentCryptoSchema,
  paymentIdParamsSchema,
  paymentSchema,
  sandboxChainDepositRequestSchema,
  selectPaymentCryptoRequestSchema,
  selectPaymentCryptoResponseSchema,
  webhookAckSchema,
  webhookVerifyRequestSchema,
  webhookVerifyResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, unwrap } from '../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { PROVIDER_PREFIX } from '../provider/routes.ts';
import { parseCurrency, parseIdempotencyKey } from '../wallet/rules.ts';
import { cardRoutes, cardSupportFor } from './card.ts';
import { chainDepositById, recordSandboxDeposit } from './chain.ts';
import type { DepositAddresses } from './deposit-addresses.ts';
import { depositHistory } from './history.ts';
import { type PaymentsService, toCheckoutDeposit, toLightningPayment, toPayment } from './payments.ts';
import { parseCheckoutAmount } from './rules.ts';
import { receiveWebhook, verifyWebhookSignature } from './webhooks.ts';

const walletTags = ['wallet'];
const providerTags = ['payment-provider'];
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().max(64).optional() });

/** Deposit addresses, checkout deposits and the deposit history (§7.3). */
export function walletDepositRoutes(
  scope: FastifyInstance,
  context: AppContext,
  service: PaymentsService,
  addresses: DepositAddresses,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  cardRoutes(scope, context, service);

  const addressRoute = {
    ...signedIn,
    schema: {
      tags: walletTags,
      summary: "The account's deposit address for a currency (and network), with its memo where the network needs one",
      security: bearerAuth,
      params: depositAddressParamsSchema,
      querystring: depositAddressQuerySchema,
      response: { 200: depositAddressSchema, ...errorResponses(400, 401, 502) },
    },
  };
  for (const path of ['/api/v1/wallet/deposit-address/:currency', '/wallet/deposit-address/:currency']) {
    app.get(path, addressRoute, async (request) =>
      addresses.addressFor(currentAccount(request).id, request.params.currency, request.query.network),
    );
  }

  app.post(
    '/api/v1/wallet/deposit',
    {
      ...signedIn,
      schema: {
        tags: walletTags,
        summary: 'A deposit through the payment provider’s hosted checkout; credited once paid and confirmed',
        security: bearerAuth,
        body: createDepositRequestSchema,
        headers: idempotencyHeaders,
        response: { 200: checkoutDepositSchema, 201: checkoutDepositSchema, ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (request, reply) => {
      const account = currentAccount(request);
      const currency = unwrap(parseCurrency(request.body.currency));
      const amount = unwrap(parseCheckoutAmount(request.body.amount, currency));
      const key = parseIdempotencyKey(request.headers['idempotency-key'], request.body.idempotency_key);
      const byCard = request.body.payment_method === 'card';
      if (byCard) unwrap(cardSupportFor(service.provider(), currency));
      const result = await service.createCheckoutPayment(account.id, {
        kind: 'deposit',
        description: byCard ? `Buy ${amount} ${currency} with a card` : `Deposit of ${amount} ${currency}`,
        orderCurrency: currency,
        orderAmount: amount,
        payCurrency: currency === 'USD' || byCard ? null : currency,
        payMethod: byCard ? 'card' : 'crypto',
        successUrl: service.webUrl('/wallet?action=deposit'),
        cancelUrl: service.webUrl('/wallet?action=deposit&cancelled=true'),
        idempotencyKey: key,
      });
      return reply.code(result.created ? 201 : 200).send(toCheckoutDeposit(result.row, context.clock()));
    },
  );

  app.get(
    '/api/v1/wallet/deposit/:id',
    {
      ...signedIn,
      schema: {
        tags: walletTags,
        summary: 'A checkout deposit of the caller',
        security: bearerAuth,
        params: depositIdParamsSchema,
        response: { 200: checkoutDepositSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      toCheckoutDeposit(
        await service.ownPayment(currentAccount(request).id, request.params.id, ['deposit']),
        context.clock(),
      ),
  );

  app.get(
    '/api/v1/wallet/deposits',
    {
      ...signedIn,
      schema: {
        tags: walletTags,
        summary: 'Deposits to the account’s addresses and through checkout, newest first',
        security: bearerAuth,
        querystring: depositHistoryQuerySchema,
        response: { 200: depositHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      depositHistory(context.db, currentAccount(request).id, context.clock(), request.query.limit, request.query.page),
  );
}

/**
 * The sandbox chain (PAYMENT_PROVIDER=sandbox only): POST stands for someone outside sending coins
 * to an address, so it takes no sign-in, like the chain itself.
 */
export function sandboxChainRoutes(scope: FastifyInstance, service: PaymentsService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['sandbox'];
  app.post(
    '/sandbox/chain/deposits',
    {
      schema: {
        tags,
        summary: 'Sandbox chain: send coins to an address (seen with 0 confirmations)',
        body: sandboxChainDepositRequestSchema,
        response: { 201: chainDepositSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => reply.code(201).send(await recordSandboxDeposit(service.deps, request.body)),
  );
  app.get(
    '/sandbox/chain/deposits/:id',
    {
      schema: {
        tags,
        summary: 'Sandbox chain: a transaction sent, with its confirmations',
        params: z.object({ id: z.uuid() }),
        response: { 200: chainDepositSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const found = await chainDepositById(service.deps, request.params.id);
      if (!found) throw new AppError('NOT_FOUND', { message: 'No such sandbox transaction' });
      return found;
    },
  );
}

/** §7.4 payment facade: payments, Lightning, webhook check. Only the owner sees a payment. */
export function facadePaymentRoutes(scope: FastifyInstance, context: AppContext, service: PaymentsService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };
  const tags = providerTags;
  const now = () => context.clock();

  app.post(
    `${PROVIDER_PREFIX}/payment`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A payment with a hosted checkout; paid payments credit their creator',
        security: bearerAuth,
        body: createPaymentRequestSchema,
        headers: idempotencyHeaders,
        response: { 200: paymentSchema, 201: paymentSchema, ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (request, reply) => {
      const account = currentAccount(request);
      const { body } = request;
      const currency = unwrap(parseCurrency(body.currency));
      const amount = unwrap(parseCheckoutAmount(body.amount, currency, 'payment'));
      let payCurrency: string | null = null;
      if (body.crypto_currency !== undefined && body.crypto_currency.trim() !== '') {
        payCurrency = unwrap(parseCurrency(body.crypto_currency));
        if (payCurrency === 'USD') {
          throw new AppError('CURRENCY_NOT_SUPPORTED', {
            message: 'Currency USD is not supported',
            details: { field: 'crypto_currency' },
          });
        }
      } else if (currency !== 'USD') {
        payCurrency = currency;
      }
      const key = parseIdempotencyKey(request.headers['idempotency-key'], body.idempotency_key);
      const description = body.description.trim() || `Payment of ${amount} ${currency}`;
      const result = await service.createCheckoutPayment(account.id, {
        kind: 'payment',
        description,
        orderCurrency: currency,
        orderAmount: amount,
        payCurrency,
        successUrl: body.success_url ?? service.webUrl('/wallet?tab=payment'),
        cancelUrl: body.cancel_url ?? service.webUrl('/wallet?tab=payment&cancelled=true'),
        payerEmail: body.payer_email,
        payerName: body.payer_name,
        idempotencyKey: key,
      });
      return reply.code(result.created ? 201 : 200).send(toPayment(result.row, now()));
    },
  );

  app.post(
    `${PROVIDER_PREFIX}/payment/batch/status`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Several payments of the caller at once; references not found (or not the caller’s) are listed apart',
        security: bearerAuth,
        body: paymentBatchStatusRequestSchema,
        response: { 200: paymentBatchStatusResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { rows, notFound } = await service.ownPayments(currentAccount(request).id, request.body.payment_references);
      return { payments: rows.map((row) => toPayment(row, now())), not_found: notFound };
    },
  );

  app.get(
    `${PROVIDER_PREFIX}/payment/:id`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A payment of the caller, by our id or the provider’s reference',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        response: { 200: paymentSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      toPayment(await service.ownPayment(currentAccount(request).id, request.params.id, ['deposit', 'payment']), now()),
  );

  app.get(
    `${PROVIDER_PREFIX}/payment/:id/crypto`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Where and how much to pay in crypto',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        response: { 200: paymentCryptoSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const payment = toPayment(
        await service.ownPayment(currentAccount(request).id, request.params.id, ['deposit', 'payment']),
        now(),
      );
      return {
        id: payment.id,
        crypto_currency: payment.crypto_currency,
        crypto_address: payment.crypto_address,
        crypto_amount: payment.crypto_amount,
        exchange_rate: payment.exchange_rate,
        expiresAt: payment.expiresAt,
        status: payment.status,
      };
    },
  );

  app.post(
    `${PROVIDER_PREFIX}/payment/:id/select`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Pay with Lightning (LNBC): attaches a BOLT11 invoice to the payment',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        body: selectPaymentCryptoRequestSchema,
        response: { 200: selectPaymentCryptoResponseSchema, ...errorResponses(400, 401, 404, 409, 502, 503) },
      },
    },
    async (request) => {
      const wanted = request.body.crypto_currency.trim().toUpperCase();
      if (wanted !== LIGHTNING_CRYPTO_CURRENCY) {
        throw new AppError('CURRENCY_NOT_SUPPORTED', {
          message: `Currency ${wanted || request.body.crypto_currency} is not supported`,
          details: { field: 'crypto_currency', supported: [LIGHTNING_CRYPTO_CURRENCY] },
        });
      }
      const payment = toPayment(await service.selectLightning(currentAccount(request).id, request.params.id), now());
      if (!payment.lightning) throw new Error('selected payment has no Lightning invoice');
      return {
        id: payment.id,
        crypto_currency: LIGHTNING_CRYPTO_CURRENCY as typeof LIGHTNING_CRYPTO_CURRENCY,
        invoice: payment.lightning.invoice,
        payment_hash: payment.lightning.payment_hash,
        amount: payment.lightning.amount,
        expires_at: payment.lightning.expires_at,
        status: payment.status,
      };
    },
  );

  app.post(
    `${PROVIDER_PREFIX}/lightning/payment`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A Lightning invoice to receive an amount of BTC; credited once paid',
        security: bearerAuth,
        body: createLightningPaymentRequestSchema,
        headers: idempotencyHeaders,
        response: { 200: lightningPaymentSchema, 201: lightningPaymentSchema, ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (request, reply) => {
      const amount = unwrap(parseCheckoutAmount(request.body.amount, 'BTC', 'Lightning payment'));
      const key = parseIdempotencyKey(request.headers['idempotency-key'], request.body.idempotency_key);
      const description = request.body.description?.trim() || `Lightning payment of ${amount} BTC`;
      const result = await service.createLightning(currentAccount(request).id, amount, description, key);
      return reply.code(result.created ? 201 : 200).send(toLightningPayment(result.row, now()));
    },
  );

  app.get(
    `${PROVIDER_PREFIX}/lightning/payment/:id`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A Lightning payment of the caller',
        security: bearerAuth,
        params: paymentIdParamsSchema,
        response: { 200: lightningPaymentSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      toLightningPayment(await service.ownPayment(currentAccount(request).id, request.params.id, ['lightning']), now()),
  );

  app.post(
    `${PROVIDER_PREFIX}/webhook/verify`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Would the configured provider accept this webhook payload with this signature (and timestamp)?',
        security: bearerAuth,
        body: webhookVerifyRequestSchema,
        response: { 200: webhookVerifyResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ valid: verifyWebhookSignature(context, service, request.body) }),
  );
}

/**
 * POST /v1/webhooks/{provider}: no sign-in (the signature is the proof). In a scope of its own
 * whose JSON parser keeps the body as received text, because the signatures cover the raw bytes.
 */
export async function webhookRoutes(
  scope: FastifyInstance,
  context: AppContext,
  service: PaymentsService,
): Promise<void> {
  await scope.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const app = raw.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/v1/webhooks/:provider',
      {
        schema: {
          tags: providerTags,
          summary: 'Webhook receiver: signed provider events (payments, Lightning, payouts)',
          params: z.object({ provider: z.string().max(40) }),
          response: { 200: webhookAckSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) =>
        receiveWebhook(context, service, {
          provider: request.params.provider,
          headers: request.headers,
          rawBody: typeof request.body === 'string' ? request.body : '',
          sourceIp: request.ip,
        }),
    );
  });
}
