import { randomUUID } from 'node:crypto';
import {
  type CheckoutDeposit,
  LIGHTNING_CRYPTO_CURRENCY,
  LIGHTNING_EXPIRY_SECONDS,
  type LightningPayment,
  PAYMENT_EXPIRY_SECONDS,
  type Payment,
  type PaymentStatusName,
  REFERENCE_PRICES_USD,
} from '@platform/contracts';
import { type Amount, div, formatDecimal, parseDecimal, toScale } from '@platform/money';
import type { PaymentGateway, PaymentProvider, PaymentState } from '../../adapters/payments/index.ts';
import type { Queryable } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { MarketFeed } from '../markets/index.ts';
import { currencyDecimals, trimAmount } from '../wallet/rules.ts';
import { announceCredit, type Credit, creditInTransaction, isoOrNull, type PaymentsDeps } from './credit.ts';

/**
 * Payments through the provider: hosted-checkout deposits (§7.3), the facade's payments and
 * Lightning invoices (§7.4). A row is written 'creating' before the provider is asked, completed
 * with the checkout after, or marked failed (and its idempotency key released) when the provider
 * fails, so no checkout is ever lost and no row without one is ever shown. Whatever the provider
 * says later (webhook or status poll) goes through applyPaymentState / applyLightningState, which
 * credit the creator once.
 */

export type PaymentKind = 'deposit' | 'payment' | 'lightning';
type StoredStatus = PaymentStatusName | 'creating';

export type PaymentRow = {
  id: string;
  account_id: string;
  kind: PaymentKind;
  description: string;
  order_currency: string;
  order_amount: string;
  pay_currency: string | null;
  pay_method: 'crypto' | 'card';
  provider: string;
  provider_reference: string | null;
  checkout_url: string | null;
  crypto_currency: string | null;
  crypto_address: string | null;
  crypto_amount: string | null;
  exchange_rate: string | null;
  status: StoredStatus;
  confirmed_amount: string;
  credited_amount: string | null;
  credited_at: Date | string | null;
  lightning_reference: string | null;
  lightning_provider_reference: string | null;
  lightning_invoice: string | null;
  lightning_payment_hash: string | null;
  lightning_amount: string | null;
  lightning_expires_at: Date | string | null;
  lightning_paid_at: Date | string | null;
  idempotency_key: string | null;
  expires_at: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
};

const PAYMENT_COLUMNS = `id, account_id, kind, description, order_currency, order_amount::text AS order_amount, pay_currency,
  pay_method, provider, provider_reference, checkout_url, crypto_currency, crypto_address, crypto_amount::text AS crypto_amount,
  exchange_rate::text AS exchange_rate, status, confirmed_amount::text AS confirmed_amount,
  credited_amount::text AS credited_amount, credited_at, lightning_reference, lightning_provider_reference,
  lightning_invoice, lightning_payment_hash, lightning_amount::text AS lightning_amount, lightning_expires_at,
  lightning_paid_at, idempotency_key, expires_at, created_at, updated_at`;

/** Statuses that never change again (a refund of a credited payment is logged, not booked). */
export const FINAL_STATUSES: ReadonlySet<StoredStatus> = new Set([
  'paid',
  'underpaid',
  'expired',
  'failed',
  'refunded',
]);

/** How long a retry waits for the first request with its key to hear back from the provider. */
const IN_PROGRESS_WAIT_MS = 10_000;
const IN_PROGRESS_POLL_MS = 50;

const optionalTrim = (value: string | null) => (value === null ? null : trimAmount(value));

/**
 * What a reader sees: a payment nothing was seen for past its expiry is expired (the provider
 * refuses money for it; the reconciliation worker records its final word).
 */
function shownStatus(row: PaymentRow, now: Date): PaymentStatusName {
  const status: PaymentStatusName = row.status === 'creating' ? 'waiting' : row.status;
  if (status === 'waiting' && row.lightning_paid_at === null && new Date(row.expires_at) < now) return 'expired';
  return status;
}

