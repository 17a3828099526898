import type { Database } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { Logger } from '../../logger.ts';
import { Batch } from './batch.ts';
import { type CommandKind, type CommandPayloads, decideCommand } from './commands.ts';
import type { DecideContext } from './context.ts';
import { recordingContext, runCommand } from './journal.ts';
import { loadState } from './load.ts';
import type { FuturesMarketSpec } from './markets.ts';
import type { Publisher } from './publish.ts';
import { type Job, takeBatch, writeFailure } from './queue.ts';
import type { MarkOf } from './risk.ts';
import { FuturesState } from './state.ts';
import { writeBatch } from './writer.ts';

export type CommandOptions<T> = Pick<Job<T>, 'accounts' | 'alone' | 'prepare'> & {
  decided?: (ctx: DecideContext, value: T) => void;
};

export interface ExchangeDeps {
  db: Database;
  log: Logger;
  clock: () => Date;
  bandBps: number;
  markets: ReadonlyMap<string, FuturesMarketSpec>;
  markOf: MarkOf;
  publisher: Publisher;
}

/**
 * The futures exchange: ONE serial command queue for every perpetual market (cross margin spans
 * markets). Commands that arrive in the same turn form a batch, decided one by one in memory, then
 * written in ONE transaction (ledger entries, rows, journal). Callers are answered after the
 * commit; socket messages follow. A failed write drops the memory and reloads it from the database.
 */
export class FuturesCore {
  state: FuturesState;
  private readonly queue: Job[] = [];
  private scheduled = false;
  private running: Promise<void> | null = null;
  /**
   * Set while a batch's decisions are in memory but not committed (from its synchronous decide to
   * its commit, or to the reload after a failed write): reads wait for it, so they never show what
   * the database may still refuse.
   */
  private uncommitted: Promise<void> | null = null;
  private closed = false;
  private readonly committedListeners = new Set<(batch: Batch) => void>();

  constructor(private readonly deps: ExchangeDeps) {
    this.state = new FuturesState(deps.markets, deps.bandBps);
  }

  async start(): Promise<void> {
    await this.reload();
  }

  /** Waits for the queue to drain, then refuses new commands. */
  async stop(): Promise<void> {
    this.closed = true;
    while (this.running || this.scheduled || this.queue.length > 0) {
      await (this.running ?? new Promise((resolve) => setImmediate(resolve)));
    }
  }

  /**
   * Submits a journaled command: decided, live and in a replay, by commands.ts from its kind and
   * payload alone. `decided` runs after a successful decision (live only: notifications).
   */
  command<T, K extends CommandKind = CommandKind>(
    kind: K,
    payload: CommandPayloads[K],
    options: CommandOptions<T>,
  ): Promise<Result<T>> {
    const { decided, ...rest } = options;
    return this.submit<T>({
      ...rest,
      kind,
      payload,
      decide: (ctx) => {
        const result = decideCommand(ctx, kind, payload) as Result<T>;
        if (result.ok) decided?.(ctx, result.value);
        return result;
      },
    });
  }

  /**
   * Reads the state between two batches: nothing is decided or written while `read` runs (it holds
   * the queue: keep it for checks, not for traffic), and the memory equals what is committed.
   */
  async inspect<T>(read: (state: FuturesState) => Promise<T>): Promise<T> {
    // The read's outcome is carried past the queue: a failed read is the caller's, not a failed batch.
    const box: { outcome: { value: T } | { error: unknown } } = {
      outcome: { error: new Error('inspection was not answered') },
    };
    await this.submit<null>({
      kind: 'inspect',
      payload: null,
      accounts: [],
      prepare: async () => {
        box.outcome = await read(this.state).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        return ok(null);
      },
      decide: () => fail('VALIDATION_ERROR'),
    });
    const { outcome } = box;
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  submit<T>(job: Omit<Job<T>, 'resolve' | 'reject'>): Promise<Result<T>> {
    if (this.closed) return Promise.reject(new Error('futures exchange closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ ...job, resolve, reject } as Job);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.running = this.drain().finally(() => {
        this.running = null;
        if (this.queue.length > 0) this.schedule();
      });
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const jobs = takeBatch(this.queue);
      let settled: () => void = () => {};
      try {
        await this.runBatch(jobs, (done) => {
          settled = done;
        });
      } catch (error) {
        this.deps.log.error({ err: error }, 'futures batch failed; reloading from the database');
        // The memory is rebuilt before the callers hear: what they read next is what was committed.
        await this.reload().catch((reloadError: unknown) => {
          this.deps.log.fatal({ err: reloadError }, 'futures state could not be reloaded; exchange closed');
          this.closed = true;
        });
        const answer = writeFailure(error);
        for (const job of jobs) job.reject(answer);
      } finally {
        settled();
      }
    }
  }

