import { z } from 'zod';
import { dateFromProvider, decimalFromProvider, decimalPlaces, proportion, ZERO_TEXT } from './amounts.ts';
import {
  BearerToken,
  callProvider,
  callWithBearer,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  jsonAmount,
  MAX_ERROR_BODY_CHARS,
  MAX_ERROR_CODE_CHARS,
  MAX_ERROR_MESSAGE_CHARS,
  type ProviderAnswer,
  type ProviderCall,
  type ProviderClientOptions,
  unexpectedAnswer,
} from './http.ts';
import {
  checkNowPaymentsSignature,
  NOWPAYMENTS_SIGNATURE_HEADER,
  signedJsonObject,
  webhookEventId,
} from './signatures.ts';
import {
  type Checkout,
  type CheckoutRequest,
  type LightningInvoice,
  type LightningInvoiceRequest,
  type PaymentProvider,
  type PaymentState,
  type PaymentStatus,
  type PayoutRequest,
  type PayoutState,
  type PayoutStatus,
  ProviderError,
  type WebhookCheck,
  type WebhookInput,
} from './types.ts';

/**
 * NOWPayments (third-party-apis.md §2): x-api-key on every call, a JWT from /auth for payouts,
 * hosted checkout through the invoice API, mass payouts with the §3.5 payout item, verification by
 * code, IPN signatures. NOWPayments spells currencies in lower case and statuses in either case.
 */

export const NOWPAYMENTS_PATHS = {
  auth: '/auth',
  invoice: '/invoice',
  /** The payment list, filtered by invoice: how an invoice's payment is found. */
  payments: '/payment/',
  payment: '/payment/{id}',
  payout: '/payout',
  verify: '/payout/{batch}/verify',
  payoutStatus: '/payout/{id}',
  minimum: '/payout-withdrawal/min-amount/{coin}',
  fee: '/payout/fee',
  estimate: '/estimate',
};
export type NowPaymentsPaths = typeof NOWPAYMENTS_PATHS;

export type NowPaymentsOptions = {
  apiUrl: string;
  apiKey: string;
  ipnSecret: string;
  /** The account's login: payouts need a JWT from POST /auth. */
  email: string;
  password: string;
  clock?: () => Date;
  timeoutMs?: number;
  paths?: Partial<NowPaymentsPaths>;
};

/** NOWPayments' JWT lives 5 minutes; one is used for at most 4, so none expires in flight. */
const JWT_REUSE_MS = 4 * 60_000;
/** NOWPayments takes payout amounts with at most this many decimals. */
export const NOWPAYMENTS_PAYOUT_DECIMALS = 6;
/** Checkouts this process created, remembered until a payment exists to read them from. */
const MAX_REMEMBERED_CHECKOUTS = 10_000;

const idField = z.union([z.string().min(1), z.number()]).transform(String);
const amountField = z.union([z.string(), z.number()]).nullish();

const invoiceSchema = z.looseObject({ id: idField, invoice_url: z.string().min(1), order_id: z.string().nullish() });
const paymentSchema = z.looseObject({
  payment_id: idField,
  invoice_id: idField.nullish(),
  payment_status: z.string().min(1),
  price_amount: amountField,
  price_currency: z.string().min(1),
  pay_amount: amountField,
  actually_paid: amountField,
  pay_currency: z.string().nullish(),
  order_id: z.string().nullish(),
  updated_at: z.string().nullish(),
});
type NowPayment = z.infer<typeof paymentSchema>;
const paymentListSchema = z.looseObject({ data: z.array(z.unknown()) });
const withdrawalSchema = z.looseObject({
  id: idField,
  batch_withdrawal_id: idField.nullish(),
  status: z.string().min(1),
  amount: amountField,
  currency: z.string().nullish(),
  address: z.string().nullish(),
  fee: amountField,
  hash: z.string().nullish(),
  error: z.string().nullish(),
  unique_external_id: z.string().nullish(),
  updated_at: z.string().nullish(),
});
type NowWithdrawal = z.infer<typeof withdrawalSchema>;
const payoutCreatedSchema = z.looseObject({ id: idField, withdrawals: z.array(withdrawalSchema).min(1) });

