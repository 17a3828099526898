import type { PaymentStatusName } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';

/**
 * The payments table as the module reads and writes it outside the apply-once paths: the row
 * shape, the shared column list, and the queries every part of the module shares.
 */

export type PaymentKind = 'deposit' | 'payment' | 'lightning';
export type StoredStatus = PaymentStatusName | 'creating';

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

export const PAYMENT_COLUMNS = `id, account_id, kind, description, order_currency, order_amount::text AS order_amount, pay_currency,
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

/**
 * What a reader sees: a payment nothing was seen for past its expiry is expired (the provider
 * refuses money for it; the reconciliation worker records its final word).
 */
export function shownStatus(row: PaymentRow, now: Date): PaymentStatusName {
  const status: PaymentStatusName = row.status === 'creating' ? 'waiting' : row.status;
  if (status === 'waiting' && row.lightning_paid_at === null && new Date(row.expires_at) < now) return 'expired';
  return status;
}

/** The fields of a row written 'creating', before the provider is asked. */
export type CreatingFields = {
  description: string;
  orderCurrency: string;
  orderAmount: string;
  payCurrency: string | null;
  payMethod: 'crypto' | 'card';
  provider: string;
  key: string | null;
  expiresAt: Date;
};

/** Writes the 'creating' row; false when a row with the same idempotency key exists already. */
export async function insertCreating(
  q: Queryable,
  row: { accountId: string; id: string; kind: PaymentKind; now: Date },
  fields: CreatingFields,
): Promise<boolean> {
  const inserted = await q.query(
    `INSERT INTO payments (id, account_id, kind, description, order_currency, order_amount, pay_currency, provider,
       status, idempotency_key, expires_at, created_at, updated_at, pay_method)
     VALUES ($1, $2, $3, $4, $5, $6::numeric, $7, $8, 'creating', $9, $10, $11, $11, $12)
     ON CONFLICT (account_id, kind, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
    [
      row.id,
      row.accountId,
      row.kind,
      fields.description,
      fields.orderCurrency,
      fields.orderAmount,
      fields.payCurrency,
      fields.provider,
      fields.key,
      fields.expiresAt,
      row.now,
      fields.payMethod,
    ],
  );
  return inserted.rowCount === 1;
}

/** The row a key names, if any (a retry's way to the first request's payment). */
export async function paymentByKey(
  q: Queryable,
  accountId: string,
  kind: PaymentKind,
  key: string,
): Promise<PaymentRow | undefined> {
  const found = await q.query<PaymentRow>(
    `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE account_id = $1 AND kind = $2 AND idempotency_key = $3`,
    [accountId, kind, key],
  );
  return found.rows[0];
}

/** The provider refused or failed: the row stays as a record, its key is free for a fresh attempt. */
export async function markFailed(q: Queryable, id: string, reason: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE payments SET status = 'failed', failure_reason = $2, idempotency_key = NULL, updated_at = $3
     WHERE id = $1 AND status = 'creating'`,
    [id, reason, now],
  );
}

/** The caller's payment by our id or the provider's reference; anyone else's is 'Payment not found'. */
export async function ownPayment(
  q: Queryable,
  accountId: string,
  idOrReference: string,
  kinds: readonly PaymentKind[],
): Promise<Result<PaymentRow>> {
  const found = await q.query<PaymentRow>(
    `SELECT ${PAYMENT_COLUMNS} FROM payments
     WHERE account_id = $1 AND kind = ANY($3::text[]) AND status <> 'creating' AND provider_reference IS NOT NULL
       AND (id::text = lower($2) OR provider_reference = $2)
     LIMIT 1`,
    [accountId, idOrReference, kinds],
  );
  const row = found.rows[0];
  return row ? ok(row) : fail('PAYMENT_NOT_FOUND');
}

/** Several of the caller's payments; those not found (or not the caller's) are named apart. */
export async function ownPayments(
  q: Queryable,
  accountId: string,
  references: readonly string[],
): Promise<{ rows: PaymentRow[]; notFound: string[] }> {
  const found = await q.query<PaymentRow>(
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