  /** Resolves once no decided batch is waiting for its commit; read the state synchronously right after. */
  async committed(): Promise<void> {
    while (this.uncommitted) await this.uncommitted;
  }

  private async runBatch(jobs: Job[], onDecided: (settled: () => void) => void): Promise<void> {
    await this.state.loadWallets(
      this.deps.db,
      jobs.flatMap((job) => job.accounts),
    );
    const prepared = await Promise.all(jobs.map((job) => job.prepare?.() ?? Promise.resolve(null)));
    const pending: Job[] = [];
    jobs.forEach((job, index) => {
      const early = prepared[index];
      if (early) job.resolve(early);
      else pending.push(job);
    });
    if (pending.length === 0) return;
    let settle: () => void = () => {};
    this.uncommitted = new Promise((resolve) => {
      settle = () => {
        this.uncommitted = null;
        resolve();
      };
    });
    onDecided(settle);
    const { batch, results } = this.decide(pending);
    batch.freeze();
    await this.deps.db.transaction((tx) => writeBatch(tx, batch, this.deps.markets));
    settle();
    for (const [index, job] of pending.entries()) job.resolve(results[index]!);
    try {
      this.deps.publisher.committed(this.state, batch);
    } catch (error) {
      // The batch is durable and answered: a message that cannot be built is logged, not undone.
      this.deps.log.error({ err: error }, 'futures batch committed but its messages could not be built');
    }
    try {
      for (const hook of batch.afterCommit) hook();
      for (const listener of this.committedListeners) listener(batch);
    } catch (error) {
      this.deps.log.error({ err: error }, 'futures batch committed but a follow-up failed');
    }
  }

  /** Called after every committed batch (the liquidation watcher re-checks what it moved); returns the way to stop. */
  onCommitted(listener: (batch: Batch) => void): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /** Synchronous: nothing else touches the state while a batch is decided. */
  private decide(jobs: Job[]): { batch: Batch; results: Result<unknown>[] } {
    const batch = new Batch();
    const state = this.state;
    const base: DecideContext = {
      state,
      batch,
      now: this.deps.clock(),
      markOf: this.deps.markOf,
      bandBps: this.deps.bandBps,
      nextSequence: () => ++state.sequence,
      moved: new Set(),
      newId: () => {
        throw new Error('a command decides with its own context');
      },
    };
    // The batch is named by the first sequence it takes (journal.ts: a replay groups its rows by it).
    const batchId = state.sequence + 1;
    const results = jobs.map((job) => {
      const { ctx, inputs } = recordingContext(base, batchId);
      const { sequence, result } = runCommand(ctx, job.decide);
      if (result.ok) batch.journal.push({ sequence, kind: job.kind, payload: job.payload, inputs });
      return result;
    });
    return { batch, results };
  }

  /** Drops the memory and reads it back from the committed rows (start, and after a failed write). */
  private async reload(): Promise<void> {
    const fresh = new FuturesState(this.deps.markets, this.deps.bandBps);
    await loadState(this.deps.db, fresh);
    this.state = fresh;
    this.deps.publisher.reset(fresh);
  }
}
