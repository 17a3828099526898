import {
  type CheckoutDeposit,
  LIGHTNING_CRYPTO_CURRENCY,
  type LightningPayment,
  type Payment,
  type PaymentStatusName,
} from '@platform/contracts';
import { trimAmount } from '../wallet/rules.ts';
import { isoOrNull } from './credit.ts';
import { FINAL_STATUSES, type PaymentRow, shownStatus } from './payment-rows.ts';

/** A stored payment in the shapes the calls answer with (§7.3 checkout deposits, §7.4 payments and Lightning). */

const optionalTrim = (value: string | null) => (value === null ? null : trimAmount(value));

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