const PAYMENT_STATUSES: Record<string, { status: PaymentStatus; final: boolean }> = {
  waiting: { status: 'waiting', final: false },
  confirming: { status: 'confirming', final: false },
  // Confirmed on chain but not yet settled to us: still not credited (finished is).
  confirmed: { status: 'confirming', final: false },
  sending: { status: 'confirming', final: false },
  partially_paid: { status: 'underpaid', final: true },
  finished: { status: 'paid', final: true },
  failed: { status: 'failed', final: true },
  refunded: { status: 'refunded', final: true },
  expired: { status: 'expired', final: true },
};
/** When an invoice has several payments (a payer tried twice), the most advanced one speaks. */
const PAYMENT_RANK: Record<PaymentStatus, number> = {
  paid: 6,
  underpaid: 5,
  confirming: 4,
  refunded: 3,
  waiting: 2,
  failed: 1,
  expired: 0,
};

const PAYOUT_STATUSES: Record<string, PayoutStatus> = {
  creating: 'creating',
  waiting: 'waiting',
  processing: 'processing',
  sending: 'sending',
  finished: 'finished',
  failed: 'failed',
  rejected: 'rejected',
  cancelled: 'rejected',
  canceled: 'rejected',
};

export class NowPaymentsAdapter implements PaymentProvider {
  readonly name = 'nowpayments' as const;
  /** NOWPayments does not document refusing a repeated unique_external_id: never resent blindly. */
  readonly idempotentPayouts = false;
  readonly #options: NowPaymentsOptions;
  readonly #paths: NowPaymentsPaths;
  readonly #client: ProviderClientOptions;
  readonly #checkouts = new Map<string, { orderCurrency: string; orderAmount: string; reference: string }>();
  readonly #jwt: BearerToken;

