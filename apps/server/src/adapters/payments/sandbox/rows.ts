import type { Queryable, Transaction } from '../../../db/database.ts';
import { invariant } from '../../../lib/invariant.ts';
import type { PaymentStatus, PayoutStatus } from '../types.ts';

/** The sandbox's own tables (migration 0010): the rows and the reads every part shares. */

export type PaymentRow = {
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

export type PayoutRow = {
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

export type InvoiceRow = {
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

/** The outcome of a control on a sandbox page. */
export type ControlResult<T> = { ok: true; value: T } | { ok: false; error: 'not_found' | 'not_pending' | 'expired' };

const SELECT_PAYMENT = `SELECT id, reference, order_currency, order_amount::text AS order_amount, crypto_currency,
    crypto_amount::text AS crypto_amount, crypto_address, exchange_rate::text AS exchange_rate, pay_method, description,
    payer_account_id, payer_email, success_url, cancel_url, notify_url, status,
    paid_order_amount::text AS paid_order_amount, confirm_at, expires_at, created_at, updated_at
  FROM sandbox_payments`;
export const PAYOUT_COLUMNS = `id, batch_id, reference, currency, amount::text AS amount, address, extra_id, description,
    notify_url, status, hash, error, next_step_at, created_at, updated_at`;
const SELECT_INVOICE = `SELECT payment_hash, reference, preimage, amount_msat::text AS amount_msat, description, invoice,
    notify_url, status, expires_at, paid_at, created_at
  FROM sandbox_invoices`;

export async function paymentById(q: Queryable, id: string, forUpdate = false): Promise<PaymentRow | undefined> {
  const found = await q.query<PaymentRow>(`${SELECT_PAYMENT} WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return found.rows[0];
}

export async function paymentByReference(q: Queryable, reference: string): Promise<PaymentRow | undefined> {
  const found = await q.query<PaymentRow>(`${SELECT_PAYMENT} WHERE reference = $1`, [reference]);
  return found.rows[0];
}

export async function updatePayment(
  tx: Transaction,
  id: string,
  change: { status: PaymentStatus; paidOrderAmount: string; confirmAt: Date | null; now: Date },
): Promise<PaymentRow> {
  await tx.query(
    `UPDATE sandbox_payments SET status = $2, paid_order_amount = $3, confirm_at = $4, updated_at = $5 WHERE id = $1`,
    [id, change.status, change.paidOrderAmount, change.confirmAt, change.now],
  );
  const row = await paymentById(tx, id);
  invariant(row, `sandbox payment ${id} vanished`);
  return row;
}

export async function payoutBy(
  q: Queryable,
  column: 'id' | 'batch_id' | 'reference',
  value: string,
  forUpdate = false,
): Promise<PayoutRow | undefined> {
  const found = await q.query<PayoutRow>(
    `SELECT ${PAYOUT_COLUMNS} FROM sandbox_payouts WHERE ${column} = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [value],
  );
  return found.rows[0];
}

export async function invoiceByHash(
  q: Queryable,
  paymentHash: string,
  forUpdate = false,
): Promise<InvoiceRow | undefined> {
  const found = await q.query<InvoiceRow>(
    `${SELECT_INVOICE} WHERE payment_hash = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [paymentHash],
  );
  return found.rows[0];
}

export async function invoiceByReference(q: Queryable, reference: string): Promise<InvoiceRow | undefined> {
  const found = await q.query<InvoiceRow>(`${SELECT_INVOICE} WHERE reference = $1`, [reference]);
  return found.rows[0];
}
