import { z } from 'zod';
import { dateFromProvider, decimalFromProvider } from './amounts.ts';
import { decodeInvoice } from './bolt11.ts';
import {
  BearerToken,
  callProvider,
  callWithBearer,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  jsonAmount,
  MAX_ERROR_BODY_CHARS,
  MAX_ERROR_MESSAGE_CHARS,
  type ProviderAnswer,
  type ProviderCall,
  type ProviderClientOptions,
  unexpectedAnswer,
} from './http.ts';
import { deriveSecret } from './signatures.ts';
import {
  checkTripleAWebhook,
  tripleALightningPaid,
  tripleALightningSchema,
  tripleAPaymentSchema,
  tripleAPaymentState,
  tripleAPayoutSchema,
  tripleAPayoutState,
} from './triple-a-shapes.ts';
import {
  type Checkout,
  type CheckoutRequest,
  type LightningInvoice,
  type LightningInvoiceRequest,
  type PaymentProvider,
  type PaymentState,
  type PayoutRequest,
  type PayoutState,
  ProviderError,
  type WebhookCheck,
  type WebhookInput,
} from './types.ts';

/**
 * Triple-A (third-party-apis.md §1): OAuth client credentials, hosted payments, signed webhooks,
 * payouts to an address (create, then confirm), refunds. Paths not confirmed by a readable
 * reference are kept in TRIPLEA_PATHS and can be replaced in the constructor.
 */

export const TRIPLEA_PATHS = {
  token: '/oauth/token',
  payment: '/payment',
  paymentStatus: '/payment/{reference}',
  payout: '/payout/withdraw/local/crypto/direct',
  payoutConfirm: '/payout/withdraw/{reference}/local/crypto/confirm',
  payoutCancel: '/payout/withdraw/{reference}/local/crypto/cancel',
  /** Unverified: no public source documents how a payout is read back. */
  payoutStatus: '/payout/withdraw/{reference}',
  refund: '/payout/refund/local',
  /** Unverified: no public source documents Triple-A Lightning (third-party-apis.md §1). */
  lightning: '/lightning/payment',
  lightningStatus: '/lightning/payment/{reference}',
};
export type TripleAPaths = typeof TRIPLEA_PATHS;

export type TripleAOptions = {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  merchantKey: string;
  /** Triple-A's sandbox flag on created payments (test coins). */
  sandbox: boolean;
  /** The key each payment's notify_secret derives from, with our reference (nothing to store). */
  notifySecretKey: string;
  webhookToleranceSeconds: number;
  clock?: () => Date;
  timeoutMs?: number;
  paths?: Partial<TripleAPaths>;
};

/** A token is renewed this long before Triple-A says it expires, so no call carries a dead one. */
const TOKEN_RENEW_MARGIN_MS = 60_000;
/** Triple-A's tokens live an hour; an answer without expires_in is taken to mean that. */
const DEFAULT_TOKEN_LIFETIME_SECONDS = 3_600;

const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.union([z.number(), z.string()]).optional(),
});
const createdPaymentSchema = z.looseObject({
  payment_reference: z.string().min(1),
  hosted_url: z.string().min(1),
  expiry_date: z.string().nullish(),
  crypto_currency: z.string().nullish(),
  crypto_address: z.string().nullish(),
  crypto_amount: z.union([z.string(), z.number()]).nullish(),
  exchange_rate: z.union([z.string(), z.number()]).nullish(),
});
const createdPayoutSchema = z.looseObject({
  payout_reference: z.string().min(1),
  crypto_amount: z.union([z.string(), z.number()]).nullish(),
  network_fee_crypto_amount: z.union([z.string(), z.number()]).nullish(),
  status: z.string().nullish(),
});
const refundSchema = z.looseObject({
  refund_reference: z.string().nullish(),
  payout_reference: z.string().nullish(),
  reference: z.string().nullish(),
});
const lightningCreatedSchema = z.looseObject({
  payment_reference: z.string().min(1),
  lightning_invoice: z.string().nullish(),
  invoice: z.string().nullish(),
  bolt11: z.string().nullish(),
  payment_request: z.string().nullish(),
  payment_hash: z.string().nullish(),
  expiry_date: z.string().nullish(),
});

