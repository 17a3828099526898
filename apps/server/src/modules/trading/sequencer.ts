import type { Trade } from '@platform/contracts';
import type { MarketCommand, MarketEngine } from '@platform/engine';
import { AppError } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { BatchEffects, batchRows, fromEngineJson, type TradeRecord, toEngineJson } from './batch-effects.ts';
import { BookPictures, type BookView, depthView } from './book-pictures.ts';
import { applyCommand } from './commands.ts';
import type { FundsBook, FundsKey } from './funds.ts';
import type { CommandOutcome, Job } from './jobs.ts';
import type { OrderState } from './order-state.ts';
import { atomsText, type PairSpec, priceText, quantityText } from './pair-spec.ts';
import { modifyHold } from './settlement.ts';
import type { SnapshotRecord, TradingWriter } from './writer.ts';

export { fromEngineJson, type OrderChange, type TradeRecord, toEngineJson } from './batch-effects.ts';

/**
 * Most commands one market batch takes: enough to amortise a write under load, few enough that one
 * batch's funds read and engine work never hold up the event loop for long.
 */
const MAX_BATCH = 512;

export { BOOK_DEPTH_LEVELS } from './book-pictures.ts';
export type { CommandOutcome } from './jobs.ts';
export { feeAccountName } from './settlement.ts';

type Pending = {
  job: Job;
  resolve: (outcome: CommandOutcome) => void;
  reject: (error: unknown) => void;
  /** The order as submitted, to start again from when a batch is retried. */
  pristine: OrderState | null;
  attempts: number;
};

/** A command whose batch could not be written is tried this many times before it fails. */
const MAX_BATCH_ATTEMPTS = 3;

export interface SequencerHooks {
  /** After a batch commits: the trades it made, for candles and statistics. */
  onTrades?: (spec: PairSpec, trades: TradeRecord[]) => void;
  /** After a batch commits: every order whose state changed (balances are the ledger's event). */
  onOrders?: (spec: PairSpec, orders: OrderState[]) => void;
}

export interface SequencerDeps {
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  bandBps: number;
  hooks: SequencerHooks;
  writer: TradingWriter;
  funds: FundsBook;
  /** An engine snapshot goes with the batch after this many commands since the last one. */
  snapshotEvery: number;
  /** Rebuilds this market from the database after a failed write (nothing of it was written). */
  reload: (sequencer: MarketSequencer) => Promise<void>;
}

export const parseCommand = (json: unknown): MarketCommand => fromEngineJson<MarketCommand>(json);

/**
 * One market's sequencer: the only writer of its book and its open orders. Commands that arrive
 * together form a batch; the batch is checked against the funds book, applied to the engine and
 * settled in memory at once, then handed to the trading writer, and the market goes on with the
 * next batch while it is written. Callers are answered, and events published, only once their
 * batch has committed. If a write fails, the market halts, reloads its book and orders from the
 * database (which holds none of the failed batches), and retries or fails the commands.
 */
export class MarketSequencer {
  readonly orders = new Map<string, OrderState>();
  lastSequence = 0;
  /** Sequence of the last engine snapshot written (or being written with a batch). */
  snapshotSequence = 0;
  private queue: Pending[] = [];
  private scheduled = false;
  private producing = false;
  private inFlight = 0;
  private halted = false;
  /** Commands of undone batches, in order, while the market halts. */
  private undone: { pending: Pending[]; error: unknown; dependent: boolean }[] = [];
  private idleWaiters: (() => void)[] = [];
  /** The last book picture published, to diff the next batch's against. */
  private readonly book = new BookPictures();
  closed = false;

  /** The price band the market's holds are sized for (basis points around the reference). */
  get bandBps(): number {
    return this.deps.bandBps;
  }

  constructor(
    readonly spec: PairSpec,
    public engine: MarketEngine,
    private readonly deps: SequencerDeps,
  ) {}

  submit(job: Job): Promise<CommandOutcome> {
    if (this.closed) return Promise.reject(new Error('market closed'));
    return new Promise((resolve, reject) => {
      const pristine = job.kind === 'place' ? { ...job.order } : null;
      this.queue.push({ job, resolve, reject, pristine, attempts: 0 });
      this.schedule();
    });
  }

  place(order: OrderState) {
    return this.submit({ kind: 'place', order });
  }

