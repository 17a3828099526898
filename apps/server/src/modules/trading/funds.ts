import type { Database } from '../../db/database.ts';
import { invariant } from '../../lib/invariant.ts';
import { availableBalances, type BalancesChanged, ledgerOf } from '../ledger/service.ts';
import { atomsOf } from './pair-spec.ts';

/** Accounts' available balances kept in memory; past this many the book starts over when it may. */
const FUNDS_CACHE_LIMIT = 200_000;
/**
 * Balances marked dirty (moved while not in memory) kept before committed ones are swept: the marks
 * of committed batches are useless, but sweeping them on every commit would cost a scan per batch.
 */
const DIRTY_SWEEP_THRESHOLD = 10_000;

export interface FundsKey {
  accountId: string;
  currency: string;
}

const keyOf = (accountId: string, currency: string) => `${accountId}:${currency}`;

/**
 * The risk stage's view of available balances (atoms), shared by every market's sequencer: the
 * ledger's committed balance plus every trading movement already decided in memory, whether or not
 * its batch has committed yet. Orders are checked against it without a database read, so markets
 * never wait on each other; the database still refuses a negative balance when the batch is written.
 *
 * A balance is read from the ledger the first time it is needed. Movements outside trading
 * (deposits, withdrawals, transfers, funding) reach it through the ledger's balances-changed event
 * once they commit (the trading writer's own are skipped there: they were counted when decided). If a trading write ever fails, everything built on it is undone and the book is
 * cleared (`clear`), to be read afresh from the ledger.
 */
