import type { Database } from '../../db/database.ts';
import { ledgerOf } from '../ledger/service.ts';

/** Accounts whose change counts are kept; past it every count starts over in a new epoch. */
export const COUNTED_ACCOUNTS_MAX = 100_000;

/**
 * How many balance changes the ledger has announced per account, as a version to compare: two
 * equal versions mean that no write to the account's balances committed between them (the ledger
 * announces synchronously as a write commits). Starting over past COUNTED_ACCOUNTS_MAX moves the
 * epoch, so a version read before never equals one read after.
 */
export class LedgerChanges {
  private readonly counts = new Map<string, number>();
  private readonly watchers = new Set<Set<string>>();
  private epoch = 0;
  private readonly unsubscribe: () => void;

  constructor(db: Database) {
    this.unsubscribe = ledgerOf(db).onBalancesChanged((event) => {
      for (const change of event.changes) {
        this.count(change.accountId);
        for (const watcher of this.watchers) watcher.add(change.accountId);
      }
    });
  }

  version(accountId: string): string {
    return `${this.epoch}:${this.counts.get(accountId) ?? 0}`;
  }

  /**
   * Collects the accounts whose balances change from now until `stop` (the snapshot recorder's
   * check over a page of accounts, where a version per account would have to be read first).
   */
  watch(): { changed: ReadonlySet<string>; stop(): void } {
    const changed = new Set<string>();
    this.watchers.add(changed);
    return { changed, stop: () => this.watchers.delete(changed) };
  }

  /** When the server closes: the ledger's events outlive a server on the same database. */
  stop(): void {
    this.unsubscribe();
    this.counts.clear();
    this.watchers.clear();
  }

  private count(accountId: string): void {
    if (!this.counts.has(accountId) && this.counts.size >= COUNTED_ACCOUNTS_MAX) {
      this.counts.clear();
      this.epoch++;
    }
    this.counts.set(accountId, (this.counts.get(accountId) ?? 0) + 1);
  }
}