  constructor(options: NowPaymentsOptions) {
    this.#options = options;
    this.#paths = { ...NOWPAYMENTS_PATHS, ...options.paths };
    this.#client = {
      provider: 'nowpayments',
      baseUrl: options.apiUrl.replace(/\/$/, ''),
      timeoutMs: options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
      describeError: describeNowPaymentsError,
    };
    this.#jwt = new BearerToken(
      () => this.#requestToken(),
      () => this.#now(),
    );
  }

  /**
   * Hosted checkout through the invoice API (POST /invoice -> invoice_url), where the payer picks
   * the coin. The provider reference is the invoice id; IPN calls carry it as invoice_id. Our
   * reference travels as order_id; NOWPayments does not document refusing a repeated order_id.
   */
  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const answer = await this.#call({
      method: 'POST',
      path: this.#paths.invoice,
      json: {
        price_amount: jsonAmount('nowpayments', request.orderAmount, 'orderAmount'),
        price_currency: request.orderCurrency.toLowerCase(),
        ...(request.payCurrency ? { pay_currency: request.payCurrency.toLowerCase() } : {}),
        ipn_callback_url: request.notifyUrl,
        order_id: request.reference,
        order_description: request.description,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
    });
    const parsed = invoiceSchema.safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('nowpayments', 'POST /invoice', parsed.error.message);
    this.#remember(parsed.data.id, {
      orderCurrency: request.orderCurrency.toUpperCase(),
      orderAmount: request.orderAmount,
      reference: request.reference,
    });
    return {
      providerReference: parsed.data.id,
      hostedUrl: parsed.data.invoice_url,
      expiresAt: new Date(this.#now().getTime() + request.expiresInSeconds * 1000),
      cryptoCurrency: request.payCurrency ? request.payCurrency.toUpperCase() : null,
      cryptoAddress: null,
      cryptoAmount: null,
      exchangeRate: null,
    };
  }

  /**
   * The invoice's payment: found in the payment list (filtered by invoice), then read with
   * GET /payment/{id}. An invoice nobody has started paying is `waiting`.
   */
  async paymentStatus(providerReference: string): Promise<PaymentState> {
    const list = await this.#call(
      {
        method: 'GET',
        path: this.#paths.payments,
        query: { invoiceId: providerReference, limit: '100', page: '0', sortBy: 'updated_at', orderBy: 'desc' },
      },
      { jwt: true },
    );
    const parsedList = paymentListSchema.safeParse(list.body);
    if (!parsedList.success) throw unexpectedAnswer('nowpayments', 'GET /payment/', parsedList.error.message);
    const listed = parsedList.data.data.flatMap((item) => {
      const parsed = paymentSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    if (listed.length === 0) return this.#notStarted(providerReference);
    const candidates = listed
      .map((payment) => ({ payment, state: nowPaymentState(payment, providerReference, this.#now()) }))
      .filter((candidate) => candidate.state !== null);
    // A status we do not know is a change on NOWPayments' side: said loudly, never read as unpaid.
    if (candidates.length === 0) {
      throw unexpectedAnswer('nowpayments', 'GET /payment/', `unknown status ${listed[0]?.payment_status}`);
    }
    candidates.sort((a, b) => PAYMENT_RANK[b.state!.status] - PAYMENT_RANK[a.state!.status]);
    const best = candidates[0]!;

    const path = this.#paths.payment.replace('{id}', encodeURIComponent(best.payment.payment_id));
    const answer = await this.#call({ method: 'GET', path });
    const parsed = paymentSchema.safeParse(answer.body);
    const state = parsed.success ? nowPaymentState(parsed.data, providerReference, this.#now()) : null;
    if (!state)
      throw unexpectedAnswer('nowpayments', `GET ${path}`, parsed.success ? 'unknown status' : parsed.error.message);
    return state;
  }

  async createLightningInvoice(_request: LightningInvoiceRequest): Promise<LightningInvoice> {
    throw unsupported('Lightning invoices');
  }

  async lightningStatus(_providerReference: string): Promise<{ paid: boolean; expired: boolean }> {
    throw unsupported('Lightning invoices');
  }

  /** NOWPayments has no refund call in its public API: refunds are made from its dashboard. */
  async refund(_providerReference: string, _amount: string, _email: string): Promise<{ refundReference: string }> {
    throw unsupported('Refunds');
  }

  /**
   * One payout item (§3.5) in a batch of one. Our reference is unique_external_id; NOWPayments
   * keeps and echoes it but does not document refusing a repeated one.
   */
  async createPayout(request: PayoutRequest): Promise<PayoutState> {
    if (typeof request.amount === 'string' && decimalPlaces(request.amount) > NOWPAYMENTS_PAYOUT_DECIMALS) {
      throw new ProviderError(
        `NOWPayments takes payout amounts with at most ${NOWPAYMENTS_PAYOUT_DECIMALS} decimals (${request.amount} has more)`,
        { provider: 'nowpayments', code: 'AMOUNT_TOO_PRECISE', retryable: false },
      );
    }
    const amount = jsonAmount('nowpayments', request.amount, 'amount', NOWPAYMENTS_PAYOUT_DECIMALS);
    const answer = await this.#call(
      {
        method: 'POST',
        path: this.#paths.payout,
        json: {
          ipn_callback_url: request.notifyUrl,
          payout_description: request.description,
          withdrawals: [
            {
              address: request.address,
              currency: (request.networkCode ?? request.currency).toLowerCase(),
              amount,
              ...(request.extraId ? { extra_id: request.extraId } : {}),
              ipn_callback_url: request.notifyUrl,
              payout_description: request.description,
              unique_external_id: request.reference,
            },
          ],
        },
      },
      { jwt: true },
    );
    const parsed = payoutCreatedSchema.safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('nowpayments', 'POST /payout', parsed.error.message);
    const [withdrawal] = parsed.data.withdrawals;
    const state = withdrawal ? nowPayoutState(withdrawal, this.#now(), parsed.data.id) : null;
    if (!state) throw unexpectedAnswer('nowpayments', 'POST /payout', 'unknown withdrawal status');
    return { ...state, reference: state.reference ?? request.reference };
  }

  /** POST /payout/{batch}/verify with the account's 2FA code (10 attempts; 1 h before rejection). */
  async verifyPayout(batchId: string, verificationCode: string): Promise<void> {
    const path = this.#paths.verify.replace('{batch}', encodeURIComponent(batchId));
    await this.#call({ method: 'POST', path, json: { verification_code: verificationCode } }, { jwt: true });
  }

  async payoutStatus(providerReference: string): Promise<PayoutState> {
    const path = this.#paths.payoutStatus.replace('{id}', encodeURIComponent(providerReference));
    const answer = await this.#call({ method: 'GET', path });
    // Seen as a list of withdrawals, a single one, or a batch with its withdrawals.
    const body = answer.body as unknown;
    const items: unknown[] = Array.isArray(body)
      ? body
      : body !== null && typeof body === 'object' && 'withdrawals' in body && Array.isArray(body.withdrawals)
        ? body.withdrawals
        : [body];
    const withdrawals = items.flatMap((item) => {
      const parsed = withdrawalSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    const withdrawal = withdrawals.find((item) => item.id === providerReference) ?? withdrawals[0];
    const state = withdrawal ? nowPayoutState(withdrawal, this.#now()) : null;
    if (!state) throw unexpectedAnswer('nowpayments', `GET ${path}`, 'no withdrawal with a known status');
    return state;
  }

  async minimumPayout(currency: string): Promise<string | null> {
    const path = this.#paths.minimum.replace('{coin}', encodeURIComponent(currency.toLowerCase()));
    const answer = await this.#call({ method: 'GET', path });
    const body = z.looseObject({ success: z.boolean().optional(), result: amountField }).safeParse(answer.body);
    if (!body.success || body.data.success === false) return null;
    return decimalFromProvider(body.data.result);
  }

  async payoutFee(currency: string, amount: string): Promise<string | null> {
    const answer = await this.#call({
      method: 'GET',
      path: this.#paths.fee,
      query: { currency: currency.toLowerCase(), amount },
    });
    const body = z.looseObject({ fee: amountField }).safeParse(answer.body);
    return body.success ? decimalFromProvider(body.data.fee) : null;
  }

  async estimate(amount: string, from: string, to: string): Promise<string | null> {
    const answer = await this.#call({
      method: 'GET',
      path: this.#paths.estimate,
      query: { amount, currency_from: from.toLowerCase(), currency_to: to.toLowerCase() },
    });
    const body = z.looseObject({ estimated_amount: amountField }).safeParse(answer.body);
    return body.success ? decimalFromProvider(body.data.estimated_amount) : null;
  }

  /**
   * An IPN call: signature over the key-sorted body. NOWPayments signs no timestamp, so there is
   * no stale check; a replay has the same event id and is credited once by the caller.
   */
  verifyWebhook(input: WebhookInput): WebhookCheck {
    const signed = signedJsonObject(input, NOWPAYMENTS_SIGNATURE_HEADER);
    if (!signed.ok) return signed;
    const { header, body } = signed;
    const verdict = checkNowPaymentsSignature(header, body, this.#options.ipnSecret);
    if (verdict !== 'ok') return { ok: false, reason: verdict };

    const eventId = webhookEventId('nowpayments', body);
    if ('payment_status' in body) {
      const parsed = paymentSchema.safeParse(body);
      if (!parsed.success) return { ok: false, reason: 'malformed' };
      const providerReference = parsed.data.invoice_id ?? parsed.data.payment_id;
      const payment = nowPaymentState(parsed.data, providerReference, input.now);
      return payment ? { ok: true, eventId, event: { kind: 'payment', payment } } : { ok: false, reason: 'malformed' };
    }
    const parsed = withdrawalSchema.safeParse(body);
    const payout = parsed.success ? nowPayoutState(parsed.data, input.now) : null;
    return payout ? { ok: true, eventId, event: { kind: 'payout', payout } } : { ok: false, reason: 'malformed' };
  }

  #now(): Date {
    return this.#options.clock?.() ?? new Date();
  }

  #remember(invoiceId: string, checkout: { orderCurrency: string; orderAmount: string; reference: string }): void {
    if (this.#checkouts.size >= MAX_REMEMBERED_CHECKOUTS) {
      const oldest = this.#checkouts.keys().next();
      if (!oldest.done) this.#checkouts.delete(oldest.value);
    }
    this.#checkouts.set(invoiceId, checkout);
  }

  /**
   * An invoice with no payment yet. Its order is known when this process created it; after a
   * restart the caller's own record has it (orderCurrency is then empty, orderAmount 0).
   */
  #notStarted(providerReference: string): PaymentState {
    const known = this.#checkouts.get(providerReference);
    return {
      providerReference,
      reference: known?.reference ?? null,
      status: 'waiting',
      final: false,
      orderCurrency: known?.orderCurrency ?? '',
      orderAmount: known?.orderAmount ?? ZERO_TEXT,
      cryptoCurrency: null,
      cryptoAmount: null,
      confirmedOrderAmount: ZERO_TEXT,
      unconfirmedOrderAmount: ZERO_TEXT,
      updatedAt: this.#now(),
    };
  }

  /** Every call carries x-api-key; payout calls carry the JWT too (a 401 renews it once). */
  async #call(call: ProviderCall, options: { jwt?: boolean } = {}): Promise<ProviderAnswer> {
    const headers = { ...call.headers, 'x-api-key': this.#options.apiKey };
    if (!options.jwt) return callProvider(this.#client, { ...call, headers });
    return callWithBearer(this.#client, this.#jwt, { ...call, headers });
  }

  async #requestToken(): Promise<{ value: string; renewAtMs: number }> {
    const answer = await callProvider(this.#client, {
      method: 'POST',
      path: this.#paths.auth,
      headers: { 'x-api-key': this.#options.apiKey },
      json: { email: this.#options.email, password: this.#options.password },
    });
    const parsed = z.looseObject({ token: z.string().min(1) }).safeParse(answer.body);
    if (!parsed.success) throw unexpectedAnswer('nowpayments', `POST ${this.#paths.auth}`, parsed.error.message);
    return { value: parsed.data.token, renewAtMs: this.#now().getTime() + JWT_REUSE_MS };
  }
}

/** A NOWPayments payment in our words; null for a status we do not know. */
export function nowPaymentState(payment: NowPayment, providerReference: string, now: Date): PaymentState | null {
  const known = PAYMENT_STATUSES[payment.payment_status.toLowerCase()];
  const price = decimalFromProvider(payment.price_amount);
  if (!known || price === null) return null;
  const payAmount = decimalFromProvider(payment.pay_amount);
  const paid = decimalFromProvider(payment.actually_paid);
  // What was sent, in the order currency: the paid share of the price (never more than the price).
  const paidInOrder = paid !== null && payAmount !== null ? proportion(price, paid, payAmount, 8) : price;
  let confirmed = ZERO_TEXT;
  let unconfirmed = ZERO_TEXT;
  if (known.status === 'paid') confirmed = price;
  else if (known.status === 'underpaid') confirmed = paidInOrder;
  else if (known.status === 'confirming') unconfirmed = paidInOrder;
  return {
    providerReference,
    reference: payment.order_id ?? null,
    status: known.status,
    final: known.final,
    orderCurrency: payment.price_currency.toUpperCase(),
    orderAmount: price,
    cryptoCurrency: payment.pay_currency ? payment.pay_currency.toUpperCase() : null,
    cryptoAmount: payAmount,
    confirmedOrderAmount: confirmed,
    unconfirmedOrderAmount: unconfirmed,
    updatedAt: dateFromProvider(payment.updated_at, now),
  };
}

/** A NOWPayments withdrawal in our words; null for a status we do not know. */
export function nowPayoutState(withdrawal: NowWithdrawal, now: Date, batchId?: string): PayoutState | null {
  const status = PAYOUT_STATUSES[withdrawal.status.toLowerCase()];
  if (!status) return null;
  return {
    providerReference: withdrawal.id,
    batchId: withdrawal.batch_withdrawal_id ?? batchId ?? withdrawal.id,
    reference: withdrawal.unique_external_id ?? null,
    status,
    // A payout waits in `creating` until verified with the account's 2FA code.
    needsVerification: status === 'creating',
    networkFee: decimalFromProvider(withdrawal.fee),
    hash: withdrawal.hash ?? null,
    error: withdrawal.error ?? null,
    updatedAt: dateFromProvider(withdrawal.updated_at, now),
  };
}

function unsupported(what: string): ProviderError {
  return new ProviderError(`${what} are not available through NOWPayments`, {
    provider: 'nowpayments',
    code: 'UNSUPPORTED',
    retryable: false,
  });
}

/** `{status:false, statusCode, code, message}` */
function describeNowPaymentsError(body: unknown): { code?: string; message?: string } {
  if (body === null || typeof body !== 'object')
    return typeof body === 'string' && body ? { message: body.slice(0, MAX_ERROR_BODY_CHARS) } : {};
  const record = body as Record<string, unknown>;
  const code = typeof record.code === 'string' && record.code ? record.code.slice(0, MAX_ERROR_CODE_CHARS) : undefined;
  const message =
    typeof record.message === 'string' && record.message ? record.message.slice(0, MAX_ERROR_MESSAGE_CHARS) : undefined;
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}
