import { randomUUID } from 'node:crypto';
import { LIGHTNING_CRYPTO_CURRENCY, LIGHTNING_EXPIRY_SECONDS, PAYMENT_EXPIRY_SECONDS } from '@platform/contracts';
import type { Checkout, CheckoutRequest, LightningInvoice } from '../../adapters/payments/types.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { trimAmount } from '../wallet/rules.ts';
import type { PaymentsDeps } from './credit.ts';
import {
  type CreatingFields,
  insertCreating,
  markFailed,
  PAYMENT_COLUMNS,
  type PaymentKind,
  type PaymentRow,
  paymentByKey,
} from './payment-rows.ts';
import { type ProviderAccess, providerFailure } from './provider-calls.ts';

/**
 * A new checkout or Lightning invoice with the provider. A row is written 'creating' before the
 * provider is asked, completed with the checkout after, or marked failed (and its idempotency key
 * released) when the provider fails, so no checkout is ever lost and no row without one is ever
 * shown. A retry with the same key answers the first request's payment.
 */

/** How long a retry waits for the first request with its key to hear back from the provider. */
const IN_PROGRESS_WAIT_MS = 10_000;
/** How often that retry looks again: soon after the first request ends, at the cost of one small read. */
const IN_PROGRESS_POLL_MS = 50;

export type CreatedPayment = { row: PaymentRow; created: boolean };

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

/** A new checkout (deposit or facade payment); a retry with the same key answers the first. */
export async function createCheckoutPayment(
  service: ProviderAccess,
  accountId: string,
  input: NewPayment,
): Promise<Result<CreatedPayment>> {
  const { deps } = service;
  const provider = service.provider();
  const id = randomUUID();
  const now = deps.clock();
  const inserted = await insertCreating(
    deps.db,
    { accountId, id, kind: input.kind, now },
    {
      description: input.description,
      orderCurrency: input.orderCurrency,
      orderAmount: input.orderAmount,
      payCurrency: input.payCurrency,
      payMethod: input.payMethod ?? 'crypto',
      provider: provider.name,
      key: input.idempotencyKey,
      expiresAt: new Date(now.getTime() + PAYMENT_EXPIRY_SECONDS * 1000),
    },
  );
  if (!inserted) return replay(deps, accountId, input.kind, input.idempotencyKey, input);
  let checkout: Checkout;
  try {
    checkout = await provider.createCheckout(checkoutRequest(service, id, accountId, input));
  } catch (error) {
    await markFailed(deps.db, id, 'provider_unavailable', deps.clock());
    return providerFailure(deps, error, 'create a checkout');
  }
  return ok({ row: await completeCheckout(deps, id, checkout), created: true });
}

function checkoutRequest(service: ProviderAccess, id: string, accountId: string, input: NewPayment): CheckoutRequest {
  return {
    reference: id,
    orderCurrency: input.orderCurrency,
    orderAmount: input.orderAmount,
    payCurrency: input.payCurrency ?? undefined,
    description: input.description,
    payer: { accountId, email: input.payerEmail, name: input.payerName },
    successUrl: input.successUrl,
    cancelUrl: input.cancelUrl,
    notifyUrl: service.notifyUrl(),
    expiresInSeconds: PAYMENT_EXPIRY_SECONDS,
    payMethod: input.payMethod,
  };
}

/** The provider's checkout on our row. A webhook may have moved the status on already: only 'creating' becomes 'waiting'. */
async function completeCheckout(deps: PaymentsDeps, id: string, checkout: Checkout): Promise<PaymentRow> {
  const updated = await deps.db.query<PaymentRow>(
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
      deps.clock(),
    ],
  );
  const row = updated.rows[0];
  invariant(row, `payment ${id} vanished while its checkout was created`);
  return row;
}

/** POST /lightning/payment: an invoice for `amountBtc` (canonical, 8 decimals at most). */
export async function createLightning(
  service: ProviderAccess,
  accountId: string,
  amountBtc: string,
  description: string,
  key: string | null,
): Promise<Result<CreatedPayment>> {
  const { deps } = service;
  const provider = service.provider();
  const id = randomUUID();
  const now = deps.clock();
  const fields: CreatingFields = {
    description,
    orderCurrency: 'BTC',
    orderAmount: amountBtc,
    payCurrency: LIGHTNING_CRYPTO_CURRENCY,
    payMethod: 'crypto',
    provider: provider.name,
    key,
    expiresAt: new Date(now.getTime() + LIGHTNING_EXPIRY_SECONDS * 1000),
  };
  const inserted = await insertCreating(deps.db, { accountId, id, kind: 'lightning', now }, fields);
  if (!inserted) return replay(deps, accountId, 'lightning', key, fields);
  let invoice: LightningInvoice;
  try {
    invoice = await provider.createLightningInvoice({
      reference: id,
      amountBtc,
      description,
      expiresInSeconds: LIGHTNING_EXPIRY_SECONDS,
      notifyUrl: service.notifyUrl(),
    });
  } catch (error) {
    await markFailed(deps.db, id, 'provider_unavailable', deps.clock());
    return providerFailure(deps, error, 'create a Lightning invoice');
  }
  const updated = await deps.db.query<PaymentRow>(
    `UPDATE payments SET provider_reference = $2, lightning_reference = $1::text, lightning_provider_reference = $2,
       lightning_invoice = $3, lightning_payment_hash = $4, lightning_amount = order_amount, lightning_expires_at = $5,
       expires_at = $5, status = CASE WHEN status = 'creating' THEN 'waiting' ELSE status END, updated_at = $6
     WHERE id = $1 RETURNING ${PAYMENT_COLUMNS}`,
    [id, invoice.providerReference, invoice.invoice, invoice.paymentHash, invoice.expiresAt, deps.clock()],
  );
  const row = updated.rows[0];
  invariant(row, `lightning payment ${id} vanished while its invoice was created`);
  return ok({ row, created: true });
}

/** The first request with this key: the same payment, once it heard back from the provider. */
async function replay(
  deps: PaymentsDeps,
  accountId: string,
  kind: PaymentKind,
  key: string | null,
  order: { orderCurrency: string; orderAmount: string },
): Promise<Result<CreatedPayment>> {
  invariant(key !== null, 'payment insert wrote nothing without an idempotency key');
  const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
  for (;;) {
    const row = await paymentByKey(deps.db, accountId, kind, key);
    // The first attempt failed meanwhile and released the key: this retry should try afresh,
    // but a loop here could spin; the caller gets the provider failure the first one got.
    if (!row) return fail('PROVIDER_UNAVAILABLE');
    if (row.order_currency !== order.orderCurrency || trimAmount(row.order_amount) !== order.orderAmount) {
      return fail('IDEMPOTENCY_KEY_REUSED');
    }
    if (row.status !== 'creating') return ok({ row, created: false });
    if (Date.now() > deadline) return fail('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_POLL_MS));
  }
}