  cancel(orderId: string, accountId: string) {
    return this.submit({ kind: 'cancel', orderId, accountId });
  }

  modify(job: Omit<Extract<Job, { kind: 'modify' }>, 'kind'>) {
    return this.submit({ kind: 'modify', ...job });
  }

  /** Resolves when every queued command has been committed (or failed). */
  drained(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  get pendingCount(): number {
    return this.queue.length;
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && !this.producing && !this.scheduled && this.inFlight === 0 && !this.halted;
  }

  private checkIdle(): void {
    if (!this.isIdle() || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The picture published on orderbook.{PAIR} and served by the HTTP order book. */
  depthView(levels: number): BookView {
    return depthView(this, levels);
  }

  /** Publishes the current book as the retained snapshot (after start or a reload). */
  publishSnapshot(): void {
    this.deps.pubsub.retain(`orderbook.${this.spec.id}`, this.book.reset(this, this.deps.clock()));
  }

  /** Commands that arrive in the same turn of the event loop go into one batch. */
  private schedule(): void {
    if (this.scheduled || this.producing || this.halted) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.produce();
    });
  }

  private async produce(): Promise<void> {
    if (this.producing || this.halted) return;
    this.producing = true;
    try {
      while (this.queue.length > 0 && !this.halted) {
        const keys = this.fundKeys(this.queue.slice(0, MAX_BATCH));
        if (!this.deps.funds.hasAll(keys)) {
          try {
            await this.deps.funds.load(keys);
          } catch (error) {
            // The balances could not be read: these commands fail, nothing was decided.
            this.deps.log.error({ err: error, pair: this.spec.id }, 'funds read failed');
            for (const pending of this.queue.splice(0, MAX_BATCH)) pending.reject(error);
          }
          continue;
        }
        this.decide(this.queue.splice(0, MAX_BATCH));
      }
    } finally {
      this.producing = false;
      if (this.queue.length > 0 && !this.halted) this.schedule();
      this.checkIdle();
    }
  }

  /** Every balance the batch may take funds from. */
  private fundKeys(batch: Pending[]): FundsKey[] {
    const keys: FundsKey[] = [];
    for (const { job } of batch) {
      if (job.kind === 'place' && job.order.reserved > 0n) {
        keys.push({ accountId: job.order.accountId, currency: job.order.reserveCurrency });
      } else if (job.kind === 'modify') {
        // What a modify holds more is known only when it applies: its order's balance is loaded.
        const order = this.orders.get(job.orderId);
        if (order) keys.push({ accountId: order.accountId, currency: order.reserveCurrency });
      }
    }
    return keys;
  }

  /**
   * Decides a batch in memory (funds, engine, settlement), pictures everything it will announce,
   * and hands it to the writer. Synchronous: nothing else touches the engine or the funds meanwhile.
   */
  private decide(batch: Pending[]): void {
    const now = this.deps.clock();
    const ticket = this.deps.writer.nextTicket();
    const effects = new BatchEffects(this.spec, this.deps.funds, ticket);
    const outcomes: CommandOutcome[] = [];
    for (const pending of batch) outcomes.push(this.applyOne(pending.job, now, effects));
    const changes = effects.changes.map((change) => ({ kind: change.kind, order: { ...change.order } }));
    const emit = this.prepareEvents(effects, now);
    const snapshot = this.snapshotIfDue();
    this.inFlight++;
    this.deps.writer.submit({
      ticket,
      spec: this.spec,
      rows: batchRows(effects),
      entries: effects.entries,
      changes,
      snapshot,
      owner: this,
      resolve: () => {
        this.inFlight--;
        invariant(this.inFlight >= 0, `market ${this.spec.id}: more batches answered than written`);
        for (const [index, pending] of batch.entries()) pending.resolve(outcomes[index]!);
        // The callers are answered first; the fan-out runs right after, so subscribers never delay them.
        setImmediate(emit);
        this.checkIdle();
      },
      reject: (error, dependent) => {
        this.inFlight--;
        this.undone.push({ pending: batch, error, dependent });
        if (this.inFlight === 0) void this.recover();
      },
    });
  }

  private snapshotIfDue(): SnapshotRecord | null {
    if (this.lastSequence - this.snapshotSequence < this.deps.snapshotEvery) return null;
    this.snapshotSequence = this.lastSequence;
    return {
      pairId: this.spec.id,
      sequence: this.lastSequence,
      hash: this.engine.stateHash(),
      json: toEngineJson(this.engine.snapshot()),
    };
  }

  /** Called by the writer when a write this market depends on failed: stop deciding. */
  halt(): void {
    this.halted = true;
  }

  /**
   * Once every batch in flight has come back undone: rebuild the market from the database, then
   * retry the commands of batches that were only waiting behind the failure, or that lost a race
   * for funds; fail the others.
   */
  private async recover(): Promise<void> {
    const undone = this.undone;
    this.undone = [];
    const retry: Pending[] = [];
    const failed: { pending: Pending; error: unknown }[] = [];
    let firstError: unknown;
    for (const { pending: batch, error, dependent } of undone) {
      const raced = dependent || (error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE');
      if (!dependent) firstError ??= error;
      for (const pending of batch) {
        if (raced && pending.attempts + 1 < MAX_BATCH_ATTEMPTS) retry.push(pending);
        else failed.push({ pending, error });
      }
    }
    if (failed.length > 0) {
      this.deps.log.error({ err: firstError, pair: this.spec.id }, 'market batch failed; reloading');
    }
    try {
      await this.deps.reload(this);
    } catch (reloadError) {
      this.deps.log.fatal({ err: reloadError, pair: this.spec.id }, 'market reload failed; market closed');
      this.closed = true;
      for (const pending of [...retry, ...failed.map((item) => item.pending), ...this.queue.splice(0)]) {
        pending.reject(reloadError);
      }
      this.halted = false;
      this.checkIdle();
      return;
    }
    for (const { pending, error } of failed) pending.reject(error);
    for (const pending of retry) {
      pending.attempts++;
      if (pending.job.kind === 'place' && pending.pristine) pending.job.order = { ...pending.pristine };
    }
    this.queue.unshift(...retry);
    this.halted = false;
    if (this.queue.length > 0) this.schedule();
    this.checkIdle();
  }

  /** Whether the funds book covers `amount` of the account's currency (loaded before the batch). */
  private covers(accountId: string, currency: string, amount: bigint): boolean {
    return this.deps.funds.available(accountId, currency) >= amount;
  }

  private applyOne(job: Job, now: Date, effects: BatchEffects): CommandOutcome {
    // Funds first: a command the balance cannot cover never reaches the engine or the journal.
    if (
      job.kind === 'place' &&
      job.order.reserved > 0n &&
      !this.covers(job.order.accountId, job.order.reserveCurrency, job.order.reserved)
    ) {
      return { status: 'rejected', reason: 'insufficient_balance', order: null };
    }
    let hold = 0n;
    if (job.kind === 'modify') {
      const order = this.orders.get(job.orderId);
      hold = order === undefined ? 0n : modifyHold(this, order, job);
      if (order && hold > 0n && !this.covers(order.accountId, order.reserveCurrency, hold)) {
        return { status: 'rejected', reason: 'insufficient_balance', order: { ...order } };
      }
    }
    return applyCommand(this, job, { sequence: ++this.lastSequence, now, effects }, hold);
  }

  /**
   * Builds every message of a committed batch from the state right after its commit. It must run
   * before the next batch touches the engine: the sends themselves are deferred, the pictures not.
   */
  private prepareEvents(effects: BatchEffects, now: Date): () => void {
    const spec = this.spec;
    const trades: Trade[] = effects.trades.map((trade) => ({
      id: trade.id,
      trading_pair: spec.id,
      symbol: spec.symbol,
      price: priceText(spec, trade.priceTicks),
      quantity: quantityText(spec, trade.quantityLots),
      total: atomsText(trade.total),
      side: trade.takerSide,
      timestamp: trade.executedAt.getTime(),
    }));
    const book = this.book.delta(this, now);
    const orders = [...effects.touched.values()].map((order) => ({ ...order }));
    return () => {
      const { pubsub } = this.deps;
      for (const message of trades) pubsub.publish(`trades.${spec.id}`, message);
      if (effects.trades.length > 0) this.deps.hooks.onTrades?.(spec, effects.trades);
      if (book !== null) {
        pubsub.publish(`orderbook.${spec.id}`, book.delta);
        pubsub.retain(`orderbook.${spec.id}`, book.snapshot);
      }
      this.deps.hooks.onOrders?.(spec, orders);
    };
  }
}
