import type { Database, Queryable } from '../../db/database.ts';
import { ReadCache } from '../../lib/read-cache.ts';
import { countUnread } from './queries.ts';

/** Accounts whose unread count is held in memory; the least recently read fall out past it. */
export const CACHED_UNREAD_COUNT_ACCOUNTS_MAX = 10_000;

/**
 * The number of unread notifications of recently active accounts, counted in the database on
 * first read and dropped by every write that can change it: an insert (and the trim that follows
 * it) once its transaction commits, marking one or all read, deleting one or all, and an order
 * batch of the trading writer (its notifications commit with it) before its callers are answered.
 *
 * One per server, made in createNotifications: its service's writers and routes use it, and it is
 * offered to the composition root for trading's ordersCommitted hook.
 *
 * Per process: the drops are in-process calls, and the server runs one node per database (the
 * matching engine lives in it); were nodes added, they would have to reach every node over the
 * pub/sub (ARCHITECTURE.md, scale-out) before the cache could stay on.
 */
export class UnreadCounts {
  private readonly cache = new ReadCache<string, number>(CACHED_UNREAD_COUNT_ACCOUNTS_MAX);

  constructor(private readonly db: Database) {}

  count(accountId: string): Promise<number> {
    return this.cache.read(accountId, () => countUnread(this.db, accountId));
  }

  invalidate(accountIds: Iterable<string>): void {
    for (const accountId of accountIds) this.cache.invalidate(accountId);
  }

  /**
   * Drops the accounts' counts once what `q` wrote is visible: at once when q is the database (its
   * statements commit on their own), at commit for a transaction. Every writer of notifications
   * goes through this module's service, which calls it.
   */
  dropAfterCommit(q: Queryable, accountIds: readonly string[]): void {
    if (accountIds.length === 0) return;
    if ('afterCommit' in q) (q as { afterCommit(fn: () => void): void }).afterCommit(() => this.invalidate(accountIds));
    else this.invalidate(accountIds);
  }
}