export class FundsBook {
  private readonly balances = new Map<string, bigint>();
  /**
   * Keys being read now, each read with its own mark of whether a movement landed during it: two
   * markets may read one balance at once, and a movement must spoil both reads, not the later one.
   */
  private readonly loading = new Map<string, Set<{ moved: boolean }>>();
  /**
   * Balances not in memory that a batch moved, with the ticket of that batch: a read must wait
   * until that batch has committed, or it would miss the movement.
   */
  private readonly dirty = new Map<string, number>();
  private committedTicket = 0;
  private ticketWaiters: { ticket: number; resolve: () => void }[] = [];
  /** Bumped by clear(): a read started before it is thrown away. */
  private epoch = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly db: Database) {
    this.unsubscribe = ledgerOf(db).onBalancesChanged((event) => this.applyOutside(event));
  }

  close(): void {
    this.unsubscribe();
  }

  /** Whether every key is in memory (no read needed before a batch uses them). */
  hasAll(keys: Iterable<FundsKey>): boolean {
    for (const key of keys) if (!this.balances.has(keyOf(key.accountId, key.currency))) return false;
    return true;
  }

  /**
   * Reads the keys not in memory from the ledger in one query. A read overtaken by an outside
   * movement of the same balance, or by clear(), is not kept; callers loop on hasAll.
   */
  async load(keys: Iterable<FundsKey>): Promise<void> {
    const missing: FundsKey[] = [];
    const seen = new Set<string>();
    for (const key of keys) {
      const text = keyOf(key.accountId, key.currency);
      if (this.balances.has(text) || seen.has(text)) continue;
      seen.add(text);
      missing.push(key);
    }
    if (missing.length === 0) return;
    let waitFor = 0;
    for (const key of missing) waitFor = Math.max(waitFor, this.dirty.get(keyOf(key.accountId, key.currency)) ?? 0);
    if (waitFor > this.committedTicket) {
      await new Promise<void>((resolve) => this.ticketWaiters.push({ ticket: waitFor, resolve }));
      return;
    }
    const epoch = this.epoch;
    const marks = new Map<string, { moved: boolean }>();
    for (const key of missing) {
      const text = keyOf(key.accountId, key.currency);
      const mark = { moved: false };
      marks.set(text, mark);
      const open = this.loading.get(text);
      if (open) open.add(mark);
      else this.loading.set(text, new Set([mark]));
    }
    try {
      const rows = await availableBalances(this.db, missing);
      if (epoch !== this.epoch) return;
      for (const [text, value] of rows) {
        const mark = marks.get(text);
        if (mark === undefined || mark.moved || this.balances.has(text)) continue;
        this.balances.set(text, atomsOf(value));
      }
    } finally {
      for (const [text, mark] of marks) this.endRead(text, mark);
    }
  }

  /** Available atoms; the key must have been loaded. */
  available(accountId: string, currency: string): bigint {
    const value = this.balances.get(keyOf(accountId, currency));
    if (value === undefined) throw new Error(`funds of ${accountId} in ${currency} were not loaded`);
    return value;
  }

  /**
   * A trading movement decided in memory (negative for a hold, positive for a release or a fill),
   * part of the batch that will be written under `ticket`.
   */
  move(accountId: string, currency: string, delta: bigint, ticket: number): void {
    const text = keyOf(accountId, currency);
    invariant(ticket > this.committedTicket, `funds: a movement under ticket ${ticket}, already committed`);
    const value = this.balances.get(text);
    if (value !== undefined) {
      // A hold takes only what the sequencer checked was there.
      invariant(delta >= 0n || value + delta >= 0n, `funds: a hold of ${-delta} on ${text} exceeds ${value}`);
      this.balances.set(text, value + delta);
      return;
    }
    // Holds are checked against loaded balances only: a hold on a balance not in memory is a bug.
    invariant(delta >= 0n, `funds: a hold on ${text}, which was never loaded`);
    // A balance not in memory (a maker's proceeds, say) is read whole from the ledger when first
    // needed; so that the read cannot miss this movement it waits until the batch has committed.
    this.dirty.set(text, ticket);
    this.spoilReads(text);
  }

  /** Every batch up to `ticket` is in the ledger. */
  committed(ticket: number): void {
    invariant(ticket > this.committedTicket, `funds: ticket ${ticket} committed after ${this.committedTicket}`);
    this.committedTicket = ticket;
    if (this.ticketWaiters.length > 0) {
      const ready = this.ticketWaiters.filter((waiter) => waiter.ticket <= ticket);
      this.ticketWaiters = this.ticketWaiters.filter((waiter) => waiter.ticket > ticket);
      for (const waiter of ready) waiter.resolve();
    }
    if (this.dirty.size > DIRTY_SWEEP_THRESHOLD) {
      for (const [text, dirtyTicket] of this.dirty) if (dirtyTicket <= ticket) this.dirty.delete(text);
    }
  }

  /**
   * Forgets everything (after a failed write, when every batch in flight has been undone):
   * balances are read afresh from the ledger.
   */
  clear(): void {
    this.epoch++;
    this.balances.clear();
    this.dirty.clear();
    for (const marks of this.loading.values()) for (const mark of marks) mark.moved = true;
    const waiters = this.ticketWaiters;
    this.ticketWaiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  /** Starts over when the book has grown past its limit; only while nothing is in flight. */
  trimWhenIdle(): void {
    if (this.balances.size > FUNDS_CACHE_LIMIT) this.clear();
    else this.dirty.clear();
  }

  private applyOutside(event: BalancesChanged): void {
    if (event.writer === 'trading') return;
    for (const move of event.changes) {
      const text = keyOf(move.accountId, move.currency);
      this.spoilReads(text);
      const value = this.balances.get(text);
      if (value !== undefined) this.balances.set(text, value + atomsOf(move.availableDelta));
    }
  }

  /** A movement landed: no read of this balance now in flight may be kept. */
  private spoilReads(text: string): void {
    const marks = this.loading.get(text);
    if (marks) for (const mark of marks) mark.moved = true;
  }

  private endRead(text: string, mark: { moved: boolean }): void {
    const marks = this.loading.get(text);
    if (!marks) return;
    marks.delete(mark);
    if (marks.size === 0) this.loading.delete(text);
  }
}
