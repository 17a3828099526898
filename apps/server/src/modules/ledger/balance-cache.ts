import type { Database } from '../../db/database.ts';
import { ReadCache } from '../../lib/read-cache.ts';
import { ledgerOf } from './ledger.ts';
import { type BalanceRow, balancesOf } from './service.ts';

/** Accounts whose balances are held in memory; the least recently read fall out past it. */
export const CACHED_BALANCE_ACCOUNTS_MAX = 10_000;

/**
 * The balances of recently read accounts (GET /v1/wallet/balances, GET /v1/accounts/:id/balance),
 * read from the database on first use and dropped by every committed write of the account's
 * balances. Dropped rather than updated: a database read carries no ledger sequence, so an
 * announcement that arrives after a read (the trading writer announces after answering its
 * callers) could not be told older or newer than it; a drop is always exact and costs one read.
 *
 * Two signals drop an account: the ledger's balances-changed event (every writer; transactions
 * announce as they commit) and `invalidate`, which the trading writer calls right after each
 * commit, before answering its callers, because its own announcement comes later.
 *
 * One per server, made in the composition root (modules/index.ts) and handed to every reader.
 * Per process: the invalidations are in-process calls. The server runs one node per database
 * (the matching engine and trading's funds book, which hears the same events, live in it); were
 * nodes added, these drops would have to reach every node over the pub/sub (ARCHITECTURE.md,
 * scale-out) before the cache could stay on.
 */
export class BalanceCache {
  private readonly cache = new ReadCache<string, readonly BalanceRow[]>(CACHED_BALANCE_ACCOUNTS_MAX);
  private readonly unsubscribe: () => void;

  /** Subscribed until stop: a cache that stopped hearing changes could not stay exact. */
  constructor(private readonly db: Database) {
    this.unsubscribe = ledgerOf(db).onBalancesChanged((event) => {
      for (const change of event.changes) this.cache.invalidate(change.accountId);
    });
  }

  /**
   * When the server closes: the ledger's events outlive a server on the same database (a restart
   * in-process), and a cache nobody reads must not stay subscribed. Nothing is read after this.
   */
  stop(): void {
    this.unsubscribe();
    this.cache.clear();
  }

  /** Every currency the account has ever held (as balancesOf), from memory when nothing changed since. */
  balances(accountId: string): Promise<readonly BalanceRow[]> {
    return this.cache.read(accountId, () => balancesOf(this.db, accountId));
  }

  invalidate(accountIds: Iterable<string>): void {
    for (const accountId of accountIds) this.cache.invalidate(accountId);
  }
}
