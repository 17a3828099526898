import { compare, div, isZero, mul, sub, toScale } from '@platform/money';
import type { Database, Transaction } from '../../../db/database.ts';
import { invariant } from '../../../lib/invariant.ts';
import { canonical, decimalFromProvider, exact, ZERO_TEXT } from '../amounts.ts';
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
} from '../sandbox-values.ts';
import type { CardSupport, Checkout, CheckoutRequest, PaymentState, PaymentStatus } from '../types.ts';
import { type ControlResult, type PaymentRow, paymentById, paymentByReference, updatePayment } from './rows.ts';
import { CRYPTO_SCALE, paymentBody, paymentState } from './shapes.ts';
import type { SandboxTimers } from './timers.ts';
import type { SandboxWebhooks } from './webhooks.ts';

/**
 * Hosted checkouts: created by the server, paid, underpaid, declined or left to expire on the
 * sandbox page, confirmed after a delay, refunded on request. Every change sends a webhook.
 */

export type CheckoutOptions = {
  db: Database;
  clock: () => Date;
  confirmDelayMs: number;
  /** Base URL of the hosted pages (the callback base, known once the server listens). */
  baseUrl: () => string;
  /** Price of one unit of `payCurrency` in `orderCurrency` (decimal text), or null when unknown. */
  rate?: (orderCurrency: string, payCurrency: string) => string | null;
};

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

/** What the hosted card page sells (the provider's `card`). */
const CARD: CardSupport = SANDBOX_CARD;

/** The page's "pay half" button pays this share of the order (an underpayment to try). */
const UNDERPAID_SHARE = '0.5';

export class SandboxCheckouts {
  constructor(
    private readonly options: CheckoutOptions,
    private readonly timers: SandboxTimers,
    private readonly webhooks: SandboxWebhooks,
  ) {}

