import {
  type CreateLightningPaymentRequest,
  type CreatePaymentRequest,
  cardOptionsSchema,
  cardQuoteSchema,
  checkoutDepositSchema,
  depositAddressSchema,
  depositEstimateSchema,
  depositHistoryResponseSchema,
  LIGHTNING_CRYPTO_CURRENCY,
  lightningPaymentSchema,
  paymentBatchStatusResponseSchema,
  paymentCryptoSchema,
  paymentSchema,
  selectPaymentCryptoResponseSchema,
} from '@platform/contracts';
import { apiClient } from './http.ts';
import { providerClient } from './provider-http.ts';
import { type PageRequest, withQuery } from './wallet.ts';

/**
 * Money coming in (spec §3.5, §7.3, §7.4): deposit addresses, hosted-checkout deposits and their
 * history on the wallet service (/api/v1), payments and Lightning invoices on the payment-provider
 * API (/v1/triple-a, 30 s). Currency codes go lower-cased (§5); every answer is parsed with the
 * contract's schema.
 */

const idempotent = (key: string) => ({ 'Idempotency-Key': key });
const lower = (currency: string) => currency.trim().toLowerCase();

export interface CheckoutDepositInput {
  currency: string;
  amount: string;
  /** 'card': the provider's hosted card checkout (buying with a card). */
  method?: 'crypto' | 'card';
}

export const depositsApi = {
  /** GET /api/v1/wallet/deposit-address/{currency}: the account's own address (and memo) on a network. */
  address: (currency: string, network?: string) =>
    apiClient.request(withQuery(`/api/v1/wallet/deposit-address/${encodeURIComponent(lower(currency))}`, { network }), {
      schema: depositAddressSchema,
    }),

  /** GET /api/v1/wallet/deposit-estimate: what arrives for a deposit of `amount`. */
  estimate: (currency: string, amount: string) =>
    apiClient.request(withQuery('/api/v1/wallet/deposit-estimate', { currency: lower(currency), amount }), {
      schema: depositEstimateSchema,
    }),

  /** POST /api/v1/wallet/deposit (§7.3): a deposit through the provider's hosted checkout. */
  createCheckout: (input: CheckoutDepositInput, idempotencyKey: string) =>
    apiClient.request('/api/v1/wallet/deposit', {
      method: 'POST',
      body: { currency: lower(input.currency), amount: input.amount, payment_method: input.method ?? 'crypto' },
      headers: idempotent(idempotencyKey),
      schema: checkoutDepositSchema,
    }),

  /** GET /api/v1/wallet/card/options: what the provider sells by card, and its fee. */
  cardOptions: () => apiClient.request('/api/v1/wallet/card/options', { schema: cardOptionsSchema }),

  /** GET /api/v1/wallet/card/quote: the card fee and the total charged, before paying. */
  cardQuote: (currency: string, amount: string) =>
    apiClient.request(withQuery('/api/v1/wallet/card/quote', { currency: lower(currency), amount }), {
      schema: cardQuoteSchema,
    }),

  /** GET /api/v1/wallet/deposit/{id}: one checkout deposit and where it stands. */
  checkout: (id: string) =>
    apiClient.request(`/api/v1/wallet/deposit/${encodeURIComponent(id)}`, { schema: checkoutDepositSchema }),

  /** GET /api/v1/wallet/deposits: both kinds of deposit, newest first. */
  history: (page: PageRequest = {}) =>
    apiClient.request(withQuery('/api/v1/wallet/deposits', { limit: page.limit, page: page.page }), {
      schema: depositHistoryResponseSchema,
    }),
};

export const paymentsApi = {
  /** POST /payment (§7.4). */
  create: (body: Omit<CreatePaymentRequest, 'idempotency_key'>, idempotencyKey: string) =>
    providerClient.request('/payment', {
      method: 'POST',
      body: {
        ...body,
        currency: lower(body.currency),
        ...(body.crypto_currency ? { crypto_currency: lower(body.crypto_currency) } : {}),
      },
      headers: idempotent(idempotencyKey),
      schema: paymentSchema,
    }),

  /** GET /payment/{id}: the payment's current status. */
  get: (id: string) => providerClient.request(`/payment/${encodeURIComponent(id)}`, { schema: paymentSchema }),

  /** GET /payment/{id}/crypto: where and how much to pay in crypto. */
  crypto: (id: string) =>
    providerClient.request(`/payment/${encodeURIComponent(id)}/crypto`, { schema: paymentCryptoSchema }),

  /** POST /payment/{id}/select {crypto_currency: 'LNBC'}: pay this payment with a Lightning invoice. */
  selectLightning: (id: string) =>
    providerClient.request(`/payment/${encodeURIComponent(id)}/select`, {
      method: 'POST',
      body: { crypto_currency: LIGHTNING_CRYPTO_CURRENCY },
      schema: selectPaymentCryptoResponseSchema,
    }),

  /** POST /payment/batch/status: the caller's payments among `references`. */
  batchStatus: (references: readonly string[]) =>
    providerClient.request('/payment/batch/status', {
      method: 'POST',
      body: { payment_references: references },
      schema: paymentBatchStatusResponseSchema,
    }),

  /** POST /lightning/payment: a Lightning-only invoice for `amount` BTC. */
  createLightning: (body: Omit<CreateLightningPaymentRequest, 'idempotency_key'>, idempotencyKey: string) =>
    providerClient.request('/lightning/payment', {
      method: 'POST',
      body,
      headers: idempotent(idempotencyKey),
      schema: lightningPaymentSchema,
    }),

  /** GET /lightning/payment/{id}. */
  lightning: (id: string) =>
    providerClient.request(`/lightning/payment/${encodeURIComponent(id)}`, { schema: lightningPaymentSchema }),
};
