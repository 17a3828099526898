import { randomBytes, randomUUID } from 'node:crypto';
import {
  type Checkout,
  type CheckoutRequest,
  type LightningInvoice,
  type LightningInvoiceRequest,
  type PaymentProvider,
  type PaymentState,
  type PaymentStatus,
  type PayoutState,
  ProviderError,
  type WebhookCheck,
  type WebhookInput,
} from '../../adapters/payments/index.ts';
import {
  checkTripleASignature,
  TRIPLEA_SIGNATURE_HEADER,
  tripleASignatureHeader,
  webhookEventId,
} from '../../adapters/payments/signatures.ts';
import type { TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';

/**
 * A provider of our own for the payments tests: it records checkouts and invoices, answers status
 * polls from what the test set, and checks webhooks signed the Triple-A way with a test secret.
 * Webhook bodies are its own JSON ({event, ...}); the real adapters map theirs to the same checks.
 */
export class FakeProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly idempotentPayouts = true;
  readonly secret = `fake-${randomBytes(8).toString('hex')}`;
  readonly checkouts = new Map<string, { request: CheckoutRequest; state: PaymentState }>();
  readonly invoices = new Map<string, { request: LightningInvoiceRequest; paid: boolean }>();
  /** The next calls that create something fail (a provider outage). */
  failCreates = false;
  createCalls = 0;

  constructor(private readonly toleranceSeconds = 300) {}

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    this.createCalls++;
    if (this.failCreates) throw new ProviderError('fake outage', { provider: 'sandbox', status: 503, retryable: true });
    const providerReference = `PMA-${randomBytes(4).toString('hex').toUpperCase()}-PMT`;
    const crypto = request.payCurrency ?? 'BTC';
    this.checkouts.set(providerReference, {
      request,
      state: {
        providerReference,
        reference: request.reference,
        status: 'waiting',
        final: false,
        orderCurrency: request.orderCurrency,
        orderAmount: request.orderAmount,
        cryptoCurrency: crypto,
        cryptoAmount: request.orderCurrency === crypto ? request.orderAmount : '0.001',
        confirmedOrderAmount: '0',
        unconfirmedOrderAmount: '0',
        updatedAt: new Date(),
      },
    });
    return {
      providerReference,
      hostedUrl: `https://fake.example/checkout/${providerReference}`,
      expiresAt: new Date(Date.now() + request.expiresInSeconds * 1000),
      cryptoCurrency: crypto,
      cryptoAddress: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      cryptoAmount: request.orderCurrency === crypto ? request.orderAmount : '0.001',
      exchangeRate: null,
    };
  }

  async paymentStatus(providerReference: string): Promise<PaymentState> {
    const found = this.checkouts.get(providerReference);
    if (!found) throw new ProviderError('unknown payment', { provider: 'sandbox', status: 404, retryable: false });
    return found.state;
  }

  async createLightningInvoice(request: LightningInvoiceRequest): Promise<LightningInvoice> {
    this.createCalls++;
    if (this.failCreates) throw new ProviderError('fake outage', { provider: 'sandbox', status: 503, retryable: true });
    const providerReference = `LN-${randomUUID()}`;
    this.invoices.set(providerReference, { request, paid: false });
    return {
      providerReference,
      invoice: `lntb${randomBytes(20).toString('hex')}`,
      paymentHash: randomBytes(32).toString('hex'),
      expiresAt: new Date(Date.now() + request.expiresInSeconds * 1000),
    };
  }

  async lightningStatus(providerReference: string): Promise<{ paid: boolean; expired: boolean }> {
    return { paid: this.invoices.get(providerReference)?.paid ?? false, expired: false };
  }

  async refund(): Promise<{ refundReference: string }> {
    return { refundReference: 'refund' };
  }
  async createPayout(): Promise<PayoutState> {
    throw new Error('not used');
  }
  async verifyPayout(): Promise<void> {}
  async payoutStatus(): Promise<PayoutState> {
    throw new Error('not used');
  }
  async minimumPayout(): Promise<string | null> {
    return null;
  }
  async payoutFee(): Promise<string | null> {
    return null;
  }
  async estimate(): Promise<string | null> {
    return null;
  }

  verifyWebhook(input: WebhookInput): WebhookCheck {
    const verdict = checkTripleASignature(
      input.headers[TRIPLEA_SIGNATURE_HEADER],
      input.rawBody,
      this.secret,
      input.now,
      this.toleranceSeconds,
    );
    if (verdict !== 'ok') return { ok: false, reason: verdict };
    let body: FakeEvent;
    try {
      body = JSON.parse(input.rawBody) as FakeEvent;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    const eventId = webhookEventId('fake', body);
    if (body.event === 'payment') {
      return {
        ok: true,
        eventId,
        event: { kind: 'payment', payment: { ...body.payment, updatedAt: new Date(body.payment.updatedAt) } },
      };
    }
    if (body.event === 'lightning') {
      return {
        ok: true,
        eventId,
        event: {
          kind: 'lightning',
          providerReference: body.providerReference,
          reference: body.reference,
          paid: body.paid,
        },
      };
    }
    return {
      ok: true,
      eventId,
      event: { kind: 'payout', payout: { ...body.payout, updatedAt: new Date(body.payout.updatedAt) } },
    };
  }

  /** Moves a checkout on, as the payer and the chain would; answers the webhook body about it. */
  setPayment(
    providerReference: string,
    status: PaymentStatus,
    amounts: { confirmed?: string; unconfirmed?: string } = {},
  ): FakeEvent {
    return this.paymentEvent(providerReference, status, amounts, true);
  }

  /** The webhook body of a payment in a status; `store` moves the checkout there too (status polls see it). */
  paymentEvent(
    providerReference: string,
    status: PaymentStatus,
    amounts: { confirmed?: string; unconfirmed?: string } = {},
    store = false,
  ): FakeEvent {
    const found = this.checkouts.get(providerReference);
    if (!found) throw new Error(`no fake checkout ${providerReference}`);
    const state: PaymentState = {
      ...found.state,
      status,
      final: status !== 'waiting' && status !== 'confirming',
      confirmedOrderAmount: amounts.confirmed ?? (status === 'paid' ? found.state.orderAmount : '0'),
      unconfirmedOrderAmount: amounts.unconfirmed ?? (status === 'confirming' ? found.state.orderAmount : '0'),
      updatedAt: new Date(),
    };
    if (store) found.state = state;
    return { event: 'payment', payment: { ...state, updatedAt: state.updatedAt.toISOString() } };
  }

  payInvoice(providerReference: string): FakeEvent {
    const found = this.invoices.get(providerReference);
    if (!found) throw new Error(`no fake invoice ${providerReference}`);
    found.paid = true;
    return { event: 'lightning', providerReference, reference: found.request.reference, paid: true };
  }

  /** The webhook headers of a body, signed now (or at `unixSeconds`) with this provider's secret. */
  sign(rawBody: string, unixSeconds = Date.now() / 1000, secret = this.secret): Record<string, string> {
    return {
      'content-type': 'application/json',
      [TRIPLEA_SIGNATURE_HEADER]: tripleASignatureHeader(secret, rawBody, unixSeconds),
    };
  }
}

