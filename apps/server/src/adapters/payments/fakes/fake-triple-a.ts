import crypto from 'node:crypto';
import { makeTestnetInvoice } from '../bolt11.ts';
import { TRIPLEA_SIGNATURE_HEADER, tripleASignatureHeader } from '../signatures.ts';
import { type FakeAnswer, FakeProviderServer, type FakeRequest, postWebhook, text } from './fake-http.ts';

/**
 * A local stand-in for Triple-A's API v2 (third-party-apis.md §1) in its documented shapes: OAuth
 * client credentials, hosted payments and their status, payouts to an address with confirm and
 * cancel, local refunds, and webhooks signed with each payment's notify_secret. Tests move a
 * payment or payout with setPayment / setPayout, script failures with failNext, and make it send
 * (or hand over) a signed webhook. Lightning answers 404 unless `lightningEnabled`, as the real
 * API's Lightning path is unknown.
 */

export type FakeTripleAPayment = {
  payment_reference: string;
  merchant_key: string;
  order_currency: string;
  order_amount: string;
  payer_id: string;
  success_url: string;
  cancel_url: string;
  notify_url: string;
  notify_secret: string;
  webhook_data: unknown;
  sandbox: boolean;
  payment_tier: string;
  status: string;
  crypto_currency: string | null;
  crypto_address: string | null;
  crypto_amount: string | null;
  exchange_rate: string | null;
  confirmed_order_amt: string;
  unconfirmed_order_amt: string;
  expiry_date: string;
  status_date: string;
};

export type FakeTripleAPayout = {
  payout_reference: string;
  status: string;
  crypto_currency: string;
  crypto_amount: string;
  network_fee_crypto_amount: string;
  address: string;
  remarks: string;
  notify_url: string;
  notify_secret: string;
  webhook_data: unknown;
  tx_hash: string | null;
};

const UNAUTHORIZED: FakeAnswer = { status: 401, body: { error: 'unauthorized', message: 'Invalid or expired token' } };

export class FakeTripleA extends FakeProviderServer {
  clientId = 'fake-client-id';
  clientSecret = 'fake-client-secret';
  merchantKey = 'fake-merchant-key';
  tokenLifetimeSeconds = 3600;
  lightningEnabled = false;
  readonly payments = new Map<string, FakeTripleAPayment>();
  readonly payouts = new Map<string, FakeTripleAPayout>();
  readonly refunds: Record<string, unknown>[] = [];
  readonly lightning = new Map<string, { status: string; expiry_date: string }>();
  readonly #nodeKey = crypto.randomBytes(32);
  #sequence = 400_000;

  setPayment(reference: string, change: Partial<FakeTripleAPayment>): void {
    const payment = this.payments.get(reference);
    if (!payment) throw new Error(`no fake payment ${reference}`);
    Object.assign(payment, change, { status_date: new Date().toISOString() });
  }

  setPayout(reference: string, change: Partial<FakeTripleAPayout>): void {
    const payout = this.payouts.get(reference);
    if (!payout) throw new Error(`no fake payout ${reference}`);
    Object.assign(payout, change);
  }

