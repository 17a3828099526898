import type { NotificationMetadata, NotificationSeverity, NotificationType } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';

export type NotificationRow = {
  id: string;
  account_id: string;
  type: NotificationType;
  title: string;
  message: string;
  severity: NotificationSeverity;
  action_url: string | null;
  metadata: NotificationMetadata;
  is_read: boolean;
  created_at: Date;
};

export type NotificationInsert = Omit<NotificationRow, 'is_read'>;

const COLUMNS = 'id, account_id, type, title, message, severity, action_url, metadata, is_read, created_at';
/** Newest first; seq orders the rows of one batch, which share created_at. */
const NEWEST_FIRST = 'ORDER BY created_at DESC, seq DESC';

/** The nine column arrays of an insert, in the order of the unnest in both statements below. */
function insertParams(rows: readonly NotificationInsert[]): unknown[] {
  return [
    rows.map((row) => row.id),
    rows.map((row) => row.account_id),
    rows.map((row) => row.type),
    rows.map((row) => row.title),
    rows.map((row) => row.message),
    rows.map((row) => row.severity),
    rows.map((row) => row.action_url),
    rows.map((row) => JSON.stringify(row.metadata)),
    rows.map((row) => row.created_at.toISOString()),
  ];
}

/** One statement for the whole batch, in the given order (seq follows it). */
export async function insertRows(q: Queryable, rows: readonly NotificationInsert[]): Promise<NotificationRow[]> {
  if (rows.length === 0) return [];
  const result = await q.query<NotificationRow>(
    `INSERT INTO notifications (id, account_id, type, title, message, severity, action_url, metadata, created_at)
     SELECT id, account_id, type, title, message, severity, action_url, metadata::jsonb, created_at::timestamptz
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
       WITH ORDINALITY AS entry (id, account_id, type, title, message, severity, action_url, metadata, created_at, position)
     ORDER BY position
     RETURNING ${COLUMNS}`,
    insertParams(rows),
  );
  return result.rows;
}

/**
 * insertRows and trimOldest as CTEs of a larger statement (numbering parameters from offset + 1),
 * both writing only when `gate` (an SQL boolean expression) holds. The trim does not see the rows
 * inserted by the same statement: an account may keep a few more than `keep` until its next trim.
 */
export function insertRowsPart(
  rows: readonly NotificationInsert[],
  trimAccounts: readonly string[],
  keep: number,
  offset: number,
  gate: string,
): { ctes: string; params: unknown[] } {
  const p = (n: number) => `$${n + offset}`;
  return {
    ctes: `
    inserted_notifications AS (
      INSERT INTO notifications (id, account_id, type, title, message, severity, action_url, metadata, created_at)
      SELECT id, account_id, type, title, message, severity, action_url, metadata::jsonb, created_at::timestamptz
      FROM unnest(${p(1)}::uuid[], ${p(2)}::uuid[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::text[],
        ${p(7)}::text[], ${p(8)}::text[], ${p(9)}::text[])
        WITH ORDINALITY AS entry (id, account_id, type, title, message, severity, action_url, metadata, created_at, position)
      WHERE ${gate}
      ORDER BY position
    ),
    trimmed_notifications AS (
      DELETE FROM notifications WHERE ${gate} AND id IN (
        SELECT id FROM (
          SELECT id, row_number() OVER (PARTITION BY account_id ${NEWEST_FIRST}) AS newness
          FROM notifications WHERE account_id = ANY(${p(10)}::uuid[])
        ) ranked
        WHERE newness > ${p(11)}
      )
    )`,
    params: [...insertParams(rows), trimAccounts, keep],
  };
}

/** Deletes all but each account's newest `keep`; returns how many went. */
export async function trimOldest(q: Queryable, accountIds: readonly string[], keep: number): Promise<number> {
  const result = await q.query(
    `DELETE FROM notifications WHERE id IN (
       SELECT id FROM (
         SELECT id, row_number() OVER (PARTITION BY account_id ${NEWEST_FIRST}) AS newness
         FROM notifications WHERE account_id = ANY($1::uuid[])
       ) ranked
       WHERE newness > $2
     )`,
    [accountIds, keep],
  );
  return result.rowCount;
}

export async function selectNotifications(
  q: Queryable,
  accountId: string,
  options: { unreadOnly: boolean; limit: number },
): Promise<NotificationRow[]> {
  const result = await q.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications
     WHERE account_id = $1 AND (NOT $2::boolean OR NOT is_read)
     ${NEWEST_FIRST} LIMIT $3`,
    [accountId, options.unreadOnly, options.limit],
  );
  return result.rows;
}

export async function countUnread(q: Queryable, accountId: string): Promise<number> {
  const result = await q.query<{ count: string | number }>(
    'SELECT count(*) AS count FROM notifications WHERE account_id = $1 AND NOT is_read',
    [accountId],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/** The row after marking it read; undefined when the account has no such notification. */
export async function updateRead(q: Queryable, accountId: string, id: string): Promise<NotificationRow | undefined> {
  const result = await q.query<NotificationRow>(
    `UPDATE notifications SET is_read = true WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [accountId, id],
  );
  return result.rows[0];
}

export async function updateAllRead(q: Queryable, accountId: string): Promise<number> {
  const result = await q.query('UPDATE notifications SET is_read = true WHERE account_id = $1 AND NOT is_read', [
    accountId,
  ]);
  return result.rowCount;
}

export async function deleteOne(q: Queryable, accountId: string, id: string): Promise<boolean> {
  const result = await q.query('DELETE FROM notifications WHERE account_id = $1 AND id = $2', [accountId, id]);
  return result.rowCount > 0;
}

export async function deleteAll(q: Queryable, accountId: string): Promise<number> {
  const result = await q.query('DELETE FROM notifications WHERE account_id = $1', [accountId]);
  return result.rowCount;
}