export type FakeEvent =
  | { event: 'payment'; payment: Omit<PaymentState, 'updatedAt'> & { updatedAt: string } }
  | { event: 'lightning'; providerReference: string; reference: string | null; paid: boolean }
  | { event: 'payout'; payout: Omit<PayoutState, 'updatedAt'> & { updatedAt: string } };

export function useFakeProvider(server: TestServer, provider = new FakeProvider()): FakeProvider {
  server.services.paymentProvider.gateway.useProvider(provider);
  return provider;
}

/** Posts a webhook body to our receiver, signed by the fake unless headers are given. */
export function sendWebhook(
  server: TestServer,
  provider: FakeProvider,
  body: FakeEvent | string,
  headers?: Record<string, string>,
) {
  const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
  return server.request('POST', `/v1/webhooks/${provider.name}`, {
    rawBody,
    headers: headers ?? provider.sign(rawBody),
  });
}

export type Account = { id: string; token: string };

export async function signUpAccount(server: TestServer): Promise<Account> {
  const user = await signUp(server);
  return { id: user.session.account_id, token: user.session.token };
}

/** Polls until `read` answers something `done` accepts; fails after the deadline (no timed assertions). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not reached in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** How many 'deposit' ledger entries a reference has: a credit-once check. */
export async function depositEntries(server: TestServer, reference: string): Promise<number> {
  const found = await server.db.query<{ count: string | number }>(
    `SELECT count(*) AS count FROM ledger_entries WHERE kind = 'deposit' AND reference = $1`,
    [reference],
  );
  return Number(found.rows[0]?.count ?? 0);
}
