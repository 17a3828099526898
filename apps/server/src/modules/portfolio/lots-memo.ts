import type { lots } from '@platform/engine';
import type { LedgerChanges } from './ledger-changes.ts';

/**
 * Accounts (per lot method) whose lot results are kept, least recently read dropped first: the
 * realised rows of an active trader's whole history are a few MB at most (see the row bound), so
 * this bounds the memo at a few hundred MB in the worst case and far less in practice.
 */
export const LOTS_MEMO_ENTRIES_MAX = 64;
/**
 * A result with more rows (open lots + realised rows over every asset) than this is not kept: it
 * would crowd out the others, and its account pays a full pass per read as before the memo.
 */
export const LOTS_MEMO_ROWS_MAX = 200_000;

type Entry = { version: string; result: Promise<lots.LotResult[]> };
type Compute = (accountId: string, method: lots.LotMethod) => Promise<lots.LotResult[]>;

/**
 * The last lot results (with realised rows) of an account under a method, kept while the ledger
 * announces no change to the account's balances (ledger-changes.ts). The version is read before
 * the pass starts and announcements come after commits, so a result is never kept under a version
 * newer than what it read: a write that commits during the pass moves the version, and the next
 * read computes afresh. Reads of one version share one pass (a burst of requests runs it once).
 */
export class LotsMemo {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly changes: Pick<LedgerChanges, 'version'>,
    private readonly compute: Compute,
    private readonly limits = { entries: LOTS_MEMO_ENTRIES_MAX, rows: LOTS_MEMO_ROWS_MAX },
  ) {}

  lots(accountId: string, method: lots.LotMethod): Promise<lots.LotResult[]> {
    const key = `${accountId}\u0000${method}`;
    const version = this.changes.version(accountId);
    const known = this.entries.get(key);
    if (known !== undefined && known.version === version) {
      // Most recently read last: the Map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known.result;
    }
    const result = this.compute(accountId, method);
    const entry: Entry = { version, result };
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.evict();
    result.then(
      (results) => {
        if (rowsOf(results) > this.limits.rows) this.forget(key, entry);
      },
      () => this.forget(key, entry),
    );
    return result;
  }

  /** How many results are kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }

  private evict(): void {
    while (this.entries.size > this.limits.entries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.entries.delete(oldest);
    }
  }
}

function rowsOf(results: readonly lots.LotResult[]): number {
  return results.reduce((total, result) => total + result.openLots.length + result.realised.length, 0);
}