  /** The payment webhook as Triple-A sends it: body and signature header (t defaults to now). */
  paymentWebhook(reference: string, options: { unixSeconds?: number; secret?: string } = {}) {
    const payment = this.payments.get(reference);
    if (!payment) throw new Error(`no fake payment ${reference}`);
    const body = { event: 'payment', type: 'triplea', api_id: 'HA1234567890', ...this.#paymentView(payment), txs: [] };
    return this.#signed(body, options.secret ?? payment.notify_secret, options.unixSeconds);
  }

  payoutWebhook(reference: string, options: { unixSeconds?: number; secret?: string } = {}) {
    const payout = this.payouts.get(reference);
    if (!payout) throw new Error(`no fake payout ${reference}`);
    const body = { event: 'payout', ...this.#payoutView(payout), webhook_data: payout.webhook_data };
    return this.#signed(body, options.secret ?? payout.notify_secret, options.unixSeconds);
  }

  /** Sends the payment webhook to the payment's notify_url; answers the receiver's status. */
  async deliverPaymentWebhook(reference: string): Promise<number> {
    const { rawBody, headers } = this.paymentWebhook(reference);
    return postWebhook(this.payments.get(reference)!.notify_url, rawBody, headers);
  }

  #signed(body: unknown, secret: string, unixSeconds = Date.now() / 1000) {
    const rawBody = JSON.stringify(body);
    return { rawBody, headers: { [TRIPLEA_SIGNATURE_HEADER]: tripleASignatureHeader(secret, rawBody, unixSeconds) } };
  }

  protected override async route(request: FakeRequest): Promise<FakeAnswer> {
    const { method, path } = request;
    if (method === 'POST' && path === '/oauth/token') return this.#token(request);
    if (!this.hasLiveToken(request)) return UNAUTHORIZED;

    if (method === 'POST' && path === '/payment') return this.#createPayment(request);
    let match = /^\/payment\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const payment = this.payments.get(decodeURIComponent(match[1]!));
      return payment ? { status: 200, body: this.#paymentView(payment) } : notFound('payment');
    }
    if (method === 'POST' && path === '/payout/withdraw/local/crypto/direct') return this.#createPayout(request);
    match = /^\/payout\/withdraw\/([^/]+)\/local\/crypto\/(confirm|cancel)$/.exec(path);
    if (method === 'PUT' && match)
      return this.#decidePayout(decodeURIComponent(match[1]!), match[2] as 'confirm' | 'cancel');
    match = /^\/payout\/withdraw\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const payout = this.payouts.get(decodeURIComponent(match[1]!));
      return payout ? { status: 200, body: this.#payoutView(payout) } : notFound('payout');
    }
    if (method === 'POST' && path === '/payout/refund/local') return this.#refund(request);
    if (this.lightningEnabled && method === 'POST' && path === '/lightning/payment')
      return this.#createLightning(request);
    match = /^\/lightning\/payment\/([^/]+)$/.exec(path);
    if (this.lightningEnabled && method === 'GET' && match) {
      const invoice = this.lightning.get(decodeURIComponent(match[1]!));
      return invoice ? { status: 200, body: { payment_reference: match[1], ...invoice } } : notFound('invoice');
    }
    return notFound('route');
  }

  #token(request: FakeRequest): FakeAnswer {
    const form = request.body;
    if (
      !(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded') ||
      form.grant_type !== 'client_credentials' ||
      form.client_id !== this.clientId ||
      form.client_secret !== this.clientSecret
    ) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
    }
    const token = crypto.randomBytes(16).toString('hex');
    this.issueToken(token);
    return {
      status: 200,
      body: {
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.tokenLifetimeSeconds,
        scope: 'client-credentials',
      },
    };
  }

