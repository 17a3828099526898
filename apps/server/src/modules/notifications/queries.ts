import type {
  NotificationMetadata,
  NotificationParams,
  NotificationSeverity,
  NotificationType,
} from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import type { Statement } from '../../db/statement.ts';

export type NotificationRow = {
  id: string;
  account_id: string;
  type: NotificationType;
  title: string;
  message: string;
  severity: NotificationSeverity;
  action_url: string | null;
  metadata: NotificationMetadata;
  text_key: string | null;
  params: NotificationParams;
  is_read: boolean;
  created_at: Date;
};

export type NotificationInsert = Omit<NotificationRow, 'is_read'>;

const COLUMNS =
  'id, account_id, type, title, message, severity, action_url, metadata, text_key, params, is_read, created_at';
/** Newest first; seq orders the rows of one batch, which share created_at. */
const NEWEST_FIRST = 'ORDER BY created_at DESC, seq DESC';

/**
 * The eleven column arrays of an insert, in the order of the unnest in both inserts below, each with
 * its SQL array type.
 */
function insertColumns(rows: readonly NotificationInsert[]): { name: string; values: unknown[]; type: string }[] {
  return [
    { name: 'id', values: rows.map((row) => row.id), type: 'uuid[]' },
    { name: 'account_id', values: rows.map((row) => row.account_id), type: 'uuid[]' },
    { name: 'type', values: rows.map((row) => row.type), type: 'text[]' },
    { name: 'title', values: rows.map((row) => row.title), type: 'text[]' },
    { name: 'message', values: rows.map((row) => row.message), type: 'text[]' },
    { name: 'severity', values: rows.map((row) => row.severity), type: 'text[]' },
    { name: 'action_url', values: rows.map((row) => row.action_url), type: 'text[]' },
    { name: 'metadata', values: rows.map((row) => JSON.stringify(row.metadata)), type: 'text[]' },
    { name: 'created_at', values: rows.map((row) => row.created_at.toISOString()), type: 'text[]' },
    { name: 'text_key', values: rows.map((row) => row.text_key), type: 'text[]' },
    { name: 'params', values: rows.map((row) => JSON.stringify(row.params)), type: 'text[]' },
  ];
}

/** One statement for the whole batch, in the given order (seq follows it). */
export async function insertRows(q: Queryable, rows: readonly NotificationInsert[]): Promise<NotificationRow[]> {
  if (rows.length === 0) return [];
  const result = await q.query<NotificationRow>(
    `INSERT INTO notifications (id, account_id, type, title, message, severity, action_url, metadata, created_at,
       text_key, params)
     SELECT id, account_id, type, title, message, severity, action_url, metadata::jsonb, created_at::timestamptz,
       text_key, params::jsonb
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::text[], $11::text[])
       WITH ORDINALITY AS entry (id, account_id, type, title, message, severity, action_url, metadata, created_at,
         text_key, params, position)
     ORDER BY position
     RETURNING ${COLUMNS}`,
    insertColumns(rows).map((column) => column.values),
  );
  return result.rows;
}

/**
 * insertRows and trimOldest as CTEs of a larger statement (its parameters named `notification_*`),
 * both writing only when `gate` (an SQL boolean expression) holds. The trim does not see the rows
 * inserted by the same statement: an account may keep a few more than `keep` until its next trim.
 */
export function addInsertRows(
  stmt: Statement,
  rows: readonly NotificationInsert[],
  trimAccounts: readonly string[],
  keep: number,
  gate: string,
): void {
  const arrays = insertColumns(rows).map(({ name, values, type }) => stmt.param(`notification_${name}s`, values, type));
  stmt.cte(
    'inserted_notifications',
    `INSERT INTO notifications (id, account_id, type, title, message, severity, action_url, metadata, created_at,
        text_key, params)
      SELECT id, account_id, type, title, message, severity, action_url, metadata::jsonb, created_at::timestamptz,
        text_key, params::jsonb
      FROM unnest(${arrays.join(', ')})
        WITH ORDINALITY AS entry (id, account_id, type, title, message, severity, action_url, metadata, created_at,
          text_key, params, position)
      WHERE ${gate}
      ORDER BY position`,
  );
  const accounts = stmt.param('notification_trim_accounts', trimAccounts, 'uuid[]');
  const kept = stmt.param('notification_keep', keep);
  stmt.cte(
    'trimmed_notifications',
    `DELETE FROM notifications WHERE ${gate} AND id IN (
        SELECT id FROM (
          SELECT id, row_number() OVER (PARTITION BY account_id ${NEWEST_FIRST}) AS newness
          FROM notifications WHERE account_id = ANY(${accounts})
        ) ranked
        WHERE newness > ${kept}
      )`,
  );
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
