import crypto from 'node:crypto';
import { decimal, formatDecimal, mulToScale, parseDecimal } from '@platform/money';
import { NOWPAYMENTS_SIGNATURE_HEADER, nowPaymentsSignature } from '../signatures.ts';
import { type FakeAnswer, FakeProviderServer, type FakeRequest, postWebhook, text } from './fake-http.ts';

/**
 * A local stand-in for NOWPayments' API (third-party-apis.md §2) in the shapes of its Postman
 * collections: x-api-key on every call, a JWT from POST /auth for payouts and the payment list,
 * invoices, payments, mass payouts with verification by code (statuses in upper case, as the real
 * one often sends them), minimum amounts, fees, estimates, `{status:false, statusCode, code,
 * message}` errors, and IPN calls signed over the key-sorted body.
 */

export type FakeNowPayment = {
  payment_id: number;
  invoice_id: number | null;
  payment_status: string;
  pay_address: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  pay_currency: string;
  order_id: string | null;
  order_description: string | null;
  purchase_id: number;
  outcome_amount: number;
  outcome_currency: string;
  created_at: string;
  updated_at: string;
};

export type FakeNowWithdrawal = {
  id: string;
  batch_withdrawal_id: string;
  address: string;
  currency: string;
  amount: string;
  status: string;
  extra_id: string | null;
  hash: string | null;
  error: string | null;
  fee: number | null;
  ipn_callback_url: string | null;
  payout_description: string | null;
  unique_external_id: string | null;
  created_at: string;
  requested_at: string | null;
  updated_at: string;
};

type Invoice = {
  id: string;
  price_amount: number;
  price_currency: string;
  pay_currency: string | null;
  order_id: string | null;
  order_description: string | null;
  ipn_callback_url: string | null;
};

/** Estimate rates (1 from-unit in to-units) the fake knows. */
const RATES: Record<string, string> = { 'usd:btc': '0.0000148', 'btc:usd': '67500', 'eth:btc': '0.052' };

export class FakeNowPayments extends FakeProviderServer {
  apiKey = 'fake-api-key';
  ipnSecret = 'fake-ipn-secret';
  email = 'ops@example.com';
  password = 'fake-password';
  verificationCode = '123456';
  readonly invoices = new Map<string, Invoice>();
  readonly payments = new Map<number, FakeNowPayment>();
  readonly withdrawals = new Map<string, FakeNowWithdrawal>();
  #sequence = 5_000_000;

  /** A payer picks a coin on the invoice page and pays (or not): the invoice's payment appears or moves. */
  payInvoice(
    invoiceId: string,
    change: { payment_status: string; pay_amount?: number; actually_paid?: number; pay_currency?: string },
  ): FakeNowPayment {
    const invoice = this.invoices.get(invoiceId);
    if (!invoice) throw new Error(`no fake invoice ${invoiceId}`);
    const existing = [...this.payments.values()].find((payment) => payment.invoice_id === Number(invoiceId));
    const now = new Date().toISOString();
    const payment: FakeNowPayment = existing ?? {
      payment_id: ++this.#sequence,
      invoice_id: Number(invoiceId),
      payment_status: 'waiting',
      pay_address: '0x52908400098527886E0F7030069857D2E4169EE7',
      price_amount: invoice.price_amount,
      price_currency: invoice.price_currency,
      pay_amount: 0.0001,
      actually_paid: 0,
      pay_currency: invoice.pay_currency ?? 'btc',
      order_id: invoice.order_id,
      order_description: invoice.order_description,
      purchase_id: ++this.#sequence,
      outcome_amount: 0,
      outcome_currency: 'btc',
      created_at: now,
      updated_at: now,
    };
    Object.assign(payment, change, { updated_at: now });
    this.payments.set(payment.payment_id, payment);
    return payment;
  }

  setWithdrawal(id: string, change: Partial<FakeNowWithdrawal>): void {
    const withdrawal = this.withdrawals.get(id);
    if (!withdrawal) throw new Error(`no fake withdrawal ${id}`);
    Object.assign(withdrawal, change, { updated_at: new Date().toISOString() });
  }

  /** An IPN call as NOWPayments sends it: the body in its own key order, signed over sorted keys. */
  ipn(body: object, secret = this.ipnSecret) {
    return {
      rawBody: JSON.stringify(body),
      headers: { [NOWPAYMENTS_SIGNATURE_HEADER]: nowPaymentsSignature(secret, body) },
    };
  }

