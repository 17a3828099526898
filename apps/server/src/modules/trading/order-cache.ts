import type { Order } from '@platform/contracts';
import { ReadCache } from '../../lib/read-cache.ts';

/** Orders whose view is held in memory (GET /v1/orders/:id); the least recently read fall out past it. */
export const CACHED_ORDERS_MAX = 20_000;
/** Accounts whose open orders are held in memory; the least recently read fall out past it. */
export const CACHED_OPEN_ORDER_ACCOUNTS_MAX = 10_000;
/** Open orders held in memory over all accounts: an order view is a few hundred bytes. */
export const CACHED_OPEN_ORDERS_MAX = 100_000;
/**
 * An account with more open orders than this (the house's market maker) reads them from the
 * database each time: holding its ladder would cost more memory than the reads it spares.
 */
export const CACHED_OPEN_ORDERS_PER_ACCOUNT_MAX = 1_000;

/** One order as the reads answer it, with the columns the open-orders filters need. */
export interface CachedOrder {
  accountId: string;
  pairId: string;
  side: string;
  type: string;
  /** null: the order's market is not running (the database read leaves such orders out of the page). */
  view: Order | null;
}

/**
 * The hot order reads of recently active accounts: an order by id and an account's open orders,
 * read from the database on first use and dropped when the trading writer commits a batch that
 * wrote the order (or any order of the account), right after the commit and before the batch's
 * callers are answered, so nobody told of a change can read the state before it. The ReadCache
 * tickets keep a read that straddles such a commit from storing what it read.
 *
 * The engine's own books were not used instead: they hold decided orders before their batch is
 * durable, and forget closed ones, so they could answer an order that a crash would undo.
 *
 * One per exchange, made in createTrading and carried in TradingDeps. Per process, like the engine
 * that writes the orders (one node per database); see BalanceCache.
 */
export class OrderCache {
  /** null (a missing order, an order whose market is not running) is answered but never stored. */
  readonly byId = new ReadCache<string, CachedOrder | null>(CACHED_ORDERS_MAX);
  /** null (more open orders than CACHED_OPEN_ORDERS_PER_ACCOUNT_MAX) is answered but never stored. */
  readonly openByAccount = new ReadCache<string, readonly CachedOrder[] | null>(CACHED_OPEN_ORDER_ACCOUNTS_MAX, {
    weigh: (orders) => orders?.length ?? 0,
    maxWeight: CACHED_OPEN_ORDERS_MAX,
  });

  /** Drops what the committed orders change: each order's view and its account's open orders. */
  invalidate(orders: Iterable<{ id: string; accountId: string }>): void {
    for (const order of orders) {
      this.byId.invalidate(order.id);
      this.openByAccount.invalidate(order.accountId);
    }
  }

  clear(): void {
    this.byId.clear();
    this.openByAccount.clear();
  }
}
