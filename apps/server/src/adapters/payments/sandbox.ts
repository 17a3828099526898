import crypto from 'node:crypto';
import { compare, div, isZero, mul, sub, toScale } from '@platform/money';
import type { Database, Queryable, Transaction } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { canonical, decimalFromProvider, exact, proportion, ZERO_TEXT } from './amounts.ts';
import { btcToMsat, MAX_DESCRIPTION_BYTES, makeTestnetInvoice, sandboxNodeKey } from './bolt11.ts';
import {
  checkAmount,
  checkCurrency,
  checkExpiry,
  checkReference,
  checkText,
  checkUrl,
  isFiat,
  refuse,
  SANDBOX_CARD,
  sandboxAddress,
  sandboxId,
  sandboxTxHash,
} from './sandbox-values.ts';
import { deriveSecret, TRIPLEA_SIGNATURE_HEADER, tripleASignatureHeader } from './signatures.ts';
import {
  checkTripleAWebhook,
  type TripleAPayment,
  type TripleAPayout,
  tripleAPaymentState,
  tripleAPayoutState,
} from './triple-a-shapes.ts';
import type {
  CardSupport,
  Checkout,
  CheckoutRequest,
  LightningInvoice,
  LightningInvoiceRequest,
  PaymentProvider,
  PaymentState,
  PaymentStatus,
  PayoutRequest,
  PayoutState,
  PayoutStatus,
  WebhookCheck,
  WebhookInput,
} from './types.ts';

/**
 * The sandbox payment provider: the embedded default (docs/payment-providers.md). It behaves like a
 * real provider seen from outside: hosted checkout pages on our own server where a person pays,
 * underpays or lets the payment expire; confirmations after a delay; payouts that walk through
 * their statuses; real BOLT11 invoices; and webhooks signed the Triple-A way, POSTed over HTTP and
 * retried. Its state is in its own tables (migration 0010), so a restart loses nothing: whatever
 * was pending is re-armed by start().
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

const DEFAULT_WEBHOOK_RETRY_BASE_MS = 2_000;
const DEFAULT_WEBHOOK_ATTEMPTS = 5;
const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** setTimeout cannot wait longer than this; a later deadline is re-armed when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647;
/** A webhook found due but not claimable is looked at again after this pause. */
const REARM_PAUSE_MS = 50;
/** Decimals of a crypto amount the sandbox quotes (satoshi). */
const CRYPTO_SCALE = 8;
const PAYOUT_STEPS: Partial<Record<PayoutStatus, PayoutStatus>> = {
  creating: 'waiting',
  waiting: 'processing',
  processing: 'finished',
  sending: 'finished',
};
const FINAL_PAYOUT_STATUSES: readonly PayoutStatus[] = ['finished', 'failed', 'rejected'];

type PaymentRow = {
  id: string;
  reference: string;
  order_currency: string;
  order_amount: string;
  crypto_currency: string;
  crypto_amount: string | null;
  crypto_address: string;
  exchange_rate: string | null;
  pay_method: 'crypto' | 'card';
  description: string;
  payer_account_id: string;
  payer_email: string | null;
  success_url: string;
  cancel_url: string;
  notify_url: string;
  status: PaymentStatus;
  paid_order_amount: string;
  confirm_at: Date | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
};

