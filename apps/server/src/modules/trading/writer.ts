import type { Database } from '../../db/database.ts';
import { invariant } from '../../lib/invariant.ts';
import type { Logger } from '../../logger.ts';
import { type EntryInput, ledgerStatement, type Statement } from '../ledger/service.ts';
import { addRecords, type BatchRows, type OrderChange } from './batch-effects.ts';
import type { FundsBook } from './funds.ts';
import type { PairSpec } from './pair-spec.ts';

/**
 * Most journal rows one write statement takes: a bigger statement makes its first waiter wait
 * longer and its parameters larger; a smaller one costs more commits under load.
 */
const MAX_COMMANDS_PER_WRITE = 2048;

/** An engine snapshot taken right after a batch, written with it. */
export interface SnapshotRecord {
  pairId: string;
  sequence: number;
  hash: string;
  json: string;
}

/** One market batch, decided in memory, waiting to be made durable. */
export interface WriteJob {
  ticket: number;
  spec: PairSpec;
  rows: BatchRows;
  entries: EntryInput[];
  changes: OrderChange[];
  snapshot: SnapshotRecord | null;
  /** Who to stop when a write fails: everything it decided after this batch was built on it. */
  owner: { halt(): void };
  resolve(): void;
  reject(error: unknown, dependent: boolean): void;
}

/**
 * Rows that must commit with the batches (order notifications), added to the writer's statement
 * under their own CTE and parameter names and writing only when `gate` holds; the function it
 * returns runs once committed.
 */
export type WriterHook = (
  groups: { spec: PairSpec; changes: OrderChange[] }[],
  stmt: Statement,
  gate: string,
) => (() => void) | null;

/**
 * The one writer of every market's batches. Markets decide in memory and go on deciding; the writer
 * commits whatever batches are waiting, of all markets, in one transaction (journal, orders, trades,
 * notifications, snapshots, and the ledger postings last), then answers them in order. So no two
 * trading transactions ever queue on the same balance rows, and the database does one commit for
 * many markets' batches.
 *
 * A batch is built on every earlier batch of its market and on the funds every earlier batch moved.
 * When a write fails, the batches in it and every batch waiting after it are undone together: their
 * markets halt and reload from the database, the funds book is cleared, and their commands are
 * retried or failed by their markets.
 */
export class TradingWriter {
  private queue: WriteJob[] = [];
  private running = false;
  private ticket = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly deps: {
      db: Database;
      log: Logger;
      funds: FundsBook;
      inTransaction?: WriterHook;
      /**
       * Told of every committed write before its callers are answered (the read caches drop what it
       * changed there, so that nobody told of a change can read the state before it). Synchronous.
       */
      committed?: (jobs: readonly WriteJob[]) => void;
    },
  ) {}

  /** The ticket the next job must carry (tickets are handed out in submission order). */
  nextTicket(): number {
    return this.ticket + 1;
  }

  submit(job: Omit<WriteJob, 'ticket'> & { ticket: number }): void {
    invariant(job.ticket === this.ticket + 1, `write ticket ${job.ticket} out of order (last ${this.ticket})`);
    this.ticket = job.ticket;
    this.queue.push(job);
    if (!this.running) {
      this.running = true;
      void this.loop();
    }
  }

  /** Resolves once nothing is waiting or being written. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async loop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        let commands = 0;
        let count = 0;
        while (count < this.queue.length && (count === 0 || commands < MAX_COMMANDS_PER_WRITE)) {
          commands += this.queue[count]!.rows.journal.length;
          count++;
        }
        const jobs = this.queue.splice(0, count);
        await this.write(jobs);
      }
    } finally {
      this.running = false;
      this.deps.funds.trimWhenIdle();
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async write(jobs: WriteJob[]): Promise<void> {
    invariant(jobs.length > 0, 'trading write of no batch');
    const started = performance.now();
    let afterCommit: (() => void)[];
    try {
      afterCommit = await this.writeStatement(jobs);
    } catch (error) {
      // Everything decided after these batches was built on them: undo it all before anyone moves on.
      const dependents = this.queue.splice(0);
      for (const job of [...jobs, ...dependents]) job.owner.halt();
      this.deps.funds.clear();
      this.deps.log.warn(
        { err: error, batches: jobs.length, dependents: dependents.length },
        'trading write failed; the markets involved reload',
      );
      for (const job of jobs) job.reject(error, false);
      for (const job of dependents) job.reject(error, true);
      return;
    }
    this.deps.funds.committed(jobs[jobs.length - 1]!.ticket);
    this.deps.committed?.(jobs);
    this.deps.log.debug(
      {
        batches: jobs.length,
        commands: jobs.reduce((sum, job) => sum + job.rows.journal.length, 0),
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'trading batches committed',
    );
    for (const job of jobs) job.resolve();
    // Notifications, then the balances the statement returned, after the callers' own events.
    for (const callback of afterCommit) setImmediate(callback);
  }

  /**
   * The batches as one statement, which commits on its own: the ledger part first (it locks the
   * balance rows and checks their ids), then journal, orders, trades, notifications and snapshots,
   * all written only if that check passed. One round trip and one commit for all of them.
   */
  private async writeStatement(jobs: WriteJob[]): Promise<(() => void)[]> {
    const entries = jobs.flatMap((job) => job.entries);
    const snapshots = jobs.flatMap((job) => (job.snapshot ? [job.snapshot] : []));
    const groups = jobs
      .filter((job) => job.changes.length > 0)
      .map((job) => ({ spec: job.spec, changes: job.changes }));
    let after: (() => void) | undefined;
    let announce: (() => void) | undefined;
    await ledgerStatement(
      this.deps.db,
      entries,
      (stmt, ledger) => {
        const gate = ledger.check();
        addRecords(
          stmt,
          jobs.map((job) => job.rows),
          gate,
        );
        // Built afresh when the ledger builds the statement again (the first attempt wrote nothing).
        after = this.deps.inTransaction?.(groups, stmt, gate) ?? undefined;
        if (snapshots.length > 0) addSnapshots(stmt, snapshots, gate);
        ledger.write();
        return ledger.select();
      },
      { writer: 'trading', prepare: true, schedule: (send) => (announce = send) },
    );
    return [after, announce].filter((callback) => callback !== undefined);
  }
}

/** The snapshots of the statement, each replacing its market's older ones. */
function addSnapshots(stmt: Statement, snapshots: readonly SnapshotRecord[], gate: string): void {
  const json = stmt.param('snapshots', JSON.stringify(snapshots), 'jsonb');
  stmt.cte(
    'new_snapshots',
    `SELECT s->>'pairId' AS pair_id, (s->>'sequence')::bigint AS sequence, s->>'hash' AS state_hash,
      (s->>'json')::jsonb AS snapshot
    FROM jsonb_array_elements(${json}) AS s
    WHERE ${gate}`,
  );
  stmt.cte(
    'inserted_snapshots',
    `INSERT INTO market_snapshots (pair_id, sequence, state_hash, snapshot)
    SELECT pair_id, sequence, state_hash, snapshot FROM new_snapshots
    ON CONFLICT DO NOTHING`,
  );
  stmt.cte(
    'deleted_snapshots',
    `DELETE FROM market_snapshots m USING new_snapshots n WHERE m.pair_id = n.pair_id AND m.sequence < n.sequence`,
  );
}
