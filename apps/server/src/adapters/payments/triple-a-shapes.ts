import { z } from 'zod';
import { dateFromProvider, decimalFromProvider, ZERO_TEXT } from './amounts.ts';
import { checkTripleASignature, signedJsonObject, TRIPLEA_SIGNATURE_HEADER, webhookEventId } from './signatures.ts';
import type { PaymentState, PaymentStatus, PayoutState, PayoutStatus, WebhookCheck, WebhookInput } from './types.ts';

/**
 * Triple-A's payment and webhook shapes (third-party-apis.md §1) and their mapping to ours. The
 * sandbox speaks exactly these shapes, so every sandbox webhook exercises this code too.
 *
 * Payout and Lightning webhooks are not documented by Triple-A: their shapes here are our choice
 * (docs/payment-providers.md) and the mapping accepts the likely spellings.
 */

/** References are our ids or Triple-A's (about 20 characters); anything longer is not one of them. */
const MAX_REFERENCE_LENGTH = 200;
/** Currency codes are a few letters; this bounds what a forged body can make us store. */
const MAX_CURRENCY_LENGTH = 20;

const amountField = z.union([z.string(), z.number()]).nullish();
const textField = z.string().nullish();

export const tripleAPaymentSchema = z.looseObject({
  payment_reference: z.string().min(1).max(MAX_REFERENCE_LENGTH),
  order_currency: z.string().min(1).max(MAX_CURRENCY_LENGTH),
  order_amount: amountField,
  crypto_currency: textField,
  crypto_address: textField,
  crypto_amount: amountField,
  exchange_rate: amountField,
  confirmed_order_amt: amountField,
  unconfirmed_order_amt: amountField,
  confirmed_crypto_amt: amountField,
  unconfirmed_crypto_amt: amountField,
  payment_tier: textField,
  status: textField,
  status_date: textField,
  expiry_date: textField,
  webhook_data: z.unknown().optional(),
});
export type TripleAPayment = z.infer<typeof tripleAPaymentSchema>;

export const tripleAPayoutSchema = z.looseObject({
  payout_reference: z.string().min(1).max(MAX_REFERENCE_LENGTH),
  batch_id: textField,
  status: textField,
  crypto_currency: textField,
  crypto_amount: amountField,
  network_fee_crypto_amount: amountField,
  tx_hash: textField,
  txid: textField,
  error: textField,
  remarks: textField,
  status_date: textField,
  webhook_data: z.unknown().optional(),
});
export type TripleAPayout = z.infer<typeof tripleAPayoutSchema>;

export const tripleALightningSchema = z.looseObject({
  payment_reference: z.string().min(1).max(MAX_REFERENCE_LENGTH),
  payment_hash: textField,
  status: textField,
  payment_tier: textField,
  expiry_date: textField,
  webhook_data: z.unknown().optional(),
});

const DONE_STATUSES = new Set(['done', 'good', 'completed', 'complete', 'paid', 'success', 'settled']);
const EXPIRED_STATUSES = new Set(['cancel', 'cancelled', 'canceled', 'expired']);

/** Our reference, echoed in webhook_data (an object, or the JSON text of one). */
export function referenceOf(webhookData: unknown): string | null {
  let data = webhookData;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (data !== null && typeof data === 'object' && 'reference' in data) {
    const reference = (data as { reference: unknown }).reference;
    if (typeof reference === 'string' && reference.length > 0 && reference.length <= MAX_REFERENCE_LENGTH)
      return reference;
  }
  return null;
}

/**
 * payment_tier + status + expiry -> our status. The tier says what money was seen (none, hold:
 * seen but unconfirmed, short: too little, good: enough and confirmed, invalid: rejected); the
 * status says whether Triple-A is done with the payment; the expiry ends a payment nobody paid.
 */
export function tripleAPaymentState(payment: TripleAPayment, now: Date): PaymentState | null {
  const orderAmount = decimalFromProvider(payment.order_amount);
  if (orderAmount === null) return null;
  const tier = (payment.payment_tier ?? 'none').toLowerCase();
  const status = (payment.status ?? '').toLowerCase();
  const confirmed = decimalFromProvider(payment.confirmed_order_amt) ?? ZERO_TEXT;
  const unconfirmed = decimalFromProvider(payment.unconfirmed_order_amt) ?? ZERO_TEXT;
  const expiry = payment.expiry_date ? dateFromProvider(payment.expiry_date, now) : null;
  const pastExpiry = EXPIRED_STATUSES.has(status) || (expiry !== null && expiry.getTime() <= now.getTime());

  let ours: PaymentStatus;
  let final: boolean;
  let confirmedAmount = confirmed;
  let unconfirmedAmount = unconfirmed;
  if (status === 'refunded') {
    ours = 'refunded';
    final = true;
  } else if (tier === 'good') {
    ours = 'paid';
    final = true;
    // A 'good' payment is confirmed in full, whatever an older field still says.
    if (confirmedAmount === ZERO_TEXT) confirmedAmount = orderAmount;
    unconfirmedAmount = ZERO_TEXT;
  } else if (tier === 'short') {
    ours = 'underpaid';
    final = DONE_STATUSES.has(status) || pastExpiry;
  } else if (tier === 'hold') {
    ours = 'confirming';
    final = false;
  } else if (tier === 'invalid') {
    ours = 'failed';
    final = true;
    confirmedAmount = ZERO_TEXT;
    unconfirmedAmount = ZERO_TEXT;
  } else {
    ours = pastExpiry ? 'expired' : 'waiting';
    final = pastExpiry;
  }
  return {
    providerReference: payment.payment_reference,
    reference: referenceOf(payment.webhook_data),
    status: ours,
    final,
    orderCurrency: payment.order_currency.toUpperCase(),
    orderAmount,
    cryptoCurrency: payment.crypto_currency ? payment.crypto_currency.toUpperCase() : null,
    cryptoAmount: decimalFromProvider(payment.crypto_amount),
    confirmedOrderAmount: confirmedAmount,
    unconfirmedOrderAmount: unconfirmedAmount,
    updatedAt: dateFromProvider(payment.status_date, now),
  };
}

