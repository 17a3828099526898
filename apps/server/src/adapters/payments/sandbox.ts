import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { sandboxNodeKey } from './bolt11.ts';
import { SandboxCheckoutControls } from './sandbox/checkout-controls.ts';
import { type CheckoutView, SandboxCheckouts } from './sandbox/checkouts.ts';
import { type InvoiceView, SandboxInvoices } from './sandbox/invoices.ts';
import { SandboxPayouts } from './sandbox/payouts.ts';
import type { ControlResult } from './sandbox/rows.ts';
import { SandboxTimers } from './sandbox/timers.ts';
import { SandboxWebhooks } from './sandbox/webhooks.ts';
import { SANDBOX_CARD } from './sandbox-values.ts';
import { deriveSecret } from './signatures.ts';
import { checkTripleAWebhook } from './triple-a-shapes.ts';
import type {
  CardSupport,
  Checkout,
  CheckoutRequest,
  LightningInvoice,
  LightningInvoiceRequest,
  PaymentProvider,
  PaymentState,
  PayoutRequest,
  PayoutState,
  WebhookCheck,
  WebhookInput,
} from './types.ts';

export type { CheckoutView } from './sandbox/checkouts.ts';
export type { InvoiceView } from './sandbox/invoices.ts';
export type { ControlResult } from './sandbox/rows.ts';

/**
 * The sandbox payment provider: the embedded default (docs/payment-providers.md). It behaves like a
 * real provider seen from outside: hosted checkout pages on our own server where a person pays,
 * underpays or lets the payment expire; confirmations after a delay; payouts that walk through
 * their statuses; real BOLT11 invoices; and webhooks signed the Triple-A way, POSTed over HTTP and
 * retried. Its state is in its own tables (migration 0010), so a restart loses nothing: whatever
 * was pending is re-armed by start(). This class is the provider's face; the work is in
 * sandbox/: checkouts (and their controls), invoices, payouts, webhooks and the timers they share.
 */

