import { compare, div, isZero, sub, toScale } from '@platform/money';
import type { Database } from '../../../db/database.ts';
import { invariant } from '../../../lib/invariant.ts';
import { canonical, decimalFromProvider, exact } from '../amounts.ts';
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
import type { SandboxCheckoutControls } from './checkout-controls.ts';
import { type PaymentRow, paymentById, paymentByReference } from './rows.ts';
import { CRYPTO_SCALE, paymentState } from './shapes.ts';

/**
 * Hosted checkouts as the server sees them: created, read (status and the page's view) and
 * refunded. What the payer does on the page, and what time does after, is in checkout-controls.ts.
 */

export type CheckoutOptions = {
  db: Database;
  clock: () => Date;
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

export class SandboxCheckouts {
  constructor(
    private readonly options: CheckoutOptions,
    private readonly controls: SandboxCheckoutControls,
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
    if (inserted.rows.length > 0) this.controls.armExpiry(id, expiresAt);
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