const PAYOUT_STATUS_WORDS: Record<string, PayoutStatus> = {
  creating: 'creating',
  new: 'creating',
  created: 'creating',
  pending_confirmation: 'creating',
  waiting: 'waiting',
  confirmed: 'waiting',
  pending: 'waiting',
  queued: 'waiting',
  processing: 'processing',
  in_progress: 'processing',
  sending: 'sending',
  sent: 'sending',
  broadcast: 'sending',
  finished: 'finished',
  done: 'finished',
  completed: 'finished',
  complete: 'finished',
  success: 'finished',
  failed: 'failed',
  error: 'failed',
  rejected: 'rejected',
  cancel: 'rejected',
  cancelled: 'rejected',
  canceled: 'rejected',
};

export function tripleAPayoutStatus(word: string | null | undefined): PayoutStatus | null {
  return PAYOUT_STATUS_WORDS[(word ?? '').toLowerCase()] ?? null;
}

export function tripleAPayoutState(payout: TripleAPayout, now: Date): PayoutState | null {
  const status = tripleAPayoutStatus(payout.status);
  if (status === null) return null;
  return {
    providerReference: payout.payout_reference,
    batchId: payout.batch_id ?? payout.payout_reference,
    reference: referenceOf(payout.webhook_data) ?? payout.remarks ?? null,
    status,
    // Triple-A's confirm step (PUT .../confirm) is what verifyPayout does.
    needsVerification: status === 'creating',
    networkFee: decimalFromProvider(payout.network_fee_crypto_amount),
    hash: payout.tx_hash ?? payout.txid ?? null,
    error: payout.error ?? null,
    updatedAt: dateFromProvider(payout.status_date, now),
  };
}

export function tripleALightningPaid(body: z.infer<typeof tripleALightningSchema>): boolean {
  return DONE_STATUSES.has((body.status ?? '').toLowerCase()) || (body.payment_tier ?? '').toLowerCase() === 'good';
}

/**
 * Checks a Triple-A-style webhook: signature header, time window, then the body's shape. The
 * secret may depend on our reference in the body (Triple-A: one notify_secret per payment), so
 * the body is parsed first, but nothing in it is believed before the signature checks out.
 */
export function checkTripleAWebhook(
  provider: string,
  input: WebhookInput,
  secretFor: (reference: string | null) => string | null,
  toleranceSeconds: number,
): WebhookCheck {
  const signed = signedJsonObject(input, TRIPLEA_SIGNATURE_HEADER);
  if (!signed.ok) return signed;
  const { header, body } = signed;
  const secret = secretFor(referenceOf((body as { webhook_data?: unknown }).webhook_data));
  if (secret === null) return { ok: false, reason: 'malformed' };
  const verdict = checkTripleASignature(header, input.rawBody, secret, input.now, toleranceSeconds);
  if (verdict !== 'ok') return { ok: false, reason: verdict };

  const eventId = webhookEventId(provider, body);
  const event = String((body as { event?: unknown }).event ?? 'payment').toLowerCase();
  if (event === 'payment') {
    const parsed = tripleAPaymentSchema.safeParse(body);
    const payment = parsed.success ? tripleAPaymentState(parsed.data, input.now) : null;
    return payment ? { ok: true, eventId, event: { kind: 'payment', payment } } : { ok: false, reason: 'malformed' };
  }
  if (event === 'payout') {
    const parsed = tripleAPayoutSchema.safeParse(body);
    const payout = parsed.success ? tripleAPayoutState(parsed.data, input.now) : null;
    return payout ? { ok: true, eventId, event: { kind: 'payout', payout } } : { ok: false, reason: 'malformed' };
  }
  if (event === 'lightning') {
    const parsed = tripleALightningSchema.safeParse(body);
    if (!parsed.success) return { ok: false, reason: 'malformed' };
    return {
      ok: true,
      eventId,
      event: {
        kind: 'lightning',
        providerReference: parsed.data.payment_reference,
        reference: referenceOf(parsed.data.webhook_data),
        paid: tripleALightningPaid(parsed.data),
      },
    };
  }
  return { ok: false, reason: 'malformed' };
}
