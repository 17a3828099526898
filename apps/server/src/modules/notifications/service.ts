import crypto from 'node:crypto';
import type { NoticeKey } from '@platform/contracts';
import {
  type Notification,
  type NotificationList,
  type NotificationMetadata,
  type NotificationParams,
  type NotificationSeverity,
  type NotificationsChanged,
  type NotificationsQuery,
  type NotificationType,
  STORED_NOTIFICATIONS_MAX,
} from '@platform/contracts';
import type { Database, Queryable } from '../../db/database.ts';
import type { Statement } from '../../db/statement.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { accountTopic } from '../../realtime/channels.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import {
  addInsertRows,
  deleteAll,
  deleteOne,
  insertRows,
  type NotificationInsert,
  type NotificationRow,
  selectNotifications,
  trimOldest,
  updateAllRead,
  updateRead,
} from './queries.ts';
import type { UnreadCounts } from './unread-count.ts';

/** A notification to store for an account; it starts unread. */
export type NewNotification = {
  accountId: string;
  type: NotificationType;
  title: string;
  message: string;
  severity: NotificationSeverity;
  actionUrl: string | null;
  metadata: NotificationMetadata;
  /**
   * The text's key in the clients (notices.<textKey>.title / .message, docs/i18n.md "Server texts")
   * and its raw values; title and message stay the English of the same text, for API users.
   */
  textKey?: NoticeKey;
  params?: NotificationParams;
  /** When it happened, from the server clock of the caller. */
  createdAt: Date;
};

/** A stored notification and the account it belongs to (the wire form leaves the account out). */
export type AccountNotification = Notification & { accountId: string };

const NOTIFICATION_NOT_FOUND = { message: 'Notification not found' };

/** The rows to insert, each with a fresh id. */
function newRows(rows: readonly NewNotification[]): NotificationInsert[] {
  return rows.map((row) => ({
    id: crypto.randomUUID(),
    account_id: row.accountId,
    type: row.type,
    title: row.title,
    message: row.message,
    severity: row.severity,
    action_url: row.actionUrl,
    metadata: row.metadata,
    text_key: row.textKey ?? null,
    params: row.params ?? {},
    created_at: row.createdAt,
  }));
}

type InsertOptions = { trimAccounts?: readonly string[] };

/**
 * insertNotifications bound to the server's unread counts: what the notifications module offers
 * the modules that store notifications in their own transactions (wallet, payments, withdrawals, KYC).
 */
export type InsertNotifications = (
  tx: Queryable,
  rows: readonly NewNotification[],
  options?: InsertOptions,
) => Promise<AccountNotification[]>;

/**
 * Stores notifications inside the caller's transaction (an order batch's, so that they commit
 * with what they announce) and trims each account back to the newest STORED_NOTIFICATIONS_MAX.
 * Two transactions adding to one account at once may each trim before seeing the other's rows;
 * the next insert trims again, and lists never show more than the limit anyway.
 */
export async function insertNotifications(
  counts: UnreadCounts,
  tx: Queryable,
  rows: readonly NewNotification[],
  options: InsertOptions = {},
): Promise<AccountNotification[]> {
  if (rows.length === 0) return [];
  const inserted = await insertRows(tx, newRows(rows));
  const trim = options.trimAccounts ?? [...new Set(rows.map((row) => row.accountId))];
  if (trim.length > 0) await trimOldest(tx, trim, STORED_NOTIFICATIONS_MAX);
  counts.dropAfterCommit(tx, [...new Set([...rows.map((row) => row.accountId), ...trim])]);
  return inserted.map((row) => ({ ...toNotification(row), accountId: row.account_id }));
}

/**
 * insertNotifications as part of a larger statement (see addInsertRows), writing only when `gate`
 * holds; returns the notifications as they will read once the statement has committed. Whoever
 * runs the statement drops the accounts' unread counts once it commits (the ordersCommitted hook).
 */
