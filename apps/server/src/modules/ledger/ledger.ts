import type { Database, Queryable } from '../../db/database.ts';
import { databaseOf } from '../../db/database.ts';
import { invariant } from '../../lib/invariant.ts';

/**
 * One user balance as a committed write left it. available and locked are what the statement's
 * RETURNING said (canonical decimal text), not a later read.
 */
export interface BalanceChange {
  accountId: string;
  currency: string;
  available: string;
  locked: string;
  /** What this write moved in the available bucket (signed decimal): for books that add movements up. */
  availableDelta: string;
  /**
   * The write's place in the order of writes to this balance: the last ledger entry id it drew.
   * Entry ids are drawn while the balance's row lock is held, so a later write always has a larger one.
   */
  sequence: bigint;
  /**
   * A write with a larger sequence was announced first (two connections' commit acknowledgements
   * crossed): available and locked are older than what subscribers already have; the delta still counts.
   */
  superseded: boolean;
}

/** Who wrote: the trading writer's own book has already counted its movements. */
export type BalanceWriter = 'trading' | 'ledger';

export interface BalancesChanged {
  writer: BalanceWriter;
  changes: readonly BalanceChange[];
}

export type BalancesListener = (event: BalancesChanged) => void;

/** Ledger account ids kept in memory; past it the cache starts over (ids are cheap to look up). */
export const LEDGER_ACCOUNT_CACHE_LIMIT = 100_000;
/**
 * Balances whose last announced sequence is remembered, to flag a crossed announcement; past it the
 * memory starts over (a crossing needs two commits of one balance within a moment of each other).
 */
export const ANNOUNCED_SEQUENCE_LIMIT = 100_000;

/**
 * The ledger of one database: its cache of ledger account ids and the subscribers of its one
 * "balances changed" event. Every write of balances goes through the ledger, which announces the
 * resulting balances once the write has committed; nobody re-reads what the write returned.
 */
export class Ledger {
  /**
   * Ledger account ids by owner and currency. An id never changes once its row exists, so the
   * cache spares a lookup on every posting. Only ids of committed rows are cached: an id handed to
   * other transactions before its row commits would point at a row they cannot see yet, or never
   * will (a rollback). Even so the cache may hold an id that does not fit (a row created inside a
   * savepoint that rolled back), so every ledger statement checks each id against its owner and
   * currency under the row lock and writes nothing on a mismatch; withLedgerRetry then resolves the
   * ids afresh. A stale entry costs a retry, never a wrong posting.
   */
  readonly accountIds = new Map<string, string>();
  private readonly listeners = new Set<BalancesListener>();
  private readonly announcedSequence = new Map<string, bigint>();

  /**
   * Calls listener with the resulting balances of every committed write of user balances, in the
   * order the commits were acknowledged. Returns the unsubscribe.
   */
  onBalancesChanged(listener: BalancesListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  rememberAccountId(keyText: string, id: string): void {
    if (this.accountIds.size >= LEDGER_ACCOUNT_CACHE_LIMIT) this.accountIds.clear();
    this.accountIds.set(keyText, id);
  }

  /**
   * Announces changes once `q`'s transaction has committed (at once when q is the database itself,
   * whose statements commit on their own). Synchronous in the commit callback, so announcements
   * follow the order in which commits are acknowledged.
   */
  announceAfterCommit(q: Queryable, writer: BalanceWriter, changes: BalanceChange[]): void {
    if (changes.length === 0 || this.listeners.size === 0) return;
    if ('afterCommit' in q)
      (q as { afterCommit(fn: () => void): void }).afterCommit(() => this.announce(writer, changes));
    else this.announce(writer, changes);
  }

  /**
   * Tells every subscriber, now: for a writer that knows its statement has committed and picks the
   * moment itself (the trading writer, after answering its callers). A change older than one
   * already announced for its balance is flagged superseded here, so the order of announcements
   * never makes a subscriber show an older balance over a newer one.
   */
  announce(writer: BalanceWriter, changes: BalanceChange[]): void {
    if (changes.length === 0 || this.listeners.size === 0) return;
    if (this.announcedSequence.size >= ANNOUNCED_SEQUENCE_LIMIT) this.announcedSequence.clear();
    for (const change of changes) {
      invariant(!change.available.startsWith('-'), `ledger: user balance ${change.currency} announced negative`);
      invariant(!change.locked.startsWith('-'), `ledger: user locked ${change.currency} announced negative`);
      const key = `${change.accountId}:${change.currency}`;
      const last = this.announcedSequence.get(key);
      if (last !== undefined && last > change.sequence) change.superseded = true;
      else this.announcedSequence.set(key, change.sequence);
    }
    const event: BalancesChanged = { writer, changes };
    for (const listener of this.listeners) listener(event);
  }
}

const ledgers = new WeakMap<Database, Ledger>();

/**
 * The ledger of a database, made on first use. Keyed by the database object and collected with it,
 * so tests that run several databases never share ids or subscribers. (The composition root may
 * hand this object to the modules that subscribe; callers that only post entries find it from
 * their transaction.)
 */
export function ledgerOf(db: Database): Ledger {
  let ledger = ledgers.get(db);
  if (ledger === undefined) {
    ledger = new Ledger();
    ledgers.set(db, ledger);
  }
  return ledger;
}

/** The ledger behind a connection or a transaction; a private one for a bare connection of unknown origin. */
export function ledgerFor(q: Queryable): Ledger {
  const db = databaseOf(q);
  return db === undefined ? new Ledger() : ledgerOf(db);
}
