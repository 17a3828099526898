import type { Payout, ProviderBalance, Withdrawal, WithdrawalListResponse } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { walletBalances } from '../wallet/balances.ts';
import { parseCurrency } from '../wallet/rules.ts';
import type { WithdrawalDeps } from './deps.ts';
import { payoutRows } from './idempotency.ts';
import { plus, toPayout, toWithdrawal, UUID_PATTERN, WITHDRAWAL_COLUMNS, type WithdrawalRow } from './rows.ts';

// What the caller reads: their withdrawals and payouts, and the provider facade's balances.

/** One of the account's withdrawals; anyone else's (or no such id) is 'Withdrawal not found'. */
export async function getWithdrawal(
  deps: Pick<WithdrawalDeps, 'db'>,
  accountId: string,
  id: string,
  notFound: 'WITHDRAWAL_NOT_FOUND' | 'PAYOUT_NOT_FOUND' = 'WITHDRAWAL_NOT_FOUND',
): Promise<Result<Withdrawal>> {
  if (!UUID_PATTERN.test(id)) return fail(notFound);
  const found = await deps.db.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1 AND account_id = $2`,
    [id, accountId],
  );
  const row = found.rows[0];
  if (row === undefined) return fail(notFound);
  return ok(toWithdrawal(row));
}

/** A mass payout of the account by its id (a single withdrawal is a payout of one, under its own id). */
export async function getPayout(
  deps: Pick<WithdrawalDeps, 'db'>,
  accountId: string,
  id: string,
): Promise<Result<Payout>> {
  if (!UUID_PATTERN.test(id)) return fail('PAYOUT_NOT_FOUND');
  const rows = await payoutRows(deps.db, accountId, id);
  if (rows.length === 0) return fail('PAYOUT_NOT_FOUND');
  return ok(toPayout(id, rows));
}

/** The account's withdrawals (payout items), newest first. */
export async function listWithdrawals(
  deps: Pick<WithdrawalDeps, 'db'>,
  accountId: string,
  limit: number,
  page: number,
): Promise<WithdrawalListResponse> {
  const total = await deps.db.query<{ count: bigint | string }>(
    'SELECT count(*) AS count FROM withdrawals WHERE account_id = $1',
    [accountId],
  );
  const rows = await deps.db.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE account_id = $1
     ORDER BY created_at DESC, payout_index DESC, id DESC LIMIT $2 OFFSET $3`,
    [accountId, limit, (page - 1) * limit],
  );
  return { withdrawals: rows.rows.map(toWithdrawal), total: Number(total.rows[0]?.count ?? 0), page, limit };
}

/**
 * The withdrawals a verify-payout call names: the provider's batch id (batch_withdrawal_id), or
 * one of our withdrawal or payout ids, among the caller's own.
 */
export async function withdrawalsForVerification(
  q: Queryable,
  accountId: string,
  reference: string,
): Promise<WithdrawalRow[]> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals
     WHERE account_id = $1 AND (batch_id = $2 OR id::text = lower($2) OR payout_id::text = lower($2))
     ORDER BY created_at, payout_index, id`,
    [accountId, reference],
  );
  return found.rows;
}

export async function withdrawalsByIds(q: Queryable, ids: readonly string[]): Promise<WithdrawalRow[]> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = ANY($1::uuid[]) ORDER BY created_at, payout_index, id`,
    [ids],
  );
  return found.rows;
}

function providerBalance(currency: string, available: string, locked: string): ProviderBalance {
  return { currency, available_balance: available, pending_balance: locked, total_balance: plus(available, locked) };
}

/** §3.5 / §7.4 the provider's balance shape, from the ledger: pending is what is held (locked). */
export async function providerBalances(
  deps: Pick<WithdrawalDeps, 'balances'>,
  accountId: string,
): Promise<ProviderBalance[]> {
  const rows = await walletBalances(deps.balances, accountId);
  return rows.map((row) => providerBalance(row.currency, row.available, row.locked));
}

export async function providerBalanceOf(
  deps: Pick<WithdrawalDeps, 'balances'>,
  accountId: string,
  currencyInput: string,
): Promise<Result<ProviderBalance>> {
  const currency = parseCurrency(currencyInput);
  if (!currency.ok) return currency;
  const row = (await walletBalances(deps.balances, accountId)).find((balance) => balance.currency === currency.value);
  return ok(providerBalance(currency.value, row?.available ?? '0', row?.locked ?? '0'));
}