export type SandboxOptions = {
  db: Database;
  log: Logger;
  clock: () => Date;
  /** The server's data key: the webhook secret and the Lightning node key derive from it. */
  dataKey: string;
  confirmDelayMs: number;
  payoutStepMs: number;
  webhookToleranceSeconds: number;
  /** Base URL of the hosted pages (the callback base, known once the server listens). */
  baseUrl: () => string;
  /** Price of one unit of `payCurrency` in `orderCurrency` (decimal text), or null when unknown. */
  rate?: (orderCurrency: string, payCurrency: string) => string | null;
  /** First retry of a failed webhook after this; each next one waits twice as long. */
  webhookRetryBaseMs?: number;
  /** Deliveries tried per webhook before it is abandoned (the receiver can still poll). */
  webhookAttempts?: number;
  /** How long one delivery may take. */
  webhookTimeoutMs?: number;
};

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  /** A repeated reference answers the payout it names (see createPayout). */
  readonly idempotentPayouts = true;
  /** The hosted checkout simulates a card page for these (pay, decline, let expire). */
  readonly card: CardSupport = SANDBOX_CARD;
  readonly #options: SandboxOptions;
  readonly #webhookSecret: string;
  readonly #timers: SandboxTimers;
  readonly #webhooks: SandboxWebhooks;
  readonly #checkouts: SandboxCheckouts;
  readonly #checkoutControls: SandboxCheckoutControls;
  readonly #invoices: SandboxInvoices;
  readonly #payouts: SandboxPayouts;

  constructor(options: SandboxOptions) {
    this.#options = options;
    this.#webhookSecret = sandboxWebhookSecret(options.dataKey);
    this.#timers = new SandboxTimers(options.clock, options.log);
    this.#webhooks = new SandboxWebhooks(options, this.#timers, this.#webhookSecret);
    this.#checkoutControls = new SandboxCheckoutControls(options, this.#timers, this.#webhooks);
    this.#checkouts = new SandboxCheckouts(options, this.#checkoutControls);
    this.#invoices = new SandboxInvoices(options, sandboxNodeKey(options.dataKey), this.#webhooks);
    this.#payouts = new SandboxPayouts(options, this.#timers, this.#webhooks);
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /**
   * Re-arms whatever was pending when the server stopped: confirmations, expiries, payout steps
   * and webhook deliveries. Each timer re-checks its row when it fires, so arming twice is harmless.
   */
  async start(): Promise<{ payments: number; payouts: number; webhooks: number }> {
    const payments = await this.#checkoutControls.rearmPending();
    const payouts = await this.#payouts.rearmPending();
    const webhooks = await this.#webhooks.rearmPending();
    return { payments, payouts, webhooks };
  }

  /** Clears every timer, aborts deliveries on the way and waits for work in progress to end. */
  close(): Promise<void> {
    return this.#timers.close();
  }

  /** Timers armed now (tests check that close leaves none). */
  get pendingTimers(): number {
    return this.#timers.pending;
  }

  // ---- checkout --------------------------------------------------------------------------------

  createCheckout(request: CheckoutRequest): Promise<Checkout> {
    return this.#checkouts.create(request);
  }

  paymentStatus(providerReference: string): Promise<PaymentState> {
    return this.#checkouts.status(providerReference);
  }

  /** The checkout page's view of a payment; null when there is none. */
  checkoutView(id: string): Promise<CheckoutView | null> {
    return this.#checkouts.view(id);
  }

  /** The page's pay buttons (in full or half); answers the success URL to send the payer to. */
  pay(id: string, part: 'full' | 'half'): Promise<ControlResult<{ redirectTo: string }>> {
    return this.#checkoutControls.pay(id, part);
  }

  /** The card page's decline button; answers the cancel URL. */
  decline(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.#checkoutControls.decline(id);
  }

  /** The page's expire button; answers the cancel URL. */
  expire(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.#checkoutControls.expire(id);
  }

  refund(providerReference: string, amount: string, email: string): Promise<{ refundReference: string }> {
    return this.#checkouts.refund(providerReference, amount, email);
  }

  // ---- Lightning -------------------------------------------------------------------------------

  createLightningInvoice(request: LightningInvoiceRequest): Promise<LightningInvoice> {
    return this.#invoices.create(request);
  }

  lightningStatus(providerReference: string): Promise<{ paid: boolean; expired: boolean }> {
    return this.#invoices.status(providerReference);
  }

  invoiceView(paymentHash: string): Promise<InvoiceView | null> {
    return this.#invoices.view(paymentHash);
  }

  /** The sandbox page's "Mark paid": the invoice is settled and the webhook sent. */
  payInvoice(paymentHash: string): Promise<ControlResult<null>> {
    return this.#invoices.pay(paymentHash);
  }

  // ---- payouts ---------------------------------------------------------------------------------

  createPayout(request: PayoutRequest): Promise<PayoutState> {
    return this.#payouts.create(request);
  }

  /** Accepted for callers that make it, like NOWPayments' (see SandboxPayouts.verify). */
  verifyPayout(batchId: string, verificationCode: string): Promise<void> {
    return this.#payouts.verify(batchId, verificationCode);
  }

  payoutStatus(providerReference: string): Promise<PayoutState> {
    return this.#payouts.status(providerReference);
  }

  /** The sandbox control POST /sandbox/payouts/:id/fail: a payout not final yet fails. */
  failPayout(id: string): Promise<ControlResult<PayoutState>> {
    return this.#payouts.fail(id);
  }

  async minimumPayout(_currency: string): Promise<string | null> {
    return null;
  }

  async payoutFee(_currency: string, _amount: string): Promise<string | null> {
    return null;
  }

  async estimate(_amount: string, _from: string, _to: string): Promise<string | null> {
    return null;
  }

  // ---- webhooks --------------------------------------------------------------------------------

  verifyWebhook(input: WebhookInput): WebhookCheck {
    const check = checkTripleAWebhook(
      'sandbox',
      input,
      () => this.#webhookSecret,
      this.#options.webhookToleranceSeconds,
    );
    // Sandbox payouts never wait for a verification code (see verifyPayout).
    if (check.ok && check.event.kind === 'payout') {
      return { ...check, event: { kind: 'payout', payout: { ...check.event.payout, needsVerification: false } } };
    }
    return check;
  }
}

/** The secret sandbox webhooks are signed with (HMAC of the data key with a fixed label). */
export function sandboxWebhookSecret(dataKey: string): string {
  return deriveSecret(dataKey, 'meridian sandbox webhook secret');
}