export function toPayment(row: PaymentRow, now: Date): Payment {
  const status = shownStatus(row, now);
  return {
    id: row.id,
    reference: row.id,
    payment_reference: row.provider_reference,
    description: row.description,
    amount: trimAmount(row.order_amount),
    currency: row.order_currency,
    crypto_currency: row.lightning_invoice ? LIGHTNING_CRYPTO_CURRENCY : row.crypto_currency,
    crypto_address: row.lightning_invoice ?? row.crypto_address,
    crypto_amount: row.lightning_invoice ? optionalTrim(row.lightning_amount) : optionalTrim(row.crypto_amount),
    exchange_rate: optionalTrim(row.exchange_rate),
    status,
    final: FINAL_STATUSES.has(status),
    expiresAt: new Date(row.expires_at).toISOString(),
    finalAmount:
      row.credited_amount !== null ? trimAmount(row.credited_amount) : FINAL_STATUSES.has(status) ? '0' : null,
    checkout_url: row.checkout_url,
    lightning:
      row.lightning_invoice && row.lightning_payment_hash && row.lightning_amount && row.lightning_expires_at
        ? {
            invoice: row.lightning_invoice,
            payment_hash: row.lightning_payment_hash,
            amount: trimAmount(row.lightning_amount),
            expires_at: new Date(row.lightning_expires_at).toISOString(),
          }
        : null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** §4 wallet status of a checkout deposit. */
export function walletStatusOf(status: PaymentStatusName, credited: boolean): 'pending' | 'completed' | 'failed' {
  if (credited) return 'completed';
  return status === 'waiting' || status === 'confirming' ? 'pending' : 'failed';
}

export function toCheckoutDeposit(row: PaymentRow, now: Date): CheckoutDeposit {
  const status = shownStatus(row, now);
  return {
    id: row.id,
    payment_method: row.pay_method,
    status: walletStatusOf(status, row.credited_at !== null),
    payment_status: status,
    currency: row.order_currency,
    amount: trimAmount(row.order_amount),
    credited_amount: optionalTrim(row.credited_amount),
    checkout_url: row.checkout_url ?? '',
    expires_at: new Date(row.expires_at).toISOString(),
    crypto_currency: row.crypto_currency,
    crypto_address: row.crypto_address,
    crypto_amount: optionalTrim(row.crypto_amount),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function toLightningPayment(row: PaymentRow, now: Date): LightningPayment {
  const paid = row.lightning_paid_at !== null;
  const expired = !paid && (row.status === 'expired' || new Date(row.lightning_expires_at ?? row.expires_at) < now);
  return {
    id: row.id,
    invoice: row.lightning_invoice ?? '',
    payment_hash: row.lightning_payment_hash ?? '',
    amount: trimAmount(row.lightning_amount ?? row.order_amount),
    description: row.description,
    expires_at: new Date(row.lightning_expires_at ?? row.expires_at).toISOString(),
    status: paid ? 'paid' : expired ? 'expired' : 'waiting',
    paid_at: isoOrNull(row.lightning_paid_at),
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** A provider call that failed: logged with its cause, answered 502 (the client falls back to its own text). */
function providerFailure(deps: PaymentsDeps, error: unknown, what: string): AppError {
  deps.log.warn({ err: error }, `payment provider failed to ${what}`);
  return new AppError('PROVIDER_UNAVAILABLE');
}

export interface NewPayment {
  kind: 'deposit' | 'payment';
  description: string;
  orderCurrency: string;
  /** Canonical positive decimal in the order currency's decimals. */
  orderAmount: string;
  payCurrency: string | null;
  /** 'card': the provider's hosted card checkout (checked against provider.card by the caller). */
  payMethod?: 'crypto' | 'card';
  successUrl: string;
  cancelUrl: string;
  payerEmail?: string | undefined;
  payerName?: string | undefined;
  idempotencyKey: string | null;
}

export class PaymentsService {
  constructor(
    readonly deps: PaymentsDeps,
    readonly gateway: PaymentGateway,
    private readonly feed: Pick<MarketFeed, 'usdPrice'>,
  ) {}

  /** Read at call time: tests swap the gateway's provider. */
  provider(): PaymentProvider {
    return this.gateway.provider;
  }

  /** The web client's routes, on the address payers and providers reach us at. */
  webUrl(path: string): string {
    return `${this.gateway.callbackBaseUrl()}${path}`;
  }

  /** A new checkout (deposit or facade payment); a retry with the same key answers the first. */
  async createCheckoutPayment(accountId: string, input: NewPayment): Promise<{ row: PaymentRow; created: boolean }> {
    const provider = this.provider();
    const id = randomUUID();
    const now = this.deps.clock();
    const inserted = await this.insertCreating(accountId, id, input.kind, now, {
      description: input.description,
      orderCurrency: input.orderCurrency,
      orderAmount: input.orderAmount,
      payCurrency: input.payCurrency,
      payMethod: input.payMethod ?? 'crypto',
      provider: provider.name,
      key: input.idempotencyKey,
      expiresAt: new Date(now.getTime() + PAYMENT_EXPIRY_SECONDS * 1000),
    });
    if (!inserted)
      return this.replay(accountId, input.kind, input.idempotencyKey, input.orderCurrency, input.orderAmount);
    let checkout: Awaited<ReturnType<PaymentProvider['createCheckout']>>;
    try {
      checkout = await provider.createCheckout({
        reference: id,
        orderCurrency: input.orderCurrency,
        orderAmount: input.orderAmount,
        payCurrency: input.payCurrency ?? undefined,
        description: input.description,
        payer: { accountId, email: input.payerEmail, name: input.payerName },
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        notifyUrl: this.gateway.webhookUrl(provider.name),
        expiresInSeconds: PAYMENT_EXPIRY_SECONDS,
        payMethod: input.payMethod,
      });
    } catch (error) {
      await this.markFailed(id, 'provider_unavailable');
      throw providerFailure(this.deps, error, 'create a checkout');
    }
    // A webhook may have moved the status on already: only 'creating' becomes 'waiting'.
    const updated = await this.deps.db.query<PaymentRow>(
      `UPDATE payments SET provider_reference = $2, checkout_url = $3, crypto_currency = $4, crypto_address = $5,
         crypto_amount = $6::numeric, exchange_rate = $7::numeric, expires_at = $8,
         status = CASE WHEN status = 'creating' THEN 'waiting' ELSE status END, updated_at = $9
       WHERE id = $1 RETURNING ${PAYMENT_COLUMNS}`,
      [
        id,
        checkout.providerReference,
        checkout.hostedUrl,
        checkout.cryptoCurrency?.toUpperCase() ?? null,
        checkout.cryptoAddress,
        checkout.cryptoAmount,
        checkout.exchangeRate,
        checkout.expiresAt,
        this.deps.clock(),
      ],
    );
    const row = updated.rows[0];
    if (!row) throw new Error(`payment ${id} vanished while its checkout was created`);
    return { row, created: true };
  }

  /** POST /lightning/payment: an invoice for `amountBtc` (canonical, 8 decimals at most). */
  async createLightning(
    accountId: string,
    amountBtc: string,
    description: string,
    key: string | null,
  ): Promise<{ row: PaymentRow; created: boolean }> {
    const provider = this.provider();
    const id = randomUUID();
    const now = this.deps.clock();
    const inserted = await this.insertCreating(accountId, id, 'lightning', now, {
      description,
      orderCurrency: 'BTC',
      orderAmount: amountBtc,
      payCurrency: LIGHTNING_CRYPTO_CURRENCY,
      payMethod: 'crypto',
      provider: provider.name,
      key,
      expiresAt: new Date(now.getTime() + LIGHTNING_EXPIRY_SECONDS * 1000),
    });
    if (!inserted) return this.replay(accountId, 'lightning', key, 'BTC', amountBtc);
    let invoice: Awaited<ReturnType<PaymentProvider['createLightningInvoice']>>;
    try {
      invoice = await provider.createLightningInvoice({
        reference: id,
        amountBtc,
        description,
        expiresInSeconds: LIGHTNING_EXPIRY_SECONDS,
        notifyUrl: this.gateway.webhookUrl(provider.name),
      });
    } catch (error) {
      await this.markFailed(id, 'provider_unavailable');
      throw providerFailure(this.deps, error, 'create a Lightning invoice');
    }
    const updated = await this.deps.db.query<PaymentRow>(
      `UPDATE payments SET provider_reference = $2, lightning_reference = $1::text, lightning_provider_reference = $2,
         lightning_invoice = $3, lightning_payment_hash = $4, lightning_amount = order_amount, lightning_expires_at = $5,
         expires_at = $5, status = CASE WHEN status = 'creating' THEN 'waiting' ELSE status END, updated_at = $6
       WHERE id = $1 RETURNING ${PAYMENT_COLUMNS}`,
      [id, invoice.providerReference, invoice.invoice, invoice.paymentHash, invoice.expiresAt, this.deps.clock()],
    );
    const row = updated.rows[0];
    if (!row) throw new Error(`lightning payment ${id} vanished while its invoice was created`);
    return { row, created: true };
  }

  /**
   * POST /payment/{id}/select with LNBC: a Lightning invoice for the payment, in BTC at the
   * provider's rate (else the live price, else the reference price). Asking again answers the
   * same invoice while it is payable.
   */
  async selectLightning(accountId: string, idOrReference: string): Promise<PaymentRow> {
    const row = await this.ownPayment(accountId, idOrReference, ['deposit', 'payment']);
    const now = this.deps.clock();
    if (row.lightning_invoice && row.lightning_expires_at && new Date(row.lightning_expires_at) > now) return row;
    const status = shownStatus(row, now);
    if (status === 'expired') throw new AppError('PAYMENT_EXPIRED');
    if (status !== 'waiting') throw new AppError('PAYMENT_NOT_PENDING');
    const amountBtc = await this.btcAmountOf(row);
    const provider = this.provider();
    // A fresh reference per invoice: an expired invoice's reference stays its own.
    const reference = `${row.id}:ln:${now.getTime()}`;
    const remainingSeconds = Math.floor((new Date(row.expires_at).getTime() - now.getTime()) / 1000);
    let invoice: Awaited<ReturnType<PaymentProvider['createLightningInvoice']>>;
    try {
      invoice = await provider.createLightningInvoice({
        reference,
        amountBtc,
        description: row.description,
        expiresInSeconds: Math.max(60, Math.min(LIGHTNING_EXPIRY_SECONDS, remainingSeconds)),
        notifyUrl: this.gateway.webhookUrl(provider.name),
      });
    } catch (error) {
      throw providerFailure(this.deps, error, 'create a Lightning invoice');
    }
    const updated = await this.deps.db.query<PaymentRow>(
      `UPDATE payments SET lightning_reference = $2, lightning_provider_reference = $3, lightning_invoice = $4,
         lightning_payment_hash = $5, lightning_amount = $6::numeric, lightning_expires_at = $7, updated_at = $8
       WHERE id = $1 AND status = 'waiting' RETURNING ${PAYMENT_COLUMNS}`,
      [
        row.id,
        reference,
        invoice.providerReference,
        invoice.invoice,
        invoice.paymentHash,
        amountBtc,
        invoice.expiresAt,
        now,
      ],
    );
    const selected = updated.rows[0];
    if (!selected) throw new AppError('PAYMENT_NOT_PENDING');
    return selected;
  }

  /** The BTC a payment's order amount is worth, rounded up to the satoshi. */
  private async btcAmountOf(row: PaymentRow): Promise<string> {
    if (row.order_currency === 'BTC') return trimAmount(row.order_amount);
    if (row.crypto_currency === 'BTC' && row.crypto_amount) return trimAmount(row.crypto_amount);
    let estimate: string | null = null;
    try {
      estimate = await this.provider().estimate(trimAmount(row.order_amount), row.order_currency, 'BTC');
    } catch (error) {
      this.deps.log.warn({ err: error }, 'provider estimate failed; pricing the Lightning invoice from our prices');
    }
    const parsed = estimate === null ? null : parseDecimal(estimate, { maxScale: 30 });
    let btc: Amount | null = parsed?.ok ? parsed.value : null;
    if (btc === null) {
      const { feed } = this;
      const usdOf = (currency: string): Amount | undefined => {
        const live = feed?.usdPrice(currency);
        if (live && live.units > 0n) return live;
        const reference = REFERENCE_PRICES_USD[currency] ?? (currency === 'USD' ? '1' : undefined);
        const value = reference === undefined ? null : parseDecimal(reference);
        return value?.ok ? value.value : undefined;
      };
      const orderUsd = usdOf(row.order_currency);
      const btcUsd = usdOf('BTC');
      if (!orderUsd || !btcUsd || btcUsd.units <= 0n) throw new AppError('PRICE_UNAVAILABLE');
      const amount = parseDecimal(row.order_amount, { maxScale: 30 });
      if (!amount.ok) throw new Error(`stored amount ${row.order_amount} does not parse`);
      btc = div(
        { units: amount.value.units * orderUsd.units, scale: amount.value.scale + orderUsd.scale },
        btcUsd,
        12,
        'up',
      );
    }
    const rounded = toScale(btc, 8, 'up');
    if (rounded.units <= 0n)
      throw new AppError('INVALID_AMOUNT', { message: 'The amount is too small for a Lightning invoice' });
    return formatDecimal(rounded, { trimZeros: true });
  }

  private async insertCreating(
    accountId: string,
    id: string,
    kind: PaymentKind,
    now: Date,
    fields: {
      description: string;
      orderCurrency: string;
      orderAmount: string;
      payCurrency: string | null;
      payMethod: 'crypto' | 'card';
      provider: string;
      key: string | null;
      expiresAt: Date;
    },
  ): Promise<boolean> {
    const inserted = await this.deps.db.query(
      `INSERT INTO payments (id, account_id, kind, description, order_currency, order_amount, pay_currency, provider,
         status, idempotency_key, expires_at, created_at, updated_at, pay_method)
       VALUES ($1, $2, $3, $4, $5, $6::numeric, $7, $8, 'creating', $9, $10, $11, $11, $12)
       ON CONFLICT (account_id, kind, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
      [
        id,
        accountId,
        kind,
        fields.description,
        fields.orderCurrency,
        fields.orderAmount,
        fields.payCurrency,
        fields.provider,
        fields.key,
        fields.expiresAt,
        now,
        fields.payMethod,
      ],
    );
    return inserted.rowCount === 1;
  }

  /** The first request with this key: the same payment, once it heard back from the provider. */
  private async replay(
    accountId: string,
    kind: PaymentKind,
    key: string | null,
    orderCurrency: string,
    orderAmount: string,
  ): Promise<{ row: PaymentRow; created: boolean }> {
    if (key === null) throw new Error('payment insert wrote nothing without an idempotency key');
    const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
    for (;;) {
      const found = await this.deps.db.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE account_id = $1 AND kind = $2 AND idempotency_key = $3`,
        [accountId, kind, key],
      );
      const row = found.rows[0];
      // The first attempt failed meanwhile and released the key: this retry should try afresh,
      // but a loop here could spin; the caller gets the provider failure the first one got.
      if (!row) throw new AppError('PROVIDER_UNAVAILABLE');
      if (row.order_currency !== orderCurrency || trimAmount(row.order_amount) !== orderAmount) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED');
      }
      if (row.status !== 'creating') return { row, created: false };
      if (Date.now() > deadline) throw new AppError('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_POLL_MS));
    }
  }

  /** The provider refused or failed: the row stays as a record, its key is free for a fresh attempt. */
  async markFailed(id: string, reason: string): Promise<void> {
    await this.deps.db.query(
      `UPDATE payments SET status = 'failed', failure_reason = $2, idempotency_key = NULL, updated_at = $3
       WHERE id = $1 AND status = 'creating'`,
      [id, reason, this.deps.clock()],
    );
  }

  /** The caller's payment by our id or the provider's reference; anyone else's is 'Payment not found'. */
  async ownPayment(accountId: string, idOrReference: string, kinds: readonly PaymentKind[]): Promise<PaymentRow> {
    const found = await this.deps.db.query<PaymentRow>(
      `SELECT ${PAYMENT_COLUMNS} FROM payments
       WHERE account_id = $1 AND kind = ANY($3::text[]) AND status <> 'creating' AND provider_reference IS NOT NULL
         AND (id::text = lower($2) OR provider_reference = $2)
       LIMIT 1`,
      [accountId, idOrReference, kinds],
    );
    const row = found.rows[0];
    if (!row) throw new AppError('PAYMENT_NOT_FOUND');
    return row;
  }

  /** Several of the caller's payments; those not found (or not the caller's) are named apart. */
  async ownPayments(
    accountId: string,
    references: readonly string[],
  ): Promise<{ rows: PaymentRow[]; notFound: string[] }> {
    const found = await this.deps.db.query<PaymentRow>(
      `SELECT ${PAYMENT_COLUMNS} FROM payments
       WHERE account_id = $1 AND kind IN ('deposit', 'payment') AND status <> 'creating' AND provider_reference IS NOT NULL
         AND (id::text = ANY($2::text[]) OR provider_reference = ANY($3::text[]))`,
      [accountId, references.map((reference) => reference.toLowerCase()), references],
    );
    const byKey = new Map<string, PaymentRow>();
    for (const row of found.rows) {
      byKey.set(row.id, row);
      if (row.provider_reference) byKey.set(row.provider_reference, row);
    }
    const rows: PaymentRow[] = [];
    const notFound: string[] = [];
    const seen = new Set<string>();
    for (const reference of references) {
      const row = byKey.get(reference) ?? byKey.get(reference.toLowerCase());
      if (!row) notFound.push(reference);
      else if (!seen.has(row.id)) {
        seen.add(row.id);
        rows.push(row);
      }
    }
    return { rows, notFound };
  }

  /**
   * What the provider says about a payment (webhook or status poll), applied once under the
   * payment's row lock. Statuses move forward only (a final one sticks). A final paid or underpaid
   * payment credits its creator the confirmed amount, in the order currency, exactly once
   * (credited_at is set where it was null, in the transaction of the ledger entry); a confirming
   * one credits nothing. Answers false when no payment has the state's reference.
   */
  async applyPaymentState(state: PaymentState, providerName: string): Promise<boolean> {
    const now = this.deps.clock();
    const result = await this.deps.db.transaction(async (tx) => {
      const row = await lockPayment(tx, state.reference, providerName, state.providerReference);
      if (!row) return { found: false as const };
      if (state.orderCurrency.toUpperCase() !== row.order_currency) {
        this.deps.log.error(
          { paymentId: row.id, ours: row.order_currency, theirs: state.orderCurrency },
          'provider reports a payment in another currency than ours: not applied',
        );
        return { found: true as const, credit: null };
      }
      if (FINAL_STATUSES.has(row.status)) {
        if (state.status !== row.status) {
          this.deps.log.warn(
            { paymentId: row.id, status: row.status, reported: state.status },
            'provider reports a new status for a final payment: kept as it was',
          );
        }
        return { found: true as const, credit: null };
      }
      const confirmed = decimalOrZero(state.confirmedOrderAmount);
      const unconfirmed = decimalOrZero(state.unconfirmedOrderAmount);
      const status = nextStatus(row.status, state);
      await tx.query(
        `UPDATE payments SET status = $2, confirmed_amount = $3::numeric, unconfirmed_amount = $4::numeric,
           provider_reference = coalesce(provider_reference, $5), crypto_currency = coalesce($6, crypto_currency),
           crypto_amount = coalesce($7::numeric, crypto_amount), updated_at = $8
         WHERE id = $1`,
        [
          row.id,
          status,
          confirmed,
          unconfirmed,
          state.providerReference,
          state.cryptoCurrency?.toUpperCase() ?? null,
          state.cryptoAmount,
          now,
        ],
      );
      if (!(state.final && (status === 'paid' || status === 'underpaid')))
        return { found: true as const, credit: null };
      return { found: true as const, credit: await this.creditOnce(tx, row, confirmed, now) };
    });
    if (result.found && result.credit) announceCredit(this.deps, result.credit.credit, result.credit.stored);
    return result.found;
  }

  /**
   * A Lightning invoice was paid (or expired): a standalone invoice credits its BTC, an invoice
   * selected for a payment pays that payment's order amount. Once, as above.
   */
  async applyLightningState(
    update: { providerReference: string; reference: string | null; paid: boolean; expired?: boolean },
    providerName: string,
  ): Promise<boolean> {
    const now = this.deps.clock();
    const result = await this.deps.db.transaction(async (tx) => {
      const found = await tx.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments
         WHERE provider = $3 AND (lightning_reference = $1 OR lightning_provider_reference = $2)
         LIMIT 1 FOR UPDATE`,
        [update.reference ?? '', update.providerReference, providerName],
      );
      const row = found.rows[0];
      if (!row) return { found: false as const };
      if (!update.paid) {
        if (update.expired && row.kind === 'lightning' && row.status === 'waiting') {
          await tx.query(`UPDATE payments SET status = 'expired', updated_at = $2 WHERE id = $1`, [row.id, now]);
        }
        return { found: true as const, credit: null };
      }
      if (row.lightning_paid_at !== null || FINAL_STATUSES.has(row.status))
        return { found: true as const, credit: null };
      const amount = trimAmount(row.order_amount);
      await tx.query(
        `UPDATE payments SET status = 'paid', lightning_paid_at = $2, confirmed_amount = order_amount, unconfirmed_amount = 0,
           updated_at = $2 WHERE id = $1`,
        [row.id, now],
      );
      return { found: true as const, credit: await this.creditOnce(tx, row, amount, now) };
    });
    if (result.found && result.credit) announceCredit(this.deps, result.credit.credit, result.credit.stored);
    return result.found;
  }

  /** The guard: credited_at is set only where it was null, so one transaction alone ever credits. */
  private async creditOnce(tx: Queryable, row: PaymentRow, confirmed: string, now: Date) {
    const decimals = currencyDecimals(row.order_currency);
    const parsed = parseDecimal(confirmed, { maxScale: 30 });
    const units = parsed.ok ? toScale(parsed.value, decimals, 'down').units : 0n;
    const amount = formatDecimal({ units, scale: decimals }, { trimZeros: true });
    if (units <= 0n) {
      this.deps.log.warn({ paymentId: row.id, confirmed }, 'final payment with nothing confirmed: nothing credited');
      return null;
    }
    const claimed = await tx.query(
      `UPDATE payments SET credited_at = $2, credited_amount = $3::numeric WHERE id = $1 AND credited_at IS NULL`,
      [row.id, now, amount],
    );
    if (claimed.rowCount !== 1) return null;
    const credit: Credit = {
      accountId: row.account_id,
      currency: row.order_currency,
      amount,
      reference: row.id,
      source: row.kind === 'deposit' ? 'checkout' : row.kind === 'lightning' ? 'lightning' : 'payment',
    };
    return { credit, stored: await creditInTransaction(tx, credit, now) };
  }
}

/**
 * Where a payment goes on a provider's report. Only a final report ends it; anything else short of
 * final is 'waiting' (nothing seen) or 'confirming' (money seen, not confirmed: never credited),
 * and a late 'waiting' never undoes 'confirming'.
 */
function nextStatus(current: StoredStatus, state: PaymentState): StoredStatus {
  if (state.final) return state.status;
  const seen = state.status !== 'waiting' && state.status !== 'expired' && state.status !== 'failed';
  return seen || current === 'confirming' ? 'confirming' : 'waiting';
}

function decimalOrZero(text: string | null | undefined): string {
  if (!text) return '0';
  const parsed = parseDecimal(text.trim(), { maxScale: 30 });
  return parsed.ok && parsed.value.units >= 0n ? formatDecimal(parsed.value, { trimZeros: true }) : '0';
}

/** The payment a provider state is about, locked: by our reference first, else the provider's. */
async function lockPayment(
  tx: Queryable,
  reference: string | null,
  providerName: string,
  providerReference: string,
): Promise<PaymentRow | undefined> {
  const found = await tx.query<PaymentRow>(
    `SELECT ${PAYMENT_COLUMNS} FROM payments
     WHERE (id::text = $1 OR (provider = $2 AND provider_reference = $3)) AND kind IN ('deposit', 'payment')
     LIMIT 1 FOR UPDATE`,
    [reference?.toLowerCase() ?? '', providerName, providerReference],
  );
  return found.rows[0];
}

/** The open payments the reconciliation worker asks the provider about, least recently asked first. */
export async function claimOpenPayments(
  q: Queryable,
  provider: string,
  now: Date,
  minIntervalMs: number,
  limit: number,
): Promise<PaymentRow[]> {
  const rows = await q.query<PaymentRow>(
    `UPDATE payments SET polled_at = $1
     WHERE id IN (
       SELECT id FROM payments
       WHERE status IN ('waiting', 'confirming') AND provider = $4 AND (polled_at IS NULL OR polled_at < $2)
       ORDER BY polled_at NULLS FIRST, id LIMIT $3
       FOR UPDATE SKIP LOCKED
     )
     RETURNING ${PAYMENT_COLUMNS}`,
    [now, new Date(now.getTime() - minIntervalMs), limit, provider],
  );
  return rows.rows;
}

/** Rows left 'creating' by a crash between our insert and the provider's answer: failed, keys released. */
export async function failStaleCreating(q: Queryable, now: Date, olderThanMs: number): Promise<number> {
  const result = await q.query(
    `UPDATE payments SET status = 'failed', failure_reason = 'interrupted', idempotency_key = NULL, updated_at = $1
     WHERE status = 'creating' AND created_at < $2`,
    [now, new Date(now.getTime() - olderThanMs)],
  );
  return result.rowCount;
}