type PayoutRow = {
  id: string;
  batch_id: string;
  reference: string;
  currency: string;
  amount: string;
  address: string;
  extra_id: string | null;
  description: string;
  notify_url: string;
  status: PayoutStatus;
  hash: string | null;
  error: string | null;
  next_step_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

type InvoiceRow = {
  payment_hash: string;
  reference: string;
  preimage: string;
  amount_msat: string;
  description: string;
  invoice: string;
  notify_url: string;
  status: 'open' | 'paid';
  expires_at: Date;
  paid_at: Date | null;
  created_at: Date;
};

type WebhookRow = { id: string; subject: string; url: string; body: string; attempts: number; next_attempt_at: Date };

/** A checkout as its page shows it. */
export type CheckoutView = {
  id: string;
  reference: string;
  status: PaymentStatus;
  final: boolean;
  description: string;
  orderCurrency: string;
  orderAmount: string;
  cryptoCurrency: string;
  cryptoAmount: string | null;
  cryptoAddress: string;
  payMethod: 'crypto' | 'card';
  paidOrderAmount: string;
  expiresAt: Date;
  successUrl: string;
  cancelUrl: string;
};

export type InvoiceView = {
  paymentHash: string;
  invoice: string;
  amountMsat: bigint;
  description: string;
  paid: boolean;
  expired: boolean;
  expiresAt: Date;
};

/** The outcome of a control on a sandbox page. */
export type ControlResult<T> = { ok: true; value: T } | { ok: false; error: 'not_found' | 'not_pending' | 'expired' };

const SELECT_PAYMENT = `SELECT id, reference, order_currency, order_amount::text AS order_amount, crypto_currency,
    crypto_amount::text AS crypto_amount, crypto_address, exchange_rate::text AS exchange_rate, pay_method, description,
    payer_account_id, payer_email, success_url, cancel_url, notify_url, status,
    paid_order_amount::text AS paid_order_amount, confirm_at, expires_at, created_at, updated_at
  FROM sandbox_payments`;
const SELECT_PAYOUT = `SELECT id, batch_id, reference, currency, amount::text AS amount, address, extra_id, description,
    notify_url, status, hash, error, next_step_at, created_at, updated_at
  FROM sandbox_payouts`;
const SELECT_INVOICE = `SELECT payment_hash, reference, preimage, amount_msat::text AS amount_msat, description, invoice,
    notify_url, status, expires_at, paid_at, created_at
  FROM sandbox_invoices`;

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  /** A repeated reference answers the payout it names (see createPayout). */
  readonly idempotentPayouts = true;
  /** The hosted checkout simulates a card page for these (pay, decline, let expire). */
  readonly card: CardSupport = SANDBOX_CARD;
  readonly #options: SandboxOptions;
  readonly #webhookSecret: string;
  readonly #nodeKey: Buffer;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #abort = new AbortController();
  #closed = false;

  constructor(options: SandboxOptions) {
    this.#options = options;
    this.#webhookSecret = sandboxWebhookSecret(options.dataKey);
    this.#nodeKey = sandboxNodeKey(options.dataKey);
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /**
   * Re-arms whatever was pending when the server stopped: confirmations, expiries, payout steps
   * and webhook deliveries. Each timer re-checks its row when it fires, so arming twice is harmless.
   */
  async start(): Promise<{ payments: number; payouts: number; webhooks: number }> {
    const { db } = this.#options;
    const payments = await db.query<{ id: string; status: PaymentStatus; confirm_at: Date | null; expires_at: Date }>(
      `SELECT id, status, confirm_at, expires_at FROM sandbox_payments WHERE status IN ('waiting', 'confirming')`,
    );
    for (const row of payments.rows) {
      if (row.status === 'confirming') this.#armConfirmation(row.id, row.confirm_at ?? this.#now());
      else this.#armExpiry(row.id, row.expires_at);
    }
    const payouts = await db.query<{ id: string; next_step_at: Date | null }>(
      `SELECT id, next_step_at FROM sandbox_payouts
        WHERE status IN ('creating', 'waiting', 'processing', 'sending') AND next_step_at IS NOT NULL`,
    );
    for (const row of payouts.rows) this.#armPayoutStep(row.id, row.next_step_at ?? this.#now());
    const webhooks = await db.query<{ id: string; next_attempt_at: Date }>(
      `SELECT id::text AS id, next_attempt_at FROM sandbox_webhooks WHERE state = 'pending'`,
    );
    for (const row of webhooks.rows) this.#armDelivery(row.id, row.next_attempt_at);
    return { payments: payments.rows.length, payouts: payouts.rows.length, webhooks: webhooks.rows.length };
  }

  /** Clears every timer, aborts deliveries on the way and waits for work in progress to end. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#abort.abort();
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  /** Timers armed now (tests check that close leaves none). */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  // ---- checkout --------------------------------------------------------------------------------

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const reference = checkReference(request.reference);
    const orderCurrency = checkCurrency(request.orderCurrency, 'orderCurrency');
    const orderAmount = canonical(exact(checkAmount(request.orderAmount, 'orderAmount')));
    const byCard = request.payMethod === 'card';
    if (byCard && !this.card.currencies.includes(orderCurrency)) {
      throw refuse('CARD_NOT_SUPPORTED', `${orderCurrency} cannot be bought by card`);
    }
    // A card purchase is charged in the order currency: no crypto to quote, no address to pay to.
    const cryptoCurrency = byCard
      ? orderCurrency
      : request.payCurrency
        ? checkCurrency(request.payCurrency, 'payCurrency')
        : isFiat(orderCurrency)
          ? 'BTC'
          : orderCurrency;
    const description = checkText(request.description, 'description');
    checkUrl(request.successUrl, 'successUrl');
    checkUrl(request.cancelUrl, 'cancelUrl');
    checkUrl(request.notifyUrl, 'notifyUrl');
    const expiresInSeconds = checkExpiry(request.expiresInSeconds);
    const { cryptoAmount, exchangeRate } = byCard
      ? { cryptoAmount: null, exchangeRate: null }
      : this.#quote(orderCurrency, orderAmount, cryptoCurrency);

    const now = this.#now();
    const id = sandboxId('PMT');
    const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000);
    // ON CONFLICT: a retry with the same reference (after a crash, say) answers the first checkout.
    const inserted = await this.#options.db.query<{ id: string }>(
      `INSERT INTO sandbox_payments (id, reference, order_currency, order_amount, crypto_currency, crypto_amount,
          crypto_address, exchange_rate, description, payer_account_id, payer_email, success_url, cancel_url,
          notify_url, status, expires_at, created_at, updated_at, pay_method)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'waiting', $15, $16, $16, $17)
        ON CONFLICT (reference) DO NOTHING
        RETURNING id`,
      [
        id,
        reference,
        orderCurrency,
        orderAmount,
        cryptoCurrency,
        cryptoAmount,
        byCard ? '' : sandboxAddress(cryptoCurrency, id),
        exchangeRate,
        description,
        String(request.payer.accountId),
        request.payer.email ?? null,
        request.successUrl,
        request.cancelUrl,
        request.notifyUrl,
        expiresAt,
        now,
        byCard ? 'card' : 'crypto',
      ],
    );
    if (inserted.rows.length > 0) this.#armExpiry(id, expiresAt);
    const row = await this.#paymentByReference(this.#options.db, reference);
    if (!row) throw new Error(`sandbox checkout ${reference} vanished after insert`);
    return this.#checkoutOf(row);
  }

  async paymentStatus(providerReference: string): Promise<PaymentState> {
    const row = await this.#payment(this.#options.db, providerReference);
    if (!row) throw refuse('NOT_FOUND', `payment ${providerReference} not found`, 404);
    return this.#paymentState(row);
  }

  /** The checkout page's view of a payment; null when there is none. */
  async checkoutView(id: string): Promise<CheckoutView | null> {
    const row = await this.#payment(this.#options.db, id);
    if (!row) return null;
    const state = this.#paymentState(row);
    return {
      id: row.id,
      reference: row.reference,
      status: state.status,
      final: state.final,
      description: row.description,
      orderCurrency: row.order_currency,
      orderAmount: canonical(exact(row.order_amount)),
      cryptoCurrency: row.crypto_currency,
      cryptoAmount: row.crypto_amount === null ? null : canonical(exact(row.crypto_amount)),
      cryptoAddress: row.crypto_address,
      payMethod: row.pay_method,
      paidOrderAmount: canonical(exact(row.paid_order_amount)),
      expiresAt: new Date(row.expires_at),
      successUrl: row.success_url,
      cancelUrl: row.cancel_url,
    };
  }

  /**
   * The payer pays in full or half (the page's buttons): money seen, so `confirming` and a webhook;
   * final after the confirmation delay. Answers the success URL to send the payer to.
   */
  async pay(id: string, part: 'full' | 'half'): Promise<ControlResult<{ redirectTo: string }>> {
    return this.#options.db.transaction(async (tx) => {
      const row = await this.#payment(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      const now = this.#now();
      // A card is charged in full or not at all.
      if (row.status !== 'waiting' || (part === 'half' && row.pay_method === 'card')) {
        return { ok: false, error: 'not_pending' };
      }
      if (new Date(row.expires_at).getTime() <= now.getTime()) {
        await this.#finishPayment(tx, row, 'expired', now);
        return { ok: false, error: 'expired' };
      }
      const orderAmount = exact(row.order_amount);
      const paid = part === 'full' ? orderAmount : mul(orderAmount, exact('0.5'));
      const confirmAt = new Date(now.getTime() + this.#options.confirmDelayMs);
      const updated = await this.#updatePayment(tx, row.id, {
        status: 'confirming',
        paidOrderAmount: canonical(paid),
        confirmAt,
        now,
      });
      await this.#enqueue(tx, 'payment', row.id, row.notify_url, this.#paymentBody(updated));
      tx.afterCommit(() => this.#armConfirmation(row.id, confirmAt));
      return { ok: true, value: { redirectTo: row.success_url } };
    });
  }

  /** The card is declined (the card page's second button): failed, final, nothing paid. Answers the cancel URL. */
  async decline(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.#options.db.transaction(async (tx) => {
      const row = await this.#payment(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'waiting' || row.pay_method !== 'card') return { ok: false, error: 'not_pending' };
      await this.#finishPayment(tx, row, 'failed', this.#now());
      return { ok: true, value: { redirectTo: row.cancel_url } };
    });
  }

  /** The payer lets the payment expire (the page's third button). Answers the cancel URL. */
  async expire(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.#options.db.transaction(async (tx) => {
      const row = await this.#payment(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'waiting') return { ok: false, error: 'not_pending' };
      await this.#finishPayment(tx, row, 'expired', this.#now());
      return { ok: true, value: { redirectTo: row.cancel_url } };
    });
  }

  async refund(providerReference: string, amount: string, email: string): Promise<{ refundReference: string }> {
    const refundAmount = exact(checkAmount(amount));
    checkText(email, 'email');
    return this.#options.db.transaction(async (tx) => {
      const row = await this.#payment(tx, providerReference, true);
      if (!row) throw refuse('NOT_FOUND', `payment ${providerReference} not found`, 404);
      if (row.status !== 'paid' && row.status !== 'underpaid') {
        throw refuse(
          'NOT_REFUNDABLE',
          `payment ${providerReference} is ${row.status}: only a paid payment is refunded`,
          409,
        );
      }
      const refunded = await tx.query<{ total: string }>(
        `SELECT COALESCE(sum(amount), 0)::text AS total FROM sandbox_refunds WHERE payment_id = $1`,
        [row.id],
      );
      const left = sub(exact(row.paid_order_amount), exact(refunded.rows[0]?.total ?? '0'));
      if (compare(refundAmount, left) > 0) {
        throw refuse('REFUND_TOO_LARGE', `at most ${canonical(left)} ${row.order_currency} is left to refund`, 409);
      }
      const refundReference = sandboxId('RF');
      await tx.query(
        `INSERT INTO sandbox_refunds (id, payment_id, amount, email, created_at) VALUES ($1, $2, $3, $4, $5)`,
        [refundReference, row.id, canonical(refundAmount), email, this.#now()],
      );
      return { refundReference };
    });
  }

  // ---- Lightning -------------------------------------------------------------------------------

  async createLightningInvoice(request: LightningInvoiceRequest): Promise<LightningInvoice> {
    const reference = checkReference(request.reference);
    const amountMsat = typeof request.amountBtc === 'string' ? btcToMsat(request.amountBtc) : null;
    if (amountMsat === null || amountMsat <= 0n) {
      throw refuse('INVALID_AMOUNT', 'amountBtc must be a positive BTC amount with at most 11 decimals');
    }
    const description = checkText(request.description, 'description');
    if (Buffer.byteLength(description, 'utf8') > MAX_DESCRIPTION_BYTES) {
      throw refuse('INVALID_TEXT', `description must be at most ${MAX_DESCRIPTION_BYTES} bytes`);
    }
    checkUrl(request.notifyUrl, 'notifyUrl');
    const expirySeconds = checkExpiry(request.expiresInSeconds);
    const existing = await this.#invoiceByReference(this.#options.db, reference);
    if (existing) return this.#lightningInvoiceOf(existing);

    const now = this.#now();
    const made = makeTestnetInvoice({
      amountMsat,
      description,
      expirySeconds,
      timestamp: Math.floor(now.getTime() / 1000),
      nodeKey: this.#nodeKey,
    });
    await this.#options.db.query(
      `INSERT INTO sandbox_invoices (payment_hash, reference, preimage, amount_msat, description, invoice, notify_url,
          status, expires_at, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9)
        ON CONFLICT (reference) DO NOTHING`,
      [
        made.paymentHash,
        reference,
        made.preimage,
        amountMsat.toString(),
        description,
        made.invoice,
        request.notifyUrl,
        new Date(now.getTime() + expirySeconds * 1000),
        now,
      ],
    );
    const row = await this.#invoiceByReference(this.#options.db, reference);
    if (!row) throw new Error(`sandbox invoice ${reference} vanished after insert`);
    return this.#lightningInvoiceOf(row);
  }

  async lightningStatus(providerReference: string): Promise<{ paid: boolean; expired: boolean }> {
    const view = await this.invoiceView(providerReference);
    if (!view) throw refuse('NOT_FOUND', `invoice ${providerReference} not found`, 404);
    return { paid: view.paid, expired: view.expired };
  }

  async invoiceView(paymentHash: string): Promise<InvoiceView | null> {
    const row = await this.#invoice(this.#options.db, paymentHash);
    if (!row) return null;
    const paid = row.status === 'paid';
    return {
      paymentHash: row.payment_hash,
      invoice: row.invoice,
      amountMsat: BigInt(row.amount_msat),
      description: row.description,
      paid,
      expired: !paid && new Date(row.expires_at).getTime() <= this.#now().getTime(),
      expiresAt: new Date(row.expires_at),
    };
  }

  /** The sandbox page's "Mark paid": the invoice is settled and the webhook sent. */
  async payInvoice(paymentHash: string): Promise<ControlResult<null>> {
    return this.#options.db.transaction(async (tx) => {
      const row = await this.#invoice(tx, paymentHash, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'open') return { ok: false, error: 'not_pending' };
      const now = this.#now();
      if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, error: 'expired' };
      await tx.query(`UPDATE sandbox_invoices SET status = 'paid', paid_at = $2 WHERE payment_hash = $1`, [
        row.payment_hash,
        now,
      ]);
      await this.#enqueue(tx, 'lightning', row.payment_hash, row.notify_url, {
        event: 'lightning',
        payment_reference: row.payment_hash,
        payment_hash: row.payment_hash,
        status: 'paid',
        payment_tier: 'good',
        amount_msat: row.amount_msat,
        status_date: now.toISOString(),
        expiry_date: new Date(row.expires_at).toISOString(),
        webhook_data: { reference: row.reference },
      });
      return { ok: true, value: null };
    });
  }

  // ---- payouts ---------------------------------------------------------------------------------

  async createPayout(request: PayoutRequest): Promise<PayoutState> {
    const reference = checkReference(request.reference);
    const currency = checkCurrency(request.currency);
    const amount = canonical(exact(checkAmount(request.amount)));
    if (typeof request.address !== 'string' || request.address.length < 1 || request.address.length > 200) {
      throw refuse('INVALID_ADDRESS', 'address must be 1 to 200 characters');
    }
    const extraId = request.extraId ? checkText(request.extraId, 'extraId') : null;
    const description = checkText(request.description, 'description');
    checkUrl(request.notifyUrl, 'notifyUrl');

    const now = this.#now();
    const id = sandboxId('PO');
    const nextStepAt = new Date(now.getTime() + this.#options.payoutStepMs);
    const inserted = await this.#options.db.query<{ id: string }>(
      `INSERT INTO sandbox_payouts (id, batch_id, reference, currency, amount, address, extra_id, description,
          notify_url, status, next_step_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'creating', $10, $11, $11)
        ON CONFLICT (reference) DO NOTHING
        RETURNING id`,
      [
        id,
        sandboxId('BATCH'),
        reference,
        currency,
        amount,
        request.address,
        extraId,
        description,
        request.notifyUrl,
        nextStepAt,
        now,
      ],
    );
    if (inserted.rows.length > 0) this.#armPayoutStep(id, nextStepAt);
    const row = await this.#payoutBy(this.#options.db, 'reference', reference);
    if (!row) throw new Error(`sandbox payout ${reference} vanished after insert`);
    return this.#payoutState(row);
  }

  /**
   * Sandbox payouts need no verification (our own 2FA guards withdrawals), but the call behaves
   * like NOWPayments' for callers that make it: any 6-digit code is accepted while the payout is
   * creating or waiting; anything else is refused.
   */
  async verifyPayout(batchId: string, verificationCode: string): Promise<void> {
    if (typeof verificationCode !== 'string' || !/^\d{6}$/.test(verificationCode)) {
      throw refuse('INVALID_VERIFICATION_CODE', 'The verification code must be 6 digits');
    }
    const row = await this.#payoutBy(this.#options.db, 'batch_id', batchId);
    if (!row) throw refuse('NOT_FOUND', `payout batch ${batchId} not found`, 404);
    if (row.status !== 'creating' && row.status !== 'waiting') {
      throw refuse('NOT_VERIFIABLE', `payout ${row.id} is ${row.status}: there is nothing to verify`, 409);
    }
  }

  async payoutStatus(providerReference: string): Promise<PayoutState> {
    const row = await this.#payoutBy(this.#options.db, 'id', providerReference);
    if (!row) throw refuse('NOT_FOUND', `payout ${providerReference} not found`, 404);
    return this.#payoutState(row);
  }

  /** The sandbox control POST /sandbox/payouts/:id/fail: a payout not final yet fails. */
  async failPayout(id: string): Promise<ControlResult<PayoutState>> {
    return this.#options.db.transaction(async (tx) => {
      const row = await this.#payoutBy(tx, 'id', id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (FINAL_PAYOUT_STATUSES.includes(row.status)) return { ok: false, error: 'not_pending' };
      const updated = await this.#stepPayoutRow(tx, row, 'failed', this.#now());
      this.#disarm(`payout:${id}`);
      return { ok: true, value: this.#payoutState(updated) };
    });
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

  // ---- timed transitions -----------------------------------------------------------------------

  #armConfirmation(id: string, at: Date): void {
    this.#arm(`payment:${id}`, at, () => this.#confirm(id));
  }

  #armExpiry(id: string, at: Date): void {
    this.#arm(`payment:${id}`, at, () => this.#expireOnTime(id));
  }

  #armPayoutStep(id: string, at: Date): void {
    this.#arm(`payout:${id}`, at, () => this.#stepPayout(id));
  }

  #armDelivery(id: string, at: Date): void {
    this.#arm(`webhook:${id}`, at, () => this.#deliver(id));
  }

  /** A confirming payment becomes final: paid in full, or underpaid with the part paid. */
  async #confirm(id: string): Promise<void> {
    await this.#options.db.transaction(async (tx) => {
      const row = await this.#payment(tx, id, true);
      if (row?.status !== 'confirming') return;
      const now = this.#now();
      const confirmAt = row.confirm_at ? new Date(row.confirm_at) : now;
      if (confirmAt.getTime() > now.getTime()) {
        tx.afterCommit(() => this.#armConfirmation(id, confirmAt));
        return;
      }
      const full = compare(exact(row.paid_order_amount), exact(row.order_amount)) >= 0;
      await this.#finishPayment(tx, row, full ? 'paid' : 'underpaid', now);
    });
  }

  async #expireOnTime(id: string): Promise<void> {
    await this.#options.db.transaction(async (tx) => {
      const row = await this.#payment(tx, id, true);
      if (row?.status !== 'waiting') return;
      const now = this.#now();
      const expiresAt = new Date(row.expires_at);
      if (expiresAt.getTime() > now.getTime()) {
        tx.afterCommit(() => this.#armExpiry(id, expiresAt));
        return;
      }
      await this.#finishPayment(tx, row, 'expired', now);
    });
  }

  async #finishPayment(tx: Transaction, row: PaymentRow, status: PaymentStatus, now: Date): Promise<void> {
    const updated = await this.#updatePayment(tx, row.id, {
      status,
      paidOrderAmount: status === 'expired' || status === 'failed' ? ZERO_TEXT : row.paid_order_amount,
      confirmAt: null,
      now,
    });
    await this.#enqueue(tx, 'payment', row.id, row.notify_url, this.#paymentBody(updated));
    tx.afterCommit(() => this.#disarm(`payment:${row.id}`));
  }

  async #stepPayout(id: string): Promise<void> {
    await this.#options.db.transaction(async (tx) => {
      const row = await this.#payoutBy(tx, 'id', id, true);
      if (!row || row.next_step_at === null) return;
      const next = PAYOUT_STEPS[row.status];
      if (!next) return;
      const now = this.#now();
      const due = new Date(row.next_step_at);
      if (due.getTime() > now.getTime()) {
        tx.afterCommit(() => this.#armPayoutStep(id, due));
        return;
      }
      const updated = await this.#stepPayoutRow(tx, row, next, now);
      if (updated.next_step_at) {
        const at = new Date(updated.next_step_at);
        tx.afterCommit(() => this.#armPayoutStep(id, at));
      }
    });
  }

  async #stepPayoutRow(tx: Transaction, row: PayoutRow, status: PayoutStatus, now: Date): Promise<PayoutRow> {
    const final = FINAL_PAYOUT_STATUSES.includes(status);
    const result = await tx.query<PayoutRow>(
      `UPDATE sandbox_payouts SET status = $2, hash = $3, error = $4, next_step_at = $5, updated_at = $6
        WHERE id = $1
        RETURNING id, batch_id, reference, currency, amount::text AS amount, address, extra_id, description,
          notify_url, status, hash, error, next_step_at, created_at, updated_at`,
      [
        row.id,
        status,
        status === 'finished' ? sandboxTxHash(row.currency, row.id) : null,
        status === 'failed' ? 'Failed by the sandbox control' : null,
        final ? null : new Date(now.getTime() + this.#options.payoutStepMs),
        now,
      ],
    );
    const updated = result.rows[0];
    if (!updated) throw new Error(`sandbox payout ${row.id} vanished`);
    await this.#enqueue(tx, 'payout', row.id, row.notify_url, this.#payoutBody(updated));
    return updated;
  }

  // ---- webhooks --------------------------------------------------------------------------------

  async #enqueue(
    tx: Transaction,
    kind: 'payment' | 'payout' | 'lightning',
    subject: string,
    url: string,
    body: unknown,
  ) {
    const now = this.#now();
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO sandbox_webhooks (url, kind, subject, body, next_attempt_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $5, $5)
        RETURNING id::text AS id`,
      [url, kind, subject, JSON.stringify(body), now],
    );
    const id = inserted.rows[0]?.id;
    if (id) tx.afterCommit(() => this.#armDelivery(id, now));
  }

  /**
   * One delivery attempt. The row is claimed first (its next attempt pushed past the delivery's
   * timeout), so two nodes sharing the database never send the same attempt twice. Webhooks about
   * one payment or payout go out in the order they were written: a later one waits while an earlier
   * one is pending, and is kicked when that one is delivered or abandoned.
   */
  async #deliver(id: string): Promise<void> {
    const { db, log } = this.#options;
    const timeoutMs = this.#options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    const now = this.#now();
    const claimed = await db.query<WebhookRow>(
      `UPDATE sandbox_webhooks w SET attempts = attempts + 1, next_attempt_at = $3, updated_at = $2
        WHERE w.id = $1 AND w.state = 'pending' AND w.next_attempt_at <= $2
          AND NOT EXISTS (SELECT 1 FROM sandbox_webhooks earlier
                           WHERE earlier.subject = w.subject AND earlier.state = 'pending' AND earlier.id < w.id)
        RETURNING id::text AS id, subject, url, body, attempts, next_attempt_at`,
      [id, now, new Date(now.getTime() + timeoutMs + 5_000)],
    );
    const row = claimed.rows[0];
    if (!row) {
      await this.#rearmDelivery(id);
      return;
    }
    const failure = await this.#post(row, timeoutMs);
    if (this.#closed && failure !== null) {
      // Aborted by close: the attempt does not count, and start() sends it again.
      await db.query(`UPDATE sandbox_webhooks SET attempts = attempts - 1, next_attempt_at = $2 WHERE id = $1`, [
        id,
        now,
      ]);
      return;
    }
    const maxAttempts = this.#options.webhookAttempts ?? DEFAULT_WEBHOOK_ATTEMPTS;
    if (failure === null || row.attempts >= maxAttempts) {
      if (failure !== null)
        log.warn({ webhook: id, url: row.url, attempts: row.attempts, failure }, 'sandbox webhook abandoned');
      await db.query(`UPDATE sandbox_webhooks SET state = $2, last_error = $3, updated_at = $4 WHERE id = $1`, [
        id,
        failure === null ? 'delivered' : 'abandoned',
        failure,
        this.#now(),
      ]);
      await this.#kickNext(row.subject);
      return;
    }
    const backoffMs = (this.#options.webhookRetryBaseMs ?? DEFAULT_WEBHOOK_RETRY_BASE_MS) * 2 ** (row.attempts - 1);
    const at = new Date(this.#now().getTime() + backoffMs);
    await db.query(`UPDATE sandbox_webhooks SET next_attempt_at = $2, last_error = $3, updated_at = $4 WHERE id = $1`, [
      id,
      at,
      failure,
      this.#now(),
    ]);
    log.info(
      { webhook: id, url: row.url, attempts: row.attempts, failure, retryInMs: backoffMs },
      'sandbox webhook retry',
    );
    this.#armDelivery(id, at);
  }

  /**
   * A webhook that could not be claimed: delivered meanwhile (nothing to do), waiting behind an
   * earlier one about the same subject (that one kicks it), or not due (claimed by another node
   * whose lease ends later, or in back-off): then it is looked at again when due.
   */
  async #rearmDelivery(id: string): Promise<void> {
    const found = await this.#options.db.query<{ next_attempt_at: Date; blocked: boolean }>(
      `SELECT w.next_attempt_at, EXISTS (SELECT 1 FROM sandbox_webhooks earlier
                WHERE earlier.subject = w.subject AND earlier.state = 'pending' AND earlier.id < w.id) AS blocked
        FROM sandbox_webhooks w WHERE w.id = $1 AND w.state = 'pending'`,
      [id],
    );
    const row = found.rows[0];
    if (!row || row.blocked) return;
    const at = new Date(row.next_attempt_at);
    // Never a busy loop: a row that looks due but was not claimable is looked at a moment later.
    const soonest = new Date(this.#now().getTime() + REARM_PAUSE_MS);
    this.#armDelivery(id, at.getTime() > soonest.getTime() ? at : soonest);
  }

  /** Arms the oldest pending webhook about `subject`, now that the one before it is done. */
  async #kickNext(subject: string): Promise<void> {
    const next = await this.#options.db.query<{ id: string; next_attempt_at: Date }>(
      `SELECT id::text AS id, next_attempt_at FROM sandbox_webhooks
        WHERE subject = $1 AND state = 'pending' ORDER BY id LIMIT 1`,
      [subject],
    );
    const row = next.rows[0];
    if (row) this.#armDelivery(row.id, new Date(row.next_attempt_at));
  }

  /** POSTs one webhook; null when the receiver answered 2xx, else what went wrong. */
  async #post(row: WebhookRow, timeoutMs: number): Promise<string | null> {
    const unixSeconds = Math.floor(this.#now().getTime() / 1000);
    try {
      const response = await fetch(row.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [TRIPLEA_SIGNATURE_HEADER]: tripleASignatureHeader(this.#webhookSecret, row.body, unixSeconds),
        },
        body: row.body,
        redirect: 'error',
        signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  // ---- timers ----------------------------------------------------------------------------------

  /** One timer per key (a later arm replaces an earlier one); the task runs tracked, errors logged. */
  #arm(key: string, at: Date, task: () => Promise<void>): void {
    if (this.#closed) return;
    this.#disarm(key);
    const delayMs = Math.min(MAX_TIMER_MS, Math.max(0, at.getTime() - this.#now().getTime()));
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      if (this.#closed) return;
      const run = task()
        .catch((error: unknown) => this.#options.log.error({ err: error, task: key }, 'sandbox timer failed'))
        .finally(() => this.#inflight.delete(run));
      this.#inflight.add(run);
    }, delayMs);
    timer.unref();
    this.#timers.set(key, timer);
  }

  #disarm(key: string): void {
    const timer = this.#timers.get(key);
    if (timer) clearTimeout(timer);
    this.#timers.delete(key);
  }

  // ---- rows and shapes -------------------------------------------------------------------------

  #now(): Date {
    return this.#options.clock();
  }

  #quote(orderCurrency: string, orderAmount: string, cryptoCurrency: string) {
    if (orderCurrency === cryptoCurrency) return { cryptoAmount: orderAmount, exchangeRate: '1' };
    const rateText = this.#options.rate?.(orderCurrency, cryptoCurrency) ?? null;
    const rate = rateText === null ? null : decimalFromProvider(rateText);
    if (rate === null || isZero(exact(rate))) return { cryptoAmount: null, exchangeRate: null };
    // Rounded up: the payer never owes less than the order is worth.
    const crypto = toScale(div(exact(orderAmount), exact(rate), CRYPTO_SCALE, 'up'), CRYPTO_SCALE, 'up');
    return { cryptoAmount: canonical(crypto), exchangeRate: rate };
  }

  async #payment(q: Queryable, id: string, forUpdate = false): Promise<PaymentRow | undefined> {
    const found = await q.query<PaymentRow>(`${SELECT_PAYMENT} WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
    return found.rows[0];
  }

  async #paymentByReference(q: Queryable, reference: string): Promise<PaymentRow | undefined> {
    const found = await q.query<PaymentRow>(`${SELECT_PAYMENT} WHERE reference = $1`, [reference]);
    return found.rows[0];
  }

  async #updatePayment(
    tx: Transaction,
    id: string,
    change: { status: PaymentStatus; paidOrderAmount: string; confirmAt: Date | null; now: Date },
  ): Promise<PaymentRow> {
    await tx.query(
      `UPDATE sandbox_payments SET status = $2, paid_order_amount = $3, confirm_at = $4, updated_at = $5 WHERE id = $1`,
      [id, change.status, change.paidOrderAmount, change.confirmAt, change.now],
    );
    const row = await this.#payment(tx, id);
    if (!row) throw new Error(`sandbox payment ${id} vanished`);
    return row;
  }

  async #payoutBy(
    q: Queryable,
    column: 'id' | 'batch_id' | 'reference',
    value: string,
    forUpdate = false,
  ): Promise<PayoutRow | undefined> {
    const found = await q.query<PayoutRow>(`${SELECT_PAYOUT} WHERE ${column} = $1${forUpdate ? ' FOR UPDATE' : ''}`, [
      value,
    ]);
    return found.rows[0];
  }

  async #invoice(q: Queryable, paymentHash: string, forUpdate = false): Promise<InvoiceRow | undefined> {
    const found = await q.query<InvoiceRow>(
      `${SELECT_INVOICE} WHERE payment_hash = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [paymentHash],
    );
    return found.rows[0];
  }

  async #invoiceByReference(q: Queryable, reference: string): Promise<InvoiceRow | undefined> {
    const found = await q.query<InvoiceRow>(`${SELECT_INVOICE} WHERE reference = $1`, [reference]);
    return found.rows[0];
  }

  #checkoutOf(row: PaymentRow): Checkout {
    const byCard = row.pay_method === 'card';
    return {
      providerReference: row.id,
      hostedUrl: `${this.#options.baseUrl()}/sandbox/checkout/${encodeURIComponent(row.id)}`,
      expiresAt: new Date(row.expires_at),
      cryptoCurrency: byCard ? null : row.crypto_currency,
      cryptoAddress: byCard ? null : row.crypto_address,
      cryptoAmount: row.crypto_amount === null ? null : canonical(exact(row.crypto_amount)),
      exchangeRate: row.exchange_rate === null ? null : canonical(exact(row.exchange_rate)),
    };
  }

  #lightningInvoiceOf(row: InvoiceRow): LightningInvoice {
    return {
      providerReference: row.payment_hash,
      invoice: row.invoice,
      paymentHash: row.payment_hash,
      expiresAt: new Date(row.expires_at),
    };
  }

  /** Read through the Triple-A mapping, so that a status call and a webhook always agree. */
  #paymentState(row: PaymentRow): PaymentState {
    const now = this.#now();
    const state = tripleAPaymentState(this.#paymentBody(row), now);
    if (!state) throw new Error(`sandbox payment ${row.id} does not map`);
    return state;
  }

  #payoutState(row: PayoutRow): PayoutState {
    const state = tripleAPayoutState(this.#payoutBody(row), this.#now());
    if (!state) throw new Error(`sandbox payout ${row.id} does not map`);
    return { ...state, needsVerification: false };
  }

  /** A payment in Triple-A's webhook shape (third-party-apis.md §1). */
  #paymentBody(row: PaymentRow): TripleAPayment {
    const paid = canonical(exact(row.paid_order_amount));
    const cryptoPaid =
      row.crypto_amount === null ? null : proportion(row.crypto_amount, row.paid_order_amount, row.order_amount, 8);
    const { tier, status } = TRIPLEA_WORDS[row.status];
    const seen = row.status === 'confirming';
    const settled = row.status === 'paid' || row.status === 'underpaid' || row.status === 'refunded';
    const txid = crypto.createHash('sha256').update(`sandbox payment tx ${row.id}`).digest('hex');
    return {
      event: 'payment',
      type: 'triplea',
      api_id: 'sandbox',
      merchant_key: 'sandbox',
      payment_reference: row.id,
      crypto_currency: row.crypto_currency,
      crypto_address: row.crypto_address,
      crypto_amount: row.crypto_amount === null ? null : canonical(exact(row.crypto_amount)),
      order_currency: row.order_currency,
      order_amount: canonical(exact(row.order_amount)),
      exchange_rate: row.exchange_rate === null ? null : canonical(exact(row.exchange_rate)),
      payment_tier: tier,
      status,
      status_date: new Date(row.updated_at).toISOString(),
      expiry_date: new Date(row.expires_at).toISOString(),
      confirmed_order_amt: settled ? paid : ZERO_TEXT,
      unconfirmed_order_amt: seen ? paid : ZERO_TEXT,
      confirmed_crypto_amt: settled ? cryptoPaid : ZERO_TEXT,
      unconfirmed_crypto_amt: seen ? cryptoPaid : ZERO_TEXT,
      payment_currency: row.crypto_currency,
      payment_amount: paid,
      payment_crypto_amount: cryptoPaid,
      receive_amount: cryptoPaid,
      transaction_fee_amount: ZERO_TEXT,
      webhook_data: { reference: row.reference },
      txs:
        seen || settled
          ? [{ txid, vout_n: 0, status: seen ? 'hold' : 'good', payment_tier: tier, receive_amount: cryptoPaid }]
          : [],
    };
  }

  /** A payout in the shape our Triple-A mapping reads (Triple-A documents none for webhooks). */
  #payoutBody(row: PayoutRow): TripleAPayout {
    return {
      event: 'payout',
      payout_reference: row.id,
      batch_id: row.batch_id,
      status: row.status,
      crypto_currency: row.currency,
      crypto_amount: canonical(exact(row.amount)),
      network_fee_crypto_amount: null,
      address: row.address,
      extra_id: row.extra_id,
      tx_hash: row.hash,
      error: row.error,
      remarks: row.reference,
      status_date: new Date(row.updated_at).toISOString(),
      webhook_data: { reference: row.reference },
    };
  }
}

/** Our status in Triple-A's words: payment_tier and status (see tripleAPaymentState). */
const TRIPLEA_WORDS: Record<PaymentStatus, { tier: string; status: string }> = {
  waiting: { tier: 'none', status: 'new' },
  confirming: { tier: 'hold', status: 'hold' },
  paid: { tier: 'good', status: 'done' },
  underpaid: { tier: 'short', status: 'done' },
  expired: { tier: 'none', status: 'expired' },
  failed: { tier: 'invalid', status: 'invalid' },
  refunded: { tier: 'good', status: 'refunded' },
};

/** The secret sandbox webhooks are signed with (HMAC of the data key with a fixed label). */
export function sandboxWebhookSecret(dataKey: string): string {
  return deriveSecret(dataKey, 'meridian sandbox webhook secret');
}
