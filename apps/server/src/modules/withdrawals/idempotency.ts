import { createHash } from 'node:crypto';
import type { Withdrawal } from '@platform/contracts';
import { formatDecimal, parseDecimal } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { trimAmount } from '../wallet/rules.ts';
import { AMOUNT_LIMITS, type ItemInput, optionalText } from './items.ts';
import { toWithdrawal, WITHDRAWAL_COLUMNS, type WithdrawalRow } from './rows.ts';

// Idempotency: a retry under the same key returns the first withdrawal or payout; another request under it is refused.

/** An XRP destination tag is a whole number: compared by value, so '007' and '7' are one tag. */
const WHOLE_NUMBER = /^\d+$/;

/** What identifies a request for idempotency: a retry must describe the same withdrawals. */
function canonicalItem(input: ItemInput) {
  const amountText = String(input.amount).trim();
  const parsed = parseDecimal(amountText, AMOUNT_LIMITS);
  const currency = String(input.currency).trim().toUpperCase();
  const extra = input.extra_id === undefined || input.extra_id === null ? '' : String(input.extra_id).trim();
  return {
    currency,
    amount: parsed.ok ? formatDecimal(parsed.value, { trimZeros: true }) : amountText,
    address: input.address.trim(),
    extra_id: currency === 'XRP' && WHOLE_NUMBER.test(extra) ? BigInt(extra).toString() : extra,
    network: input.network?.trim().toUpperCase() || null,
    ipn_callback_url: optionalText(input.ipn_callback_url),
    payout_description: optionalText(input.payout_description),
    unique_external_id: optionalText(input.unique_external_id),
    fiat_amount:
      input.fiat_amount === undefined || input.fiat_amount === null ? null : String(input.fiat_amount).trim(),
    fiat_currency: optionalText(input.fiat_currency)?.toUpperCase() ?? null,
  };
}

export function fingerprint(items: readonly ItemInput[], description: string | null): string {
  return createHash('sha256')
    .update(JSON.stringify({ items: items.map(canonicalItem), description }))
    .digest('hex');
}

function sameWithdrawal(row: WithdrawalRow, input: ItemInput): boolean {
  const wanted = canonicalItem(input);
  return (
    row.currency === wanted.currency &&
    trimAmount(row.amount) === wanted.amount &&
    row.address === wanted.address &&
    (row.extra_id ?? '') === wanted.extra_id &&
    // No network named means the currency's default, which is what the row stored.
    (wanted.network === null || row.network === wanted.network)
  );
}

export async function withdrawalByKey(
  q: Queryable,
  accountId: string,
  key: string,
): Promise<WithdrawalRow | undefined> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE account_id = $1 AND idempotency_key = $2`,
    [accountId, key],
  );
  return found.rows[0];
}

export async function payoutByKey(
  q: Queryable,
  accountId: string,
  key: string,
): Promise<{ id: string; fingerprint: string } | undefined> {
  const found = await q.query<{ id: string; fingerprint: string }>(
    'SELECT id, fingerprint FROM withdrawal_payouts WHERE account_id = $1 AND idempotency_key = $2',
    [accountId, key],
  );
  return found.rows[0];
}

export async function payoutRows(q: Queryable, accountId: string, payoutId: string): Promise<WithdrawalRow[]> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE account_id = $1 AND payout_id = $2 ORDER BY payout_index`,
    [accountId, payoutId],
  );
  return found.rows;
}

/** A retry of a single withdrawal: the first one, or 409 when the key described another. */
export function replayWithdrawal(
  row: WithdrawalRow,
  input: ItemInput,
): Result<{ withdrawal: Withdrawal; created: false }> {
  if (!sameWithdrawal(row, input)) return fail('IDEMPOTENCY_KEY_REUSED');
  return ok({ withdrawal: toWithdrawal(row), created: false });
}
