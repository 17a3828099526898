import type { TransferStatus } from '@platform/contracts';
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

/** A transfer between users, sent or received by the account, with both sides' public handles. */
export type UserTransfer = KeysetRow & {
  /** ISO 8601 UTC to the microsecond. */
  createdAt: string;
  transferId: string;
  direction: 'sent' | 'received';
  fromUsername: string | null;
  toUsername: string | null;
  currency: string;
  /** Exact decimal as stored (NUMERIC text, untrimmed). */
  amount: string;
  status: TransferStatus;
};

const KEY = 't.id::text';

/** One direction's transfers after the cursor, bounded by that direction's (account, time) index. */
function directionSql(
  direction: 'sent' | 'received',
  window: TimeWindow,
  after: KeysetCursor | null,
  params: unknown[],
): string {
  const column = direction === 'sent' ? 't.from_account_id' : 't.to_account_id';
  const conditions = keysetConditions('t.created_at', KEY, window, after, params);
  return `(SELECT ${keysetTimeSql('t.created_at')} AS at, ${KEY} AS key, '${direction}' AS direction, t.currency,
      t.amount::text AS amount, t.status, t.created_at, fa.username AS from_username, ta.username AS to_username
    FROM transfers t JOIN accounts fa ON fa.id = t.from_account_id JOIN accounts ta ON ta.id = t.to_account_id
    WHERE ${column} = $1 AND ${conditions}
    ORDER BY ${keysetOrder('t.created_at', KEY)} LIMIT $2)`;
}

/**
 * The account's transfers to and from other users in the window after the cursor, oldest first, at
 * most `limit` (keyset pages, lib/keyset.ts), whatever their status.
 */
export async function userTransfersPage(
  db: Queryable,
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
): Promise<UserTransfer[]> {
  assertPageLimit(limit);
  const params: unknown[] = [accountId, limit];
  const sent = directionSql('sent', window, after, params);
  const received = directionSql('received', window, after, params);
  const found = await db.query<Record<string, string | null>>(
    `SELECT * FROM (${sent} UNION ALL ${received}) u ORDER BY u.created_at, u.key COLLATE "C" LIMIT $2`,
    params,
  );
  return found.rows.map((row) => ({
    cursor: { at: row.at!, key: row.key! },
    createdAt: row.at!,
    transferId: row.key!,
    direction: row.direction as 'sent' | 'received',
    fromUsername: row.from_username ?? null,
    toUsername: row.to_username ?? null,
    currency: row.currency!,
    amount: row.amount!,
    status: row.status as TransferStatus,
  }));
}
