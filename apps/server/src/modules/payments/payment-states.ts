import { formatDecimal, parseDecimal, toScale } from '@platform/money';
import type { PaymentState } from '../../adapters/payments/index.ts';
import type { Queryable } from '../../db/database.ts';
import { currencyDecimals, trimAmount } from '../wallet/rules.ts';
import { announceCredit, type Credit, creditInTransaction, type PaymentsDeps } from './credit.ts';
import { FINAL_STATUSES, PAYMENT_COLUMNS, type PaymentRow, type StoredStatus } from './payment-rows.ts';

/**
 * What the provider says later (webhook or status poll) about a payment or a Lightning invoice,
 * applied once under the payment's row lock; a final paid one credits its creator once.
 */

/** Provider amounts are read with more decimals than any currency or provider uses, then cut to the currency's. */
const AMOUNT_READ_MAX_SCALE = 30;

/**
 * Statuses move forward only (a final one sticks). A final paid or underpaid payment credits its
 * creator the confirmed amount, in the order currency, exactly once (credited_at is set where it
 * was null, in the transaction of the ledger entry); a confirming one credits nothing. Answers
 * false when no payment has the state's reference.
 */
export async function applyPaymentState(
  deps: PaymentsDeps,
  state: PaymentState,
  providerName: string,
): Promise<boolean> {
  const now = deps.clock();
  const result = await deps.db.transaction(async (tx) => {
    const row = await lockPayment(tx, state.reference, providerName, state.providerReference);
    if (!row) return { found: false as const };
    if (!stateApplies(deps, row, state)) return { found: true as const, credit: null };
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
    if (!(state.final && (status === 'paid' || status === 'underpaid'))) return { found: true as const, credit: null };
    return { found: true as const, credit: await creditOnce(deps, tx, row, confirmed, now) };
  });
  if (result.found && result.credit) announceCredit(deps, result.credit.credit, result.credit.stored);
  return result.found;
}

/** A report in another currency than ours, or about a payment already final, changes nothing (and is logged). */
function stateApplies(deps: PaymentsDeps, row: PaymentRow, state: PaymentState): boolean {
  if (state.orderCurrency.toUpperCase() !== row.order_currency) {
    deps.log.error(
      { paymentId: row.id, ours: row.order_currency, theirs: state.orderCurrency },
      'provider reports a payment in another currency than ours: not applied',
    );
    return false;
  }
  if (FINAL_STATUSES.has(row.status)) {
    if (state.status !== row.status) {
      deps.log.warn(
        { paymentId: row.id, status: row.status, reported: state.status },
        'provider reports a new status for a final payment: kept as it was',
      );
    }
    return false;
  }
  return true;
}

/**
 * A Lightning invoice was paid (or expired): a standalone invoice credits its BTC, an invoice
 * selected for a payment pays that payment's order amount. Once, as above.
 */
export async function applyLightningState(
  deps: PaymentsDeps,
  update: { providerReference: string; reference: string | null; paid: boolean; expired?: boolean },
  providerName: string,
): Promise<boolean> {
  const now = deps.clock();
  const result = await deps.db.transaction(async (tx) => {
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
    if (row.lightning_paid_at !== null || FINAL_STATUSES.has(row.status)) return { found: true as const, credit: null };
    const amount = trimAmount(row.order_amount);
    await tx.query(
      `UPDATE payments SET status = 'paid', lightning_paid_at = $2, confirmed_amount = order_amount, unconfirmed_amount = 0,
         updated_at = $2 WHERE id = $1`,
      [row.id, now],
    );
    return { found: true as const, credit: await creditOnce(deps, tx, row, amount, now) };
  });
  if (result.found && result.credit) announceCredit(deps, result.credit.credit, result.credit.stored);
  return result.found;
}

/** The guard: credited_at is set only where it was null, so one transaction alone ever credits. */
async function creditOnce(deps: PaymentsDeps, tx: Queryable, row: PaymentRow, confirmed: string, now: Date) {
  const decimals = currencyDecimals(row.order_currency);
  const parsed = parseDecimal(confirmed, { maxScale: AMOUNT_READ_MAX_SCALE });
  const units = parsed.ok ? toScale(parsed.value, decimals, 'down').units : 0n;
  const amount = formatDecimal({ units, scale: decimals }, { trimZeros: true });
  if (units <= 0n) {
    deps.log.warn({ paymentId: row.id, confirmed }, 'final payment with nothing confirmed: nothing credited');
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
  return { credit, stored: await creditInTransaction(deps, tx, credit, now) };
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
  const parsed = parseDecimal(text.trim(), { maxScale: AMOUNT_READ_MAX_SCALE });
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
