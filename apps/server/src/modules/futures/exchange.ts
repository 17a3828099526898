import type { Database } from '../../db/database.ts';
import type { Result } from '../../lib/errors.ts';
import type { Logger } from '../../logger.ts';
import { Batch } from './batch.ts';
import type { DecideContext } from './context.ts';
import { loadState } from './load.ts';
import type { FuturesMarketSpec } from './markets.ts';
import type { Publisher } from './publish.ts';
import { type Job, takeBatch, writeFailure } from './queue.ts';
import type { MarkOf } from './risk.ts';
import { FuturesState } from './state.ts';
import { triggerOrders } from './triggers.ts';
import { followPosition } from './upkeep.ts';
import { writeBatch } from './writer.ts';

export interface ExchangeDeps {
  db: Database;
  log: Logger;
  clock: () => Date;
  bandBps: number;
  markets: ReadonlyMap<string, FuturesMarketSpec>;
  markOf: MarkOf;
  publisher: Publisher;
}

/** Bound on the follow-ups (reduce-only trims, TP/SL moves) one command may cause. */
const MAX_FOLLOW_ROUNDS = 8;

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
    const ctx: DecideContext = {
      state,
      batch,
      now: this.deps.clock(),
      markOf: this.deps.markOf,
      bandBps: this.deps.bandBps,
      nextSequence: () => ++state.sequence,
      moved: new Set(),
    };
    const results = jobs.map((job) => {
      const sequence = ctx.nextSequence();
      const result = job.decide(ctx);
      this.follow(ctx);
      if (result.ok) batch.journal.push({ sequence, kind: job.kind, payload: job.payload });
      return result;
    });
    return { batch, results };
  }

  /** Reduce-only trims and TP/SL moves of every position the command moved (they may move others in turn). */
  private follow(ctx: DecideContext): void {
    for (let round = 0; round < MAX_FOLLOW_ROUNDS && ctx.moved.size > 0; round++) {
      const moved = [...ctx.moved];
      ctx.moved.clear();
      for (const key of moved) {
        const [accountId, marketId] = key.split('|') as [string, string];
        followPosition(ctx, accountId, marketId);
      }
    }
    triggerOrders(ctx);
  }

  /** Drops the memory and reads it back from the committed rows (start, and after a failed write). */
  private async reload(): Promise<void> {
    const fresh = new FuturesState(this.deps.markets, this.deps.bandBps);
    await loadState(this.deps.db, fresh);
    this.state = fresh;
    this.deps.publisher.reset(fresh);
  }
}