  #createPayment(request: FakeRequest): FakeAnswer {
    const body = request.body;
    if (body.merchant_key !== this.merchantKey) return badRequest('invalid_merchant_key', 'Unknown merchant key');
    const orderAmount = text(body.order_amount);
    if (body.type !== 'triplea' || typeof body.order_currency !== 'string' || orderAmount === undefined) {
      return badRequest('invalid_request', 'type, order_currency and order_amount are required');
    }
    if (typeof body.notify_url !== 'string' || typeof body.notify_secret !== 'string') {
      return badRequest('invalid_request', 'notify_url and notify_secret are required');
    }
    const reference = `PMA-${++this.#sequence}-PMT`;
    const payment: FakeTripleAPayment = {
      payment_reference: reference,
      merchant_key: body.merchant_key,
      order_currency: body.order_currency,
      order_amount: orderAmount,
      payer_id: text(body.payer_id) ?? '',
      success_url: text(body.success_url) ?? '',
      cancel_url: text(body.cancel_url) ?? '',
      notify_url: body.notify_url,
      notify_secret: body.notify_secret,
      webhook_data: body.webhook_data,
      sandbox: body.sandbox === true,
      payment_tier: 'none',
      status: 'new',
      crypto_currency: body.sandbox === true ? 'testBTC' : 'BTC',
      crypto_address: 'tb1qfakefakefakefakefakefakefakefakefake0',
      crypto_amount: null,
      exchange_rate: null,
      confirmed_order_amt: '0',
      unconfirmed_order_amt: '0',
      expiry_date: new Date(Date.now() + 25 * 60_000).toISOString(),
      status_date: new Date().toISOString(),
    };
    this.payments.set(reference, payment);
    return {
      status: 200,
      body: {
        payment_reference: reference,
        access_token: crypto.randomBytes(8).toString('hex'),
        hosted_url: `${this.baseUrl}/hosted/${reference}`,
        notify_secret: payment.notify_secret,
        expiry_date: payment.expiry_date,
      },
    };
  }

  #paymentView(payment: FakeTripleAPayment) {
    const { merchant_key, notify_secret: _secret, success_url: _s, cancel_url: _c, ...view } = payment;
    return { merchant_key, ...view };
  }

  #createPayout(request: FakeRequest): FakeAnswer {
    const body = request.body;
    if (body.merchant_key !== this.merchantKey) return badRequest('invalid_merchant_key', 'Unknown merchant key');
    const amount = text(body.withdraw_amount);
    if (amount === undefined || typeof body.address !== 'string' || typeof body.crypto_currency !== 'string') {
      return badRequest('invalid_request', 'withdraw_amount, crypto_currency and address are required');
    }
    const reference = `POR-${++this.#sequence}-PO`;
    this.payouts.set(reference, {
      payout_reference: reference,
      status: 'new',
      crypto_currency: body.crypto_currency,
      crypto_amount: amount,
      network_fee_crypto_amount: '0.00001',
      address: body.address,
      remarks: text(body.remarks) ?? '',
      notify_url: text(body.notify_url) ?? '',
      notify_secret: text(body.notify_secret) ?? '',
      webhook_data: body.webhook_data,
      tx_hash: null,
    });
    return {
      status: 200,
      body: {
        payout_reference: reference,
        crypto_amount: Number(amount),
        network_fee_crypto_amount: 0.00001,
        net_crypto_amount: Number(amount),
        local_currency: body.withdraw_currency,
        crypto_currency: body.crypto_currency,
        exchange_rate: 1,
      },
    };
  }

  #decidePayout(reference: string, decision: 'confirm' | 'cancel'): FakeAnswer {
    const payout = this.payouts.get(reference);
    if (!payout) return notFound('payout');
    if (payout.status !== 'new') return badRequest('invalid_state', `payout is ${payout.status}`);
    payout.status = decision === 'confirm' ? 'confirmed' : 'cancelled';
    return { status: 200, body: this.#payoutView(payout) };
  }

  #payoutView(payout: FakeTripleAPayout) {
    const { notify_secret: _secret, notify_url: _url, webhook_data: _data, ...view } = payout;
    return view;
  }

  #refund(request: FakeRequest): FakeAnswer {
    const body = request.body;
    if (typeof body.payment_reference !== 'string' || !this.payments.has(body.payment_reference))
      return notFound('payment');
    if (text(body.refund_amount) === undefined || typeof body.email !== 'string') {
      return badRequest('invalid_request', 'refund_amount and email are required');
    }
    const refund = { refund_reference: `RFD-${++this.#sequence}`, ...body };
    this.refunds.push(refund);
    return { status: 200, body: { refund_reference: refund.refund_reference, status: 'new' } };
  }

  #createLightning(request: FakeRequest): FakeAnswer {
    const amount = text(request.body.order_amount);
    if (amount === undefined) return badRequest('invalid_request', 'order_amount is required');
    const [whole = '0', fraction = ''] = amount.split('.');
    const made = makeTestnetInvoice({
      amountMsat: BigInt(whole) * 100_000_000_000n + BigInt(fraction.padEnd(11, '0')),
      description: text(request.body.description) ?? '',
      expirySeconds: 900,
      timestamp: Math.floor(Date.now() / 1000),
      nodeKey: this.#nodeKey,
    });
    const reference = `LNA-${++this.#sequence}-PMT`;
    const expiry = new Date(Date.now() + 900_000).toISOString();
    this.lightning.set(reference, { status: 'new', expiry_date: expiry });
    return {
      status: 200,
      body: {
        payment_reference: reference,
        lightning_invoice: made.invoice,
        payment_hash: made.paymentHash,
        expiry_date: expiry,
      },
    };
  }
}

function notFound(what: string): FakeAnswer {
  return { status: 404, body: { error: 'not_found', message: `${what} not found` } };
}

function badRequest(code: string, message: string): FakeAnswer {
  return { status: 400, body: { error: code, message } };
}