export class TripleAAdapter implements PaymentProvider {
  readonly name = 'triple-a' as const;
  /** Triple-A does not document refusing a repeated payout: never resent blindly. */
  readonly idempotentPayouts = false;
  readonly #options: TripleAOptions;
  readonly #paths: TripleAPaths;
  readonly #client: ProviderClientOptions;
  readonly #token: BearerToken;

  constructor(options: TripleAOptions) {
    this.#options = options;
    this.#paths = { ...TRIPLEA_PATHS, ...options.paths };
    this.#client = {
      provider: 'triple-a',
      baseUrl: options.apiUrl.replace(/\/$/, ''),
      timeoutMs: options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
      describeError: describeTripleAError,
    };
    this.#token = new BearerToken(
      () => this.#requestToken(),
      () => this.#now(),
    );
  }

  /** The notify_secret of one payment or payout: HMAC of our key and our reference. */
  notifySecret(reference: string): string {
    return deriveSecret(this.#options.notifySecretKey, `triple-a notify secret ${reference}`);
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const answer = await this.#call({
      method: 'POST',
      path: this.#paths.payment,
      json: {
        type: 'triplea',
        merchant_key: this.#options.merchantKey,
        order_currency: request.orderCurrency.toUpperCase(),
        order_amount: jsonAmount('triple-a', request.orderAmount, 'orderAmount'),
        payer_id: request.payer.accountId,
        ...(request.payer.name ? { payer_name: request.payer.name } : {}),
        ...(request.payer.email ? { payer_email: request.payer.email } : {}),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        notify_url: request.notifyUrl,
        notify_secret: this.notifySecret(request.reference),
        notify_txs: true,
        // Echoed in every webhook: how a duplicate payment for one reference is recognised.
        webhook_data: { reference: request.reference },
        cart: {
          items: [
            {
              sku: request.reference,
              label: request.description,
              quantity: 1,
              amount: jsonAmount('triple-a', request.orderAmount, 'orderAmount'),
            },
          ],
          shipping_cost: 0,
          shipping_discount: 0,
          tax_cost: 0,
        },
        ...(this.#options.sandbox ? { sandbox: true } : {}),
      },
    });
    const parsed = createdPaymentSchema.safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('triple-a', 'POST /payment', parsed.error.message);
    const created = parsed.data;
    return {
      providerReference: created.payment_reference,
      hostedUrl: created.hosted_url,
      expiresAt: dateFromProvider(
        created.expiry_date,
        new Date(this.#now().getTime() + request.expiresInSeconds * 1000),
      ),
      cryptoCurrency: created.crypto_currency ? created.crypto_currency.toUpperCase() : null,
      cryptoAddress: created.crypto_address ?? null,
      cryptoAmount: decimalFromProvider(created.crypto_amount),
      exchangeRate: decimalFromProvider(created.exchange_rate),
    };
  }

  async paymentStatus(providerReference: string): Promise<PaymentState> {
    const path = this.#paths.paymentStatus.replace('{reference}', encodeURIComponent(providerReference));
    const answer = await this.#call({ method: 'GET', path });
    const parsed = tripleAPaymentSchema.safeParse(answer.body);
    const state = parsed.success ? tripleAPaymentState(parsed.data, this.#now()) : null;
    if (!state)
      throw unexpectedAnswer('triple-a', `GET ${path}`, parsed.success ? 'unknown amounts' : parsed.error.message);
    return state;
  }

  async createLightningInvoice(request: LightningInvoiceRequest): Promise<LightningInvoice> {
    const path = this.#paths.lightning;
    let answer: ProviderAnswer;
    try {
      answer = await this.#call({
        method: 'POST',
        path,
        json: {
          merchant_key: this.#options.merchantKey,
          order_currency: 'BTC',
          order_amount: jsonAmount('triple-a', request.amountBtc, 'amountBtc', 11),
          description: request.description,
          expires_in: request.expiresInSeconds,
          notify_url: request.notifyUrl,
          notify_secret: this.notifySecret(request.reference),
          webhook_data: { reference: request.reference },
          ...(this.#options.sandbox ? { sandbox: true } : {}),
        },
      });
    } catch (error) {
      if (error instanceof ProviderError && error.details.status !== undefined && error.details.status < 500) {
        throw new ProviderError(
          `Triple-A refused the Lightning invoice (HTTP ${error.details.status} at POST ${path}). Its Lightning API ` +
            'is not publicly documented: check the path configured in TRIPLEA_PATHS (docs/payment-providers.md).',
          {
            provider: 'triple-a',
            status: error.details.status,
            code: error.details.code ?? 'LIGHTNING_REFUSED',
            retryable: false,
          },
        );
      }
      throw error;
    }
    const parsed = lightningCreatedSchema.safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('triple-a', `POST ${path}`, parsed.error.message);
    const created = parsed.data;
    const invoice = created.lightning_invoice ?? created.invoice ?? created.bolt11 ?? created.payment_request;
    const decoded = invoice ? decodeInvoice(invoice) : null;
    if (!invoice || !decoded?.paymentHash) throw unexpectedAnswer('triple-a', `POST ${path}`, 'no BOLT11 invoice');
    return {
      providerReference: created.payment_reference,
      invoice,
      paymentHash: created.payment_hash ?? decoded.paymentHash,
      expiresAt: dateFromProvider(
        created.expiry_date,
        new Date(this.#now().getTime() + request.expiresInSeconds * 1000),
      ),
    };
  }

  async lightningStatus(providerReference: string): Promise<{ paid: boolean; expired: boolean }> {
    const path = this.#paths.lightningStatus.replace('{reference}', encodeURIComponent(providerReference));
    const answer = await this.#call({ method: 'GET', path });
    const parsed = tripleALightningSchema.safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('triple-a', `GET ${path}`, parsed.error.message);
    const paid = tripleALightningPaid(parsed.data);
    const status = (parsed.data.status ?? '').toLowerCase();
    const expiry = parsed.data.expiry_date ? new Date(parsed.data.expiry_date).getTime() : Number.NaN;
    const expired = !paid && (status === 'expired' || status === 'cancel' || expiry <= this.#now().getTime());
    return { paid, expired };
  }

  async refund(providerReference: string, amount: string, email: string): Promise<{ refundReference: string }> {
    const answer = await this.#call({
      method: 'POST',
      path: this.#paths.refund,
      json: {
        merchant_key: this.#options.merchantKey,
        payment_reference: providerReference,
        email,
        refund_amount: jsonAmount('triple-a', amount, 'amount'),
      },
    });
    const parsed = refundSchema.safeParse(answer.body);
    const reference = parsed.success
      ? (parsed.data.refund_reference ?? parsed.data.payout_reference ?? parsed.data.reference)
      : null;
    if (!reference) throw unexpectedAnswer('triple-a', `POST ${this.#paths.refund}`, 'no refund reference');
    return { refundReference: reference };
  }

  /**
   * Creates the payout; Triple-A then waits for the confirm call (verifyPayout). Triple-A does not
   * document refusing duplicates: our reference travels as `remarks` and in webhook_data, so a
   * duplicate can be recognised, and the withdrawals module must not re-create a payout whose
   * first attempt's outcome it does not know.
   */
  async createPayout(request: PayoutRequest): Promise<PayoutState> {
    const currency = request.currency.toUpperCase();
    const answer = await this.#call({
      method: 'POST',
      path: this.#paths.payout,
      json: {
        merchant_key: this.#options.merchantKey,
        withdraw_currency: currency,
        withdraw_amount: jsonAmount('triple-a', request.amount, 'amount'),
        crypto_currency: currency,
        address: request.address,
        ...(request.extraId ? { memo: request.extraId } : {}),
        name: request.description,
        remarks: request.reference,
        notify_url: request.notifyUrl,
        notify_secret: this.notifySecret(request.reference),
        webhook_data: { reference: request.reference },
      },
    });
    const parsed = createdPayoutSchema.safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('triple-a', `POST ${this.#paths.payout}`, parsed.error.message);
    return {
      providerReference: parsed.data.payout_reference,
      batchId: parsed.data.payout_reference,
      reference: request.reference,
      status: 'creating',
      needsVerification: true,
      networkFee: decimalFromProvider(parsed.data.network_fee_crypto_amount),
      hash: null,
      error: null,
      updatedAt: this.#now(),
    };
  }

  /** Triple-A's confirm step. It takes no code: the verification code is ours to check, not theirs. */
  async verifyPayout(batchId: string, _verificationCode: string): Promise<void> {
    const path = this.#paths.payoutConfirm.replace('{reference}', encodeURIComponent(batchId));
    await this.#call({ method: 'PUT', path, json: { merchant_key: this.#options.merchantKey } });
  }

  /** Cancels a payout not confirmed yet (not in PaymentProvider: no caller needs it today). */
  async cancelPayout(payoutReference: string): Promise<void> {
    const path = this.#paths.payoutCancel.replace('{reference}', encodeURIComponent(payoutReference));
    await this.#call({ method: 'PUT', path, json: { merchant_key: this.#options.merchantKey } });
  }

  async payoutStatus(providerReference: string): Promise<PayoutState> {
    const path = this.#paths.payoutStatus.replace('{reference}', encodeURIComponent(providerReference));
    const answer = await this.#call({ method: 'GET', path });
    const parsed = tripleAPayoutSchema.safeParse(answer.body);
    const state = parsed.success ? tripleAPayoutState(parsed.data, this.#now()) : null;
    if (!state)
      throw unexpectedAnswer('triple-a', `GET ${path}`, parsed.success ? 'unknown status' : parsed.error.message);
    return state;
  }

  /** Triple-A publishes no payout minimum, fee or estimate calls: callers use §9's values. */
  async minimumPayout(_currency: string): Promise<string | null> {
    return null;
  }

  async payoutFee(_currency: string, _amount: string): Promise<string | null> {
    return null;
  }

  async estimate(_amount: string, _from: string, _to: string): Promise<string | null> {
    return null;
  }

  verifyWebhook(input: WebhookInput): WebhookCheck {
    return checkTripleAWebhook(
      'triple-a',
      input,
      (reference) => (reference === null ? null : this.notifySecret(reference)),
      this.#options.webhookToleranceSeconds,
    );
  }

  #now(): Date {
    return this.#options.clock?.() ?? new Date();
  }

  #call(call: ProviderCall): Promise<ProviderAnswer> {
    return callWithBearer(this.#client, this.#token, call);
  }

  async #requestToken(): Promise<{ value: string; renewAtMs: number }> {
    const answer = await callProvider(this.#client, {
      method: 'POST',
      path: this.#paths.token,
      form: {
        client_id: this.#options.clientId,
        client_secret: this.#options.clientSecret,
        grant_type: 'client_credentials',
      },
    });
    const parsed = tokenSchema.safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('triple-a', `POST ${this.#paths.token}`, parsed.error.message);
    const lifetimeMs = Math.max(0, Number(parsed.data.expires_in ?? DEFAULT_TOKEN_LIFETIME_SECONDS) * 1000);
    // A short-lived token is renewed at half its life rather than a minute before its end.
    const marginMs = Math.min(TOKEN_RENEW_MARGIN_MS, lifetimeMs / 2);
    return { value: parsed.data.access_token, renewAtMs: this.#now().getTime() + lifetimeMs - marginMs };
  }
}

/** Triple-A documents no error body; these are the OAuth and common spellings. */
function describeTripleAError(body: unknown): { code?: string; message?: string } {
  if (body === null || typeof body !== 'object')
    return typeof body === 'string' && body ? { message: body.slice(0, MAX_ERROR_BODY_CHARS) } : {};
  const record = body as Record<string, unknown>;
  const text = (value: unknown) =>
    typeof value === 'string' && value ? value.slice(0, MAX_ERROR_MESSAGE_CHARS) : undefined;
  const code = text(record.code) ?? text(record.error);
  const message = text(record.message) ?? text(record.error_description) ?? text(record.error);
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}