  paymentIpn(paymentId: number) {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`no fake payment ${paymentId}`);
    return this.ipn(payment);
  }

  withdrawalIpn(id: string) {
    const withdrawal = this.withdrawals.get(id);
    if (!withdrawal) throw new Error(`no fake withdrawal ${id}`);
    return this.ipn(withdrawal);
  }

  /** Sends the payment's IPN to its invoice's ipn_callback_url; answers the receiver's status. */
  async deliverPaymentIpn(paymentId: number): Promise<number> {
    const payment = this.payments.get(paymentId)!;
    const invoice = this.invoices.get(String(payment.invoice_id))!;
    const { rawBody, headers } = this.paymentIpn(paymentId);
    return postWebhook(invoice.ipn_callback_url ?? '', rawBody, headers);
  }

  protected override async route(request: FakeRequest): Promise<FakeAnswer> {
    const { method, path } = request;
    if (request.headers['x-api-key'] !== this.apiKey) return error(403, 'INVALID_API_KEY', 'Invalid api key');
    if (method === 'POST' && path === '/auth') return this.#auth(request);
    if (method === 'POST' && path === '/invoice') return this.#createInvoice(request);
    if (method === 'GET' && path === '/payment/') return this.#withJwt(request, () => this.#listPayments(request));
    let match = /^\/payment\/(\d+)$/.exec(path);
    if (method === 'GET' && match) {
      const payment = this.payments.get(Number(match[1]));
      return payment ? { status: 200, body: payment } : error(404, 'PAYMENT_NOT_FOUND', 'Payment not found');
    }
    if (method === 'POST' && path === '/payout') return this.#withJwt(request, () => this.#createPayout(request));
    match = /^\/payout\/([^/]+)\/verify$/.exec(path);
    if (method === 'POST' && match) return this.#withJwt(request, () => this.#verify(match![1]!, request));
    if (method === 'GET' && path === '/payout/fee') return this.#fee(request);
    match = /^\/payout\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const id = decodeURIComponent(match[1]!);
      const found = [...this.withdrawals.values()].filter((w) => w.id === id || w.batch_withdrawal_id === id);
      return found.length > 0 ? { status: 200, body: found } : error(404, 'NOT_FOUND', 'Payout not found');
    }
    match = /^\/payout-withdrawal\/min-amount\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const known = ['btc', 'eth', 'usdttrc20', 'ltc'].includes(match[1]!);
      return { status: 200, body: known ? { success: true, result: 0.0001 } : { success: false, result: null } };
    }
    if (method === 'GET' && path === '/estimate') return this.#estimate(request);
    return error(404, 'NOT_FOUND', `No route ${method} ${path}`);
  }

  #withJwt(request: FakeRequest, handler: () => FakeAnswer): FakeAnswer {
    if (!this.hasLiveToken(request)) {
      return error(401, 'AUTH_REQUIRED', 'Authorization header is empty (Bearer JWTtoken is required)');
    }
    return handler();
  }

  #auth(request: FakeRequest): FakeAnswer {
    if (request.body.email !== this.email || request.body.password !== this.password) {
      return error(401, 'INVALID_CREDENTIALS', 'Wrong email or password');
    }
    const token = `eyJ${crypto.randomBytes(24).toString('base64url')}`;
    this.issueToken(token);
    return { status: 200, body: { token } };
  }

  #createInvoice(request: FakeRequest): FakeAnswer {
    const body = request.body;
    const price = text(body.price_amount);
    if (price === undefined || typeof body.price_currency !== 'string') {
      return error(400, 'INVALID_REQUEST_PARAMS', 'price_amount and price_currency are required');
    }
    const id = String(++this.#sequence);
    const invoice: Invoice = {
      id,
      price_amount: Number(price),
      price_currency: body.price_currency,
      pay_currency: text(body.pay_currency) ?? null,
      order_id: text(body.order_id) ?? null,
      order_description: text(body.order_description) ?? null,
      ipn_callback_url: text(body.ipn_callback_url) ?? null,
    };
    this.invoices.set(id, invoice);
    const now = new Date().toISOString();
    return {
      status: 200,
      body: {
        id,
        token_id: crypto.randomBytes(5).toString('hex'),
        order_id: invoice.order_id,
        order_description: invoice.order_description,
        price_amount: price,
        price_currency: invoice.price_currency,
        pay_currency: invoice.pay_currency,
        ipn_callback_url: invoice.ipn_callback_url,
        invoice_url: `${this.baseUrl}/payment/?iid=${id}`,
        success_url: text(body.success_url) ?? null,
        cancel_url: text(body.cancel_url) ?? null,
        created_at: now,
        updated_at: now,
      },
    };
  }

  #listPayments(request: FakeRequest): FakeAnswer {
    const invoiceId = request.query.get('invoiceId');
    const data = [...this.payments.values()]
      .filter((payment) => invoiceId === null || String(payment.invoice_id) === invoiceId)
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    return { status: 200, body: { data, limit: 100, page: 0, pagesCount: 1, total: data.length } };
  }

  #createPayout(request: FakeRequest): FakeAnswer {
    const withdrawals = request.body.withdrawals;
    if (!Array.isArray(withdrawals) || withdrawals.length === 0) {
      return error(400, 'BAD_CREATE_WITHDRAWAL_REQUEST', 'withdrawals must be a non-empty array');
    }
    const batchId = String(++this.#sequence);
    const now = new Date().toISOString();
    const created: FakeNowWithdrawal[] = [];
    for (const item of withdrawals as Record<string, unknown>[]) {
      const amount = text(item.amount);
      if (amount === undefined || !/^\d+(\.\d{1,6})?$/.test(amount) || typeof item.address !== 'string') {
        return error(400, 'BAD_CREATE_WITHDRAWAL_REQUEST', 'amount must have at most 6 decimals');
      }
      if (typeof item.currency !== 'string' || item.currency !== item.currency.toLowerCase()) {
        return error(400, 'BAD_CREATE_WITHDRAWAL_REQUEST', 'currency must be a lower-case ticker');
      }
      created.push({
        id: String(++this.#sequence),
        batch_withdrawal_id: batchId,
        address: item.address,
        currency: item.currency,
        amount,
        status: 'CREATING',
        extra_id: text(item.extra_id) ?? null,
        hash: null,
        error: null,
        fee: null,
        ipn_callback_url: text(item.ipn_callback_url) ?? null,
        payout_description: text(item.payout_description) ?? null,
        unique_external_id: text(item.unique_external_id) ?? null,
        created_at: now,
        requested_at: null,
        updated_at: now,
      });
    }
    for (const withdrawal of created) this.withdrawals.set(withdrawal.id, withdrawal);
    return { status: 200, body: { id: batchId, withdrawals: created } };
  }

  #verify(batchId: string, request: FakeRequest): FakeAnswer {
    const batch = [...this.withdrawals.values()].filter((w) => w.batch_withdrawal_id === batchId);
    if (batch.length === 0) return error(404, 'NOT_FOUND', 'Payout not found');
    if (request.body.verification_code !== this.verificationCode) {
      return error(400, 'INVALID_VERIFICATION_CODE', 'Wrong verification code');
    }
    for (const withdrawal of batch) {
      if (withdrawal.status === 'CREATING')
        Object.assign(withdrawal, { status: 'WAITING', requested_at: new Date().toISOString() });
    }
    return { status: 200, text: 'OK' };
  }

  #fee(request: FakeRequest): FakeAnswer {
    const currency = request.query.get('currency');
    const amount = request.query.get('amount');
    if (!currency || !amount) return error(400, 'INVALID_REQUEST_PARAMS', 'currency and amount are required');
    return { status: 200, body: { currency, fee: 0.00002 } };
  }

  #estimate(request: FakeRequest): FakeAnswer {
    const from = request.query.get('currency_from') ?? '';
    const to = request.query.get('currency_to') ?? '';
    const amount = parseDecimal(request.query.get('amount') ?? '');
    const rate = RATES[`${from}:${to}`];
    if (rate === undefined || !amount.ok) return error(400, 'INVALID_REQUEST_PARAMS', 'Unknown currency pair');
    const estimated = formatDecimal(mulToScale(amount.value, decimal(rate), 8, 'down'));
    return {
      status: 200,
      body: {
        currency_from: from,
        amount_from: Number(request.query.get('amount')),
        currency_to: to,
        estimated_amount: estimated,
      },
    };
  }
}

function error(statusCode: number, code: string, message: string): FakeAnswer {
  return { status: statusCode, body: { status: false, statusCode, code, message } };
}