export function addInsertNotifications(
  stmt: Statement,
  rows: readonly NewNotification[],
  trimAccounts: readonly string[],
  gate: string,
): AccountNotification[] {
  const inserts = newRows(rows);
  addInsertRows(stmt, inserts, trimAccounts, STORED_NOTIFICATIONS_MAX, gate);
  return inserts.map((row) => ({ ...toNotification({ ...row, is_read: false }), accountId: row.account_id }));
}

/** Pushes stored notifications to their accounts' `notifications` socket channel. Call after commit. */
export function publishNotifications(pubsub: PubSub, notifications: readonly AccountNotification[]): void {
  for (const { accountId, ...notification } of notifications) {
    pubsub.publish(accountTopic(accountId, 'notifications'), notification satisfies Notification);
  }
}

/** Stores and pushes in one go, for callers outside a transaction of their own. */
export async function notify(
  insert: InsertNotifications,
  db: Database,
  pubsub: PubSub,
  rows: readonly NewNotification[],
): Promise<void> {
  const stored = await db.transaction((tx) => insert(tx, rows));
  publishNotifications(pubsub, stored);
}

/** The list is read from the database; the unread count from memory while nothing changed it. */
export async function listNotifications(
  counts: UnreadCounts,
  db: Database,
  accountId: string,
  query: NotificationsQuery,
): Promise<NotificationList> {
  const [rows, unreadCount] = await Promise.all([
    selectNotifications(db, accountId, { unreadOnly: query.unread_only, limit: query.limit }),
    counts.count(accountId),
  ]);
  return { notifications: rows.map(toNotification), unread_count: unreadCount };
}

/** Another account's notification is "not found": its existence is not the caller's business. */
export async function markRead(
  counts: UnreadCounts,
  q: Queryable,
  accountId: string,
  id: string,
): Promise<Result<Notification>> {
  const row = await updateRead(q, accountId, id);
  if (row) counts.dropAfterCommit(q, [accountId]);
  return row ? ok(toNotification(row)) : fail('NOT_FOUND', NOTIFICATION_NOT_FOUND);
}

export async function markAllRead(
  counts: UnreadCounts,
  q: Queryable,
  accountId: string,
): Promise<NotificationsChanged> {
  const changed = await updateAllRead(q, accountId);
  counts.dropAfterCommit(q, [accountId]);
  return { changed, unread_count: 0 };
}

export async function deleteNotification(
  counts: UnreadCounts,
  q: Queryable,
  accountId: string,
  id: string,
): Promise<Result<null>> {
  if (!(await deleteOne(q, accountId, id))) return fail('NOT_FOUND', NOTIFICATION_NOT_FOUND);
  counts.dropAfterCommit(q, [accountId]);
  return ok(null);
}

export async function clearNotifications(
  counts: UnreadCounts,
  q: Queryable,
  accountId: string,
): Promise<NotificationsChanged> {
  const changed = await deleteAll(q, accountId);
  counts.dropAfterCommit(q, [accountId]);
  return { changed, unread_count: 0 };
}

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    timestamp: new Date(row.created_at).getTime(),
    isRead: row.is_read,
    type: row.type,
    title: row.title,
    message: row.message,
    severity: row.severity,
    actionUrl: row.action_url,
    metadata: metadataOf(row.metadata),
    textKey: row.text_key ?? null,
    params: paramsOf(row.params),
  };
}

/** Only text and finite numbers: the column is jsonb and could hold anything. */
function paramsOf(stored: unknown): NotificationParams {
  const params: NotificationParams = {};
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return params;
  for (const [name, value] of Object.entries(stored)) {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) params[name] = value;
  }
  return params;
}

const METADATA_KEYS = ['tradingPair', 'amount', 'price', 'orderId', 'transactionId'] as const;

/** Only the spec's metadata fields, and only as text: the column is jsonb and could hold anything. */
function metadataOf(stored: unknown): NotificationMetadata {
  const metadata: NotificationMetadata = {};
  if (typeof stored !== 'object' || stored === null) return metadata;
  for (const key of METADATA_KEYS) {
    const value = (stored as Record<string, unknown>)[key];
    if (typeof value === 'string') metadata[key] = value;
  }
  return metadata;
}
