import type { Queryable } from '../../db/database.ts';
import {
  assertPageLimit,
  type KeysetCursor,
  type KeysetRow,
  keysetConditions,
  keysetOrder,
  keysetTimeSql,
  type TimeWindow,
} from '../../lib/keyset.ts';

/** A withdrawal (a payout item) of the account. */
export type WithdrawalRecord = KeysetRow & {
  /** ISO 8601 UTC to the microsecond: when it was requested. */
  createdAt: string;
  withdrawalId: string;
  currency: string;
  /** Exact decimals as stored (NUMERIC text, untrimmed): what is sent, and the fee on top of it. */
  amount: string;
  fee: string;
  /** The network it goes on when the currency has several; null otherwise. */
  network: string | null;
  address: string;
  status: 'pending' | 'completed' | 'failed';
  /** The chain's transaction hash once the provider reports it. */
  hash: string | null;
};

const KEY = 'w.id::text';

/** The account's withdrawals in the window after the cursor, oldest first, at most `limit` (keyset pages, lib/keyset.ts). */
export async function withdrawalsPage(
  db: Queryable,
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
): Promise<WithdrawalRecord[]> {
  assertPageLimit(limit);
  const params: unknown[] = [accountId, limit];
  const conditions = keysetConditions('w.created_at', KEY, window, after, params);
  const found = await db.query<Record<string, string | null>>(
    `SELECT ${keysetTimeSql('w.created_at')} AS at, ${KEY} AS key, w.currency, w.amount::text AS amount,
       w.fee::text AS fee, w.network, w.address, w.status, w.hash
     FROM withdrawals w WHERE w.account_id = $1 AND ${conditions}
     ORDER BY ${keysetOrder('w.created_at', KEY)} LIMIT $2`,
    params,
  );
  return found.rows.map((row) => ({
    cursor: { at: row.at!, key: row.key! },
    createdAt: row.at!,
    withdrawalId: row.key!,
    currency: row.currency!,
    amount: row.amount!,
    fee: row.fee!,
    network: row.network ?? null,
    address: row.address!,
    status: row.status as WithdrawalRecord['status'],
    hash: row.hash ?? null,
  }));
}
