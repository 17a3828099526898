import crypto from 'node:crypto';
import { invariant } from '../../../lib/invariant.ts';
import { canonical, exact, proportion, ZERO_TEXT } from '../amounts.ts';
import {
  type TripleAPayment,
  type TripleAPayout,
  tripleAPaymentState,
  tripleAPayoutState,
} from '../triple-a-shapes.ts';
import type { PaymentState, PaymentStatus, PayoutState } from '../types.ts';
import type { PaymentRow, PayoutRow } from './rows.ts';

/**
 * Sandbox rows in Triple-A's shapes: its webhooks carry them, and its status calls read them
 * back through the same Triple-A mapping, so that a status call and a webhook always agree.
 */

/** Decimals of a crypto amount the sandbox quotes (satoshi). */
export const CRYPTO_SCALE = 8;

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

export function paymentState(row: PaymentRow, now: Date): PaymentState {
  const state = tripleAPaymentState(paymentBody(row), now);
  invariant(state, `sandbox payment ${row.id} does not map`);
  return state;
}

export function payoutState(row: PayoutRow, now: Date): PayoutState {
  const state = tripleAPayoutState(payoutBody(row), now);
  invariant(state, `sandbox payout ${row.id} does not map`);
  return { ...state, needsVerification: false };
}

/** A payment in Triple-A's webhook shape (third-party-apis.md §1). */
export function paymentBody(row: PaymentRow): TripleAPayment {
  const paid = canonical(exact(row.paid_order_amount));
  const cryptoPaid =
    row.crypto_amount === null
      ? null
      : proportion(row.crypto_amount, row.paid_order_amount, row.order_amount, CRYPTO_SCALE);
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
export function payoutBody(row: PayoutRow): TripleAPayout {
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