  async create(request: CheckoutRequest): Promise<Checkout> {
    const reference = checkReference(request.reference);
    const orderCurrency = checkCurrency(request.orderCurrency, 'orderCurrency');
    const orderAmount = canonical(exact(checkAmount(request.orderAmount, 'orderAmount')));
    const byCard = request.payMethod === 'card';
    if (byCard && !CARD.currencies.includes(orderCurrency)) {
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
    const quote = byCard
      ? { cryptoAmount: null, exchangeRate: null }
      : this.#quote(orderCurrency, orderAmount, cryptoCurrency);
    const row = await this.#insert(request, {
      reference,
      orderCurrency,
      orderAmount,
      cryptoCurrency,
      description,
      byCard,
      expiresInSeconds,
      ...quote,
    });
    return this.#checkoutOf(row);
  }

  /** ON CONFLICT: a retry with the same reference (after a crash, say) answers the first checkout. */
  async #insert(
    request: CheckoutRequest,
    checked: {
      reference: string;
      orderCurrency: string;
      orderAmount: string;
      cryptoCurrency: string;
      description: string;
      byCard: boolean;
      expiresInSeconds: number;
      cryptoAmount: string | null;
      exchangeRate: string | null;
    },
  ): Promise<PaymentRow> {
    const now = this.options.clock();
    const id = sandboxId('PMT');
    const expiresAt = new Date(now.getTime() + checked.expiresInSeconds * 1000);
    const inserted = await this.options.db.query<{ id: string }>(
      `INSERT INTO sandbox_payments (id, reference, order_currency, order_amount, crypto_currency, crypto_amount,
          crypto_address, exchange_rate, description, payer_account_id, payer_email, success_url, cancel_url,
          notify_url, status, expires_at, created_at, updated_at, pay_method)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'waiting', $15, $16, $16, $17)
        ON CONFLICT (reference) DO NOTHING
        RETURNING id`,
      [
        id,
        checked.reference,
        checked.orderCurrency,
        checked.orderAmount,
        checked.cryptoCurrency,
        checked.cryptoAmount,
        checked.byCard ? '' : sandboxAddress(checked.cryptoCurrency, id),
        checked.exchangeRate,
        checked.description,
        String(request.payer.accountId),
        request.payer.email ?? null,
        request.successUrl,
        request.cancelUrl,
        request.notifyUrl,
        expiresAt,
        now,
        checked.byCard ? 'card' : 'crypto',
      ],
    );
    if (inserted.rows.length > 0) this.armExpiry(id, expiresAt);
    const row = await paymentByReference(this.options.db, checked.reference);
    invariant(row, `sandbox checkout ${checked.reference} vanished after insert`);
    return row;
  }

  async status(providerReference: string): Promise<PaymentState> {
    const row = await paymentById(this.options.db, providerReference);
    if (!row) throw refuse('NOT_FOUND', `payment ${providerReference} not found`, 404);
    return paymentState(row, this.options.clock());
  }

  /** The checkout page's view of a payment; null when there is none. */
  async view(id: string): Promise<CheckoutView | null> {
    const row = await paymentById(this.options.db, id);
    if (!row) return null;
    const state = paymentState(row, this.options.clock());
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
    return this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      const now = this.options.clock();
      // A card is charged in full or not at all.
      if (row.status !== 'waiting' || (part === 'half' && row.pay_method === 'card')) {
        return { ok: false, error: 'not_pending' };
      }
      if (new Date(row.expires_at).getTime() <= now.getTime()) {
        await this.#finish(tx, row, 'expired', now);
        return { ok: false, error: 'expired' };
      }
      const orderAmount = exact(row.order_amount);
      const paid = part === 'full' ? orderAmount : mul(orderAmount, exact(UNDERPAID_SHARE));
      const confirmAt = new Date(now.getTime() + this.options.confirmDelayMs);
      const updated = await updatePayment(tx, row.id, {
        status: 'confirming',
        paidOrderAmount: canonical(paid),
        confirmAt,
        now,
      });
      await this.webhooks.enqueue(tx, 'payment', row.id, row.notify_url, paymentBody(updated));
      tx.afterCommit(() => this.armConfirmation(row.id, confirmAt));
      return { ok: true, value: { redirectTo: row.success_url } };
    });
  }

  /** The card is declined (the card page's second button): failed, final, nothing paid. Answers the cancel URL. */
  async decline(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'waiting' || row.pay_method !== 'card') return { ok: false, error: 'not_pending' };
      await this.#finish(tx, row, 'failed', this.options.clock());
      return { ok: true, value: { redirectTo: row.cancel_url } };
    });
  }

  /** The payer lets the payment expire (the page's third button). Answers the cancel URL. */
  async expire(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'waiting') return { ok: false, error: 'not_pending' };
      await this.#finish(tx, row, 'expired', this.options.clock());
      return { ok: true, value: { redirectTo: row.cancel_url } };
    });
  }

  async refund(providerReference: string, amount: string, email: string): Promise<{ refundReference: string }> {
    const refundAmount = exact(checkAmount(amount));
    checkText(email, 'email');
    return this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, providerReference, true);
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
        [refundReference, row.id, canonical(refundAmount), email, this.options.clock()],
      );
      return { refundReference };
    });
  }

  /** Re-arms the confirmations and expiries pending when the server stopped; answers how many. */
  async rearmPending(): Promise<number> {
    const payments = await this.options.db.query<{
      id: string;
      status: PaymentStatus;
      confirm_at: Date | null;
      expires_at: Date;
    }>(`SELECT id, status, confirm_at, expires_at FROM sandbox_payments WHERE status IN ('waiting', 'confirming')`);
    for (const row of payments.rows) {
      if (row.status === 'confirming') this.armConfirmation(row.id, row.confirm_at ?? this.options.clock());
      else this.armExpiry(row.id, row.expires_at);
    }
    return payments.rows.length;
  }

  armConfirmation(id: string, at: Date): void {
    this.timers.arm(`payment:${id}`, at, () => this.#confirm(id));
  }

  armExpiry(id: string, at: Date): void {
    this.timers.arm(`payment:${id}`, at, () => this.#expireOnTime(id));
  }

  /** A confirming payment becomes final: paid in full, or underpaid with the part paid. */
  async #confirm(id: string): Promise<void> {
    await this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (row?.status !== 'confirming') return;
      const now = this.options.clock();
      const confirmAt = row.confirm_at ? new Date(row.confirm_at) : now;
      if (confirmAt.getTime() > now.getTime()) {
        tx.afterCommit(() => this.armConfirmation(id, confirmAt));
        return;
      }
      const full = compare(exact(row.paid_order_amount), exact(row.order_amount)) >= 0;
      await this.#finish(tx, row, full ? 'paid' : 'underpaid', now);
    });
  }

  async #expireOnTime(id: string): Promise<void> {
    await this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (row?.status !== 'waiting') return;
      const now = this.options.clock();
      const expiresAt = new Date(row.expires_at);
      if (expiresAt.getTime() > now.getTime()) {
        tx.afterCommit(() => this.armExpiry(id, expiresAt));
        return;
      }
      await this.#finish(tx, row, 'expired', now);
    });
  }

  async #finish(tx: Transaction, row: PaymentRow, status: PaymentStatus, now: Date): Promise<void> {
    const updated = await updatePayment(tx, row.id, {
      status,
      paidOrderAmount: status === 'expired' || status === 'failed' ? ZERO_TEXT : row.paid_order_amount,
      confirmAt: null,
      now,
    });
    await this.webhooks.enqueue(tx, 'payment', row.id, row.notify_url, paymentBody(updated));
    tx.afterCommit(() => this.timers.disarm(`payment:${row.id}`));
  }

  #quote(orderCurrency: string, orderAmount: string, cryptoCurrency: string) {
    if (orderCurrency === cryptoCurrency) return { cryptoAmount: orderAmount, exchangeRate: '1' };
    const rateText = this.options.rate?.(orderCurrency, cryptoCurrency) ?? null;
    const rate = rateText === null ? null : decimalFromProvider(rateText);
    if (rate === null || isZero(exact(rate))) return { cryptoAmount: null, exchangeRate: null };
    // Rounded up: the payer never owes less than the order is worth.
    const crypto = toScale(div(exact(orderAmount), exact(rate), CRYPTO_SCALE, 'up'), CRYPTO_SCALE, 'up');
    return { cryptoAmount: canonical(crypto), exchangeRate: rate };
  }

  #checkoutOf(row: PaymentRow): Checkout {
    const byCard = row.pay_method === 'card';
    return {
      providerReference: row.id,
      hostedUrl: `${this.options.baseUrl()}/sandbox/checkout/${encodeURIComponent(row.id)}`,
      expiresAt: new Date(row.expires_at),
      cryptoCurrency: byCard ? null : row.crypto_currency,
      cryptoAddress: byCard ? null : row.crypto_address,
      cryptoAmount: row.crypto_amount === null ? null : canonical(exact(row.crypto_amount)),
      exchangeRate: row.exchange_rate === null ? null : canonical(exact(row.exchange_rate)),
    };
  }
}
