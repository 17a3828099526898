import type { lots } from '@platform/engine';
import type { LedgerChanges } from './ledger-changes.ts';

/** Accounts (per lot method) whose lot results are kept, least recently read dropped first. */
export const LOTS_MEMO_ENTRIES_MAX = 64;
/**
 * Rows (open lots + realised rows over every asset) kept over all the entries, least recently read
 * dropped first past it. A row is a handful of bigints and short strings, a few hundred bytes
 * (estimated, not measured): about 150 MB at most.
 */
export const LOTS_MEMO_ROWS_MAX = 500_000;
/**
 * A result with more rows than this is answered but not kept: it would crowd out the others, and
 * its account pays a full pass per read as before the memo.
 */
export const LOTS_MEMO_ENTRY_ROWS_MAX = 200_000;

type Entry = { version: string; result: Promise<lots.LotResult[]>; rows: number };
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
  private rows = 0;

  constructor(
    private readonly changes: Pick<LedgerChanges, 'version'>,
    private readonly compute: Compute,
    private readonly limits = {
      entries: LOTS_MEMO_ENTRIES_MAX,
      rows: LOTS_MEMO_ROWS_MAX,
      entryRows: LOTS_MEMO_ENTRY_ROWS_MAX,
    },
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
    const entry: Entry = { version, result, rows: 0 };
    if (known !== undefined) this.forget(key, known);
    this.entries.set(key, entry);
    this.evict();
    result.then(
      (results) => {
        if (this.entries.get(key) !== entry) return;
        const rows = rowsOf(results);
        if (rows > this.limits.entryRows) return this.forget(key, entry);
        entry.rows = rows;
        this.rows += rows;
        this.evict();
      },
      () => this.forget(key, entry),
    );
    return result;
  }

  /** How many results are kept, and their rows (tests). */
  get size(): { entries: number; rows: number } {
    return { entries: this.entries.size, rows: this.rows };
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.rows -= entry.rows;
  }

  private evict(): void {
    while (this.entries.size > this.limits.entries || this.rows > this.limits.rows) {
      const [oldest] = this.entries;
      if (oldest === undefined) return;
      this.forget(oldest[0], oldest[1]);
    }
  }
}

function rowsOf(results: readonly lots.LotResult[]): number {
  return results.reduce((total, result) => total + result.openLots.length + result.realised.length, 0);
}
