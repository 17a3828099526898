import type { Payout, PayoutProviderStatus, Withdrawal, WithdrawalStatus } from '@platform/contracts';
import { add, decimal, formatDecimal } from '@platform/money';
import { trimAmount } from '../wallet/rules.ts';

// The withdrawals table's rows and their shapes on the wire.

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Characters of an address kept at each end in a notification: enough to recognise it. */
const SHORT_ADDRESS_HEAD = 8;
const SHORT_ADDRESS_TAIL = 6;

export type WithdrawalRow = {
  id: string;
  account_id: string;
  payout_id: string;
  currency: string;
  amount: string;
  fee: string;
  address: string;
  extra_id: string | null;
  network: string | null;
  status: WithdrawalStatus;
  provider: string | null;
  provider_reference: string | null;
  batch_id: string | null;
  provider_status: PayoutProviderStatus | null;
  needs_verification: boolean;
  hash: string | null;
  reason: string | null;
  usd_value: string;
  idempotency_key: string | null;
  payout_description: string | null;
  unique_external_id: string | null;
  ipn_callback_url: string | null;
  fiat_amount: string | null;
  fiat_currency: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  completed_at: Date | string | null;
};

/** The columns of a WithdrawalRow, for SELECT and RETURNING alike. */
export const WITHDRAWAL_COLUMNS = `id, account_id, payout_id, currency, amount::text AS amount, fee::text AS fee, address,
  extra_id, network, status, provider, provider_reference, batch_id, provider_status, needs_verification, hash, reason,
  usd_value::text AS usd_value, idempotency_key, payout_description, unique_external_id, ipn_callback_url,
  fiat_amount::text AS fiat_amount, fiat_currency, created_at, updated_at, completed_at`;

/** a + b, exact, canonical. */
export function plus(a: string, b: string): string {
  return formatDecimal(add(decimal(a), decimal(b)), { trimZeros: true });
}

const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    payout_id: row.payout_id,
    status: row.status,
    provider_status: row.provider_status,
    currency: row.currency,
    amount: trimAmount(row.amount),
    fee: trimAmount(row.fee),
    total_amount: plus(row.amount, row.fee),
    address: row.address,
    extra_id: row.extra_id,
    network: row.network,
    batch_withdrawal_id: row.batch_id,
    verification_required: row.status === 'pending' && row.needs_verification,
    hash: row.hash,
    reason: row.reason,
    usd_value: trimAmount(row.usd_value),
    payout_description: row.payout_description,
    unique_external_id: row.unique_external_id,
    ipn_callback_url: row.ipn_callback_url,
    fiat_amount: row.fiat_amount === null ? null : trimAmount(row.fiat_amount),
    fiat_currency: row.fiat_currency,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    completed_at: isoOrNull(row.completed_at),
  };
}

/** pending while any item is; failed when every item failed; else completed. */
function payoutStatus(rows: readonly WithdrawalRow[]): WithdrawalStatus {
  if (rows.some((row) => row.status === 'pending')) return 'pending';
  return rows.every((row) => row.status === 'failed') ? 'failed' : 'completed';
}

export function toPayout(id: string, rows: readonly WithdrawalRow[]): Payout {
  return {
    id,
    status: payoutStatus(rows),
    withdrawals: rows.map(toWithdrawal),
    created_at: new Date(rows[0]?.created_at ?? 0).toISOString(),
  };
}

/** 'bc1qar0s…f5mdq': enough to recognise an address in a notification. */
export function shortAddress(address: string): string {
  return address.length <= SHORT_ADDRESS_HEAD + SHORT_ADDRESS_TAIL + 2
    ? address
    : `${address.slice(0, SHORT_ADDRESS_HEAD)}…${address.slice(-SHORT_ADDRESS_TAIL)}`;
}
