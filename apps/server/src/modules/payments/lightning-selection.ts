import { LIGHTNING_EXPIRY_SECONDS, REFERENCE_PRICES_USD } from '@platform/contracts';
import { type Amount, div, formatDecimal, parseDecimal, toScale } from '@platform/money';
import type { LightningInvoice } from '../../adapters/payments/types.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { trimAmount } from '../wallet/rules.ts';
import { ownPayment, PAYMENT_COLUMNS, type PaymentRow, shownStatus } from './payment-rows.ts';
import { type ProviderAccess, providerFailure } from './provider-calls.ts';

/** Paying a checkout with Lightning (§7.4 POST /payment/{id}/select with LNBC). */

/** A payment about to expire still gets an invoice a wallet has time to pay. */
const MIN_SELECTED_INVOICE_SECONDS = 60;
/** Decimals the BTC price of an order is worked out to, before it is rounded up to the satoshi. */
const BTC_QUOTE_SCALE = 12;
/** A Lightning invoice is asked for in whole satoshis (BTC has 8 decimals). */
const SATOSHI_SCALE = 8;
/** Stored and quoted amounts are read with more decimals than any currency or provider uses. */
const AMOUNT_READ_MAX_SCALE = 30;

/**
 * A Lightning invoice for the payment, in BTC at the provider's rate (else the live price, else
 * the reference price). Asking again answers the same invoice while it is payable.
 */
export async function selectLightning(
  service: ProviderAccess,
  accountId: string,
  idOrReference: string,
): Promise<Result<PaymentRow>> {
  const { deps } = service;
  const own = await ownPayment(deps.db, accountId, idOrReference, ['deposit', 'payment']);
  if (!own.ok) return own;
  const row = own.value;
  const now = deps.clock();
  if (row.lightning_invoice && row.lightning_expires_at && new Date(row.lightning_expires_at) > now) return ok(row);
  const status = shownStatus(row, now);
  if (status === 'expired') return fail('PAYMENT_EXPIRED');
  if (status !== 'waiting') return fail('PAYMENT_NOT_PENDING');
  const amountBtc = await btcAmountOf(service, row);
  if (!amountBtc.ok) return amountBtc;
  // A fresh reference per invoice: an expired invoice's reference stays its own.
  const reference = `${row.id}:ln:${now.getTime()}`;
  const remainingSeconds = Math.floor((new Date(row.expires_at).getTime() - now.getTime()) / 1000);
  let invoice: LightningInvoice;
  try {
    invoice = await service.provider().createLightningInvoice({
      reference,
      amountBtc: amountBtc.value,
      description: row.description,
      expiresInSeconds: Math.max(MIN_SELECTED_INVOICE_SECONDS, Math.min(LIGHTNING_EXPIRY_SECONDS, remainingSeconds)),
      notifyUrl: service.notifyUrl(),
    });
  } catch (error) {
    return providerFailure(deps, error, 'create a Lightning invoice');
  }
  const updated = await deps.db.query<PaymentRow>(
    `UPDATE payments SET lightning_reference = $2, lightning_provider_reference = $3, lightning_invoice = $4,
       lightning_payment_hash = $5, lightning_amount = $6::numeric, lightning_expires_at = $7, updated_at = $8
     WHERE id = $1 AND status = 'waiting' RETURNING ${PAYMENT_COLUMNS}`,
    [
      row.id,
      reference,
      invoice.providerReference,
      invoice.invoice,
      invoice.paymentHash,
      amountBtc.value,
      invoice.expiresAt,
      now,
    ],
  );
  const selected = updated.rows[0];
  return selected ? ok(selected) : fail('PAYMENT_NOT_PENDING');
}

/** The BTC a payment's order amount is worth, rounded up to the satoshi. */
async function btcAmountOf(service: ProviderAccess, row: PaymentRow): Promise<Result<string>> {
  if (row.order_currency === 'BTC') return ok(trimAmount(row.order_amount));
  if (row.crypto_currency === 'BTC' && row.crypto_amount) return ok(trimAmount(row.crypto_amount));
  let estimate: string | null = null;
  try {
    estimate = await service.provider().estimate(trimAmount(row.order_amount), row.order_currency, 'BTC');
  } catch (error) {
    service.deps.log.warn({ err: error }, 'provider estimate failed; pricing the Lightning invoice from our prices');
  }
  const parsed = estimate === null ? null : parseDecimal(estimate, { maxScale: AMOUNT_READ_MAX_SCALE });
  let btc: Amount | null = parsed?.ok ? parsed.value : null;
  if (btc === null) {
    const priced = btcFromPrices(service, row);
    if (!priced.ok) return priced;
    btc = priced.value;
  }
  const rounded = toScale(btc, SATOSHI_SCALE, 'up');
  if (rounded.units <= 0n)
    return fail('INVALID_AMOUNT', { message: 'The amount is too small for a Lightning invoice' });
  return ok(formatDecimal(rounded, { trimZeros: true }));
}

/** The order's BTC worth from our own prices: the live feed's, else the reference prices. */
function btcFromPrices(service: ProviderAccess, row: PaymentRow): Result<Amount> {
  const feed = service.priceFeed();
  const usdOf = (currency: string): Amount | undefined => {
    const live = feed?.usdPrice(currency);
    if (live && live.units > 0n) return live;
    const reference = REFERENCE_PRICES_USD[currency] ?? (currency === 'USD' ? '1' : undefined);
    const value = reference === undefined ? null : parseDecimal(reference);
    return value?.ok ? value.value : undefined;
  };
  const orderUsd = usdOf(row.order_currency);
  const btcUsd = usdOf('BTC');
  if (!orderUsd || !btcUsd || btcUsd.units <= 0n) return fail('PRICE_UNAVAILABLE');
  const amount = parseDecimal(row.order_amount, { maxScale: AMOUNT_READ_MAX_SCALE });
  invariant(amount.ok, `stored amount ${row.order_amount} does not parse`);
  return ok(
    div(
      { units: amount.value.units * orderUsd.units, scale: amount.value.scale + orderUsd.scale },
      btcUsd,
      BTC_QUOTE_SCALE,
      'up',
    ),
  );
}
