import type { OrderBookUpdate, Trade } from '@platform/contracts';
import type { BookDepth, MarketCommand, MarketEngine, MarketEvent, MarketRejectReason } from '@platform/engine';
import { AppError } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import type { PostingInput } from '../ledger/service.ts';
import { BatchEffects, batchRows, fromEngineJson, type TradeRecord, toEngineJson } from './batch-effects.ts';
import type { FundsBook, FundsKey } from './funds.ts';
import { type OrderState, requiredReserve } from './order-state.ts';
import {
  atomsText,
  feeAtoms,
  lotsToAtoms,
  notionalAtoms,
  type PairSpec,
  priceText,
  quantityText,
} from './pair-spec.ts';
import type { SnapshotRecord, TradingWriter } from './writer.ts';

export { fromEngineJson, type OrderChange, type TradeRecord, toEngineJson } from './batch-effects.ts';

/**
 * Most commands one market batch takes: enough to amortise a write under load, few enough that one
 * batch's funds read and engine work never hold up the event loop for long.
 */
const MAX_BATCH = 512;
/** Book levels kept in the retained snapshot and diffed into deltas. */
export const BOOK_DEPTH_LEVELS = 50;

export type CommandOutcome =
  | { status: 'accepted'; order: OrderState }
  | { status: 'rejected'; reason: MarketRejectReason | 'insufficient_balance'; order: OrderState | null };

type Job =
  | { kind: 'place'; order: OrderState }
  | { kind: 'cancel'; orderId: string; accountId: string }
  | {
      kind: 'modify';
      orderId: string;
      accountId: string;
      quantityLots: number | null;
      priceTicks: number | null;
      stopPriceTicks: number | null;
      /** Atoms more the order must hold for the change; held in the batch, or the modify is refused. */
      hold: bigint;
      referenceTicks: number | null;
    };

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
  private lastDepth: BookDepth = { bids: [], asks: [] };
  private bookSequence = 0;
  closed = false;

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
  depthView(levels: number): { sequence: number; bids: [string, string][]; asks: [string, string][] } {
    const depth = this.engine.depth(levels);
    const view = (side: BookDepth['bids']) =>
      side.map((level): [string, string] => [
        priceText(this.spec, level.priceTicks),
        quantityText(this.spec, level.quantityLots),
      ]);
    return { sequence: this.lastSequence, bids: view(depth.bids), asks: view(depth.asks) };
  }

  /** Publishes the current book as the retained snapshot (after start or a reload). */
  publishSnapshot(): void {
    this.lastDepth = this.engine.depth(BOOK_DEPTH_LEVELS);
    this.bookSequence = this.lastSequence;
    const view = this.depthView(BOOK_DEPTH_LEVELS);
    const snapshot: OrderBookUpdate = {
      trading_pair: this.spec.id,
      kind: 'snapshot',
      sequence: view.sequence,
      prev_sequence: view.sequence,
      bids: view.bids,
      asks: view.asks,
      timestamp: this.deps.clock().getTime(),
    };
    this.deps.pubsub.retain(`orderbook.${this.spec.id}`, snapshot);
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
      } else if (job.kind === 'modify' && job.hold > 0n) {
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
    if (job.kind === 'modify' && job.hold > 0n) {
      const order = this.orders.get(job.orderId);
      if (order && !this.covers(order.accountId, order.reserveCurrency, job.hold)) {
        return { status: 'rejected', reason: 'insufficient_balance', order: { ...order } };
      }
    }
    const sequence = ++this.lastSequence;
    const timestampMs = now.getTime();
    switch (job.kind) {
      case 'place': {
        const order = job.order;
        this.orders.set(order.id, order);
        effects.hold(order, order.reserved);
        const command: MarketCommand = {
          kind: 'place',
          sequence,
          timestampMs,
          orderId: order.id,
          accountId: order.accountId,
          side: order.side,
          type: order.type,
          quantityLots: order.quantityLots ?? order.lotCap,
          quoteAmount: order.quoteNotional,
          priceTicks: order.priceTicks,
          stopPriceTicks: order.stopPriceTicks,
          stopLimitPriceTicks: order.stopLimitPriceTicks,
          timeInForce: order.timeInForce,
          postOnly: order.postOnly,
          selfTradePrevention: order.selfTradePrevention,
          referencePriceTicks: order.referenceTicks,
        };
        const result = this.engine.apply(command);
        effects.journal(command, result.status === 'accepted');
        order.sequence = sequence;
        order.updatedAt = now;
        effects.touch(order);
        if (result.status === 'rejected') {
          order.status = 'rejected';
          order.rejectReason = result.reason;
          effects.changes.push({ kind: 'rejected', order });
          effects.release(order, order.reserved, 'order_release');
          order.reserved = 0n;
          this.orders.delete(order.id);
          return { status: 'rejected', reason: result.reason, order: { ...order } };
        }
        effects.changes.push({ kind: 'placed', order: { ...order } });
        this.settle(result.events, sequence, now, effects);
        return { status: 'accepted', order: { ...order } };
      }
      case 'cancel': {
        const command: MarketCommand = {
          kind: 'cancel',
          sequence,
          timestampMs,
          orderId: job.orderId,
          accountId: job.accountId,
        };
        const result = this.engine.apply(command);
        effects.journal(command, result.status === 'accepted');
        const order = this.orders.get(job.orderId);
        if (result.status === 'rejected' || order === undefined) {
          return {
            status: 'rejected',
            reason: result.status === 'rejected' ? result.reason : 'unknown_order',
            order: null,
          };
        }
        this.settle(result.events, sequence, now, effects);
        return { status: 'accepted', order: { ...order } };
      }
      case 'modify': {
        const command: MarketCommand = {
          kind: 'modify',
          sequence,
          timestampMs,
          orderId: job.orderId,
          accountId: job.accountId,
          quantityLots: job.quantityLots,
          priceTicks: job.priceTicks,
          stopPriceTicks: job.stopPriceTicks,
          referencePriceTicks: job.referenceTicks,
        };
        const result = this.engine.apply(command);
        effects.journal(command, result.status === 'accepted');
        const order = this.orders.get(job.orderId);
        if (order === undefined) {
          return {
            status: 'rejected',
            reason: result.status === 'rejected' ? result.reason : 'unknown_order',
            order: null,
          };
        }
        // The extra hold belongs to the order either way; a rejected modify releases what the
        // order does not need below.
        effects.hold(order, job.hold);
        order.reserved += job.hold;
        if (result.status === 'rejected') {
          this.releaseExcess(order, effects);
          effects.touch(order);
          return { status: 'rejected', reason: result.reason, order: { ...order } };
        }
        this.settle(result.events, sequence, now, effects);
        return { status: 'accepted', order: { ...order } };
      }
    }
  }

  /** Releases what an open order holds beyond what its open part can still need. */
  private releaseExcess(order: OrderState, effects: BatchEffects): void {
    const openLots = (order.quantityLots ?? order.lotCap) - order.filledLots;
    const needed = requiredReserve(this.spec, { ...order, openLots }, this.deps.bandBps, order.referenceTicks);
    if (order.reserved > needed) {
      effects.release(order, order.reserved - needed, 'order_release');
      order.reserved = needed;
    }
  }

  private settle(events: MarketEvent[], sequence: number, now: Date, effects: BatchEffects): void {
    for (const event of events) {
      switch (event.type) {
        case 'accepted':
        case 'rested':
          break;
        case 'trade':
          this.settleTrade(event, sequence, now, effects);
          break;
        case 'triggered': {
          const order = this.mustGet(event.orderId);
          order.triggered = true;
          order.updatedAt = now;
          effects.touch(order);
          break;
        }
        case 'modified': {
          const order = this.mustGet(event.orderId);
          order.quantityLots = event.quantityLots;
          order.priceTicks = event.priceTicks;
          order.stopPriceTicks = event.stopPriceTicks;
          order.updatedAt = now;
          this.releaseExcess(order, effects);
          effects.touch(order);
          break;
        }
        case 'filled':
          this.close(this.mustGet(event.orderId), 'filled', 'filled', now, effects);
          break;
        case 'ended': {
          const order = this.mustGet(event.orderId);
          const status = event.reason === 'cancelled' ? 'cancelled' : order.filledLots > 0 ? 'completed' : 'expired';
          this.close(order, status, event.reason, now, effects);
          break;
        }
      }
    }
  }

  private close(
    order: OrderState,
    status: OrderState['status'],
    reason: string,
    now: Date,
    effects: BatchEffects,
  ): void {
    order.status = status;
    order.endReason = reason;
    effects.changes.push({ kind: status === 'pending' || status === 'partial' ? 'expired' : status, order });
    if (order.quantityLots === null) order.quantityLots = order.filledLots > 0 ? order.filledLots : null;
    if (order.reserved > 0n) effects.release(order, order.reserved, 'order_release');
    order.reserved = 0n;
    order.updatedAt = now;
    effects.touch(order);
    this.orders.delete(order.id);
  }

  private settleTrade(
    event: Extract<MarketEvent, { type: 'trade' }>,
    sequence: number,
    now: Date,
    effects: BatchEffects,
  ): void {
    const spec = this.spec;
    const maker = this.mustGet(event.makerOrderId);
    const taker = this.mustGet(event.takerOrderId);
    const value = notionalAtoms(spec, event.priceTicks, event.quantityLots);
    const base = lotsToAtoms(spec, event.quantityLots);
    const buyer = event.takerSide === 'buy' ? taker : maker;
    const seller = buyer === taker ? maker : taker;
    const buyerRate = buyer === maker ? spec.makerFeePercent : spec.takerFeePercent;
    const sellerRate = seller === maker ? spec.makerFeePercent : spec.takerFeePercent;
    invariant(
      buyer.reserved >= value && seller.reserved >= base,
      `trade ${sequence}:${event.tradeId} exceeds a hold (buyer ${buyer.id}, seller ${seller.id})`,
    );
    // The buyer's fee never takes more than its hold has left (rounding safety; exact at 0.1 %).
    const fullBuyerFee = feeAtoms(value, buyerRate);
    const buyerFee = fullBuyerFee <= buyer.reserved - value ? fullBuyerFee : buyer.reserved - value;
    const sellerFee = feeAtoms(value, sellerRate);
    buyer.reserved -= value + buyerFee;
    seller.reserved -= base;
    invariant(buyer.reserved >= 0n, `trade ${sequence}:${event.tradeId}: the buyer's fee overdrew its hold`);
    for (const [order, fee] of [
      [buyer, buyerFee],
      [seller, sellerFee],
    ] as const) {
      order.filledLots += event.quantityLots;
      order.filledTotal += value;
      order.fee += fee;
      order.updatedAt = now;
      if (order.status === 'pending') order.status = 'partial';
      effects.touch(order);
    }
    const user = (accountId: string) => ({ kind: 'user' as const, accountId });
    const postings: PostingInput[] = [
      { owner: user(buyer.accountId), currency: spec.quote, bucket: 'locked', amount: atomsText(-(value + buyerFee)) },
      { owner: user(buyer.accountId), currency: spec.base, bucket: 'available', amount: atomsText(base) },
      { owner: user(seller.accountId), currency: spec.base, bucket: 'locked', amount: atomsText(-base) },
      {
        owner: user(seller.accountId),
        currency: spec.quote,
        bucket: 'available',
        amount: atomsText(value - sellerFee),
      },
      {
        // Fees go to the market's own fee account, so that batches of two markets never wait for
        // each other on one shared row; fee revenue is the sum of the fees_* accounts.
        owner: { kind: 'system', name: feeAccountName(spec.id) },
        currency: spec.quote,
        bucket: 'available',
        amount: atomsText(buyerFee + sellerFee),
      },
    ];
    effects.settle({ kind: 'trade', reference: event.tradeId, postings }, [
      { accountId: buyer.accountId, currency: spec.base, amount: base },
      { accountId: seller.accountId, currency: spec.quote, amount: value - sellerFee },
    ]);
    effects.trades.push({
      id: `${spec.id}:${event.tradeId}`,
      pairId: spec.id,
      sequence,
      priceTicks: event.priceTicks,
      quantityLots: event.quantityLots,
      total: value,
      takerSide: event.takerSide,
      makerOrderId: maker.id,
      takerOrderId: taker.id,
      makerAccountId: maker.accountId,
      takerAccountId: taker.accountId,
      makerFee: maker === buyer ? buyerFee : sellerFee,
      takerFee: taker === buyer ? buyerFee : sellerFee,
      executedAt: now,
    });
  }

  private mustGet(orderId: string): OrderState {
    const order = this.orders.get(orderId);
    invariant(order !== undefined, `engine event for an order the sequencer does not hold: ${orderId}`);
    return order;
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
    const book = this.bookDelta(now);
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

  /** The book's change since the last published picture, and the new picture; null when unchanged. */
  private bookDelta(now: Date): { delta: OrderBookUpdate; snapshot: OrderBookUpdate } | null {
    const depth = this.engine.depth(BOOK_DEPTH_LEVELS);
    const bids = diffSide(this.lastDepth.bids, depth.bids);
    const asks = diffSide(this.lastDepth.asks, depth.asks);
    if (bids.length === 0 && asks.length === 0) return null;
    const text = (levels: [number, number][]) =>
      levels.map(([price, quantity]): [string, string] => [
        priceText(this.spec, price),
        quantityText(this.spec, quantity),
      ]);
    const delta: OrderBookUpdate = {
      trading_pair: this.spec.id,
      kind: 'delta',
      sequence: this.lastSequence,
      prev_sequence: this.bookSequence,
      bids: text(bids),
      asks: text(asks),
      timestamp: now.getTime(),
    };
    this.lastDepth = depth;
    this.bookSequence = this.lastSequence;
    const view = this.depthView(BOOK_DEPTH_LEVELS);
    const snapshot: OrderBookUpdate = {
      ...delta,
      kind: 'snapshot',
      prev_sequence: delta.sequence,
      bids: view.bids,
      asks: view.asks,
    };
    return { delta, snapshot };
  }
}

/** The system ledger account that collects a market's fees: fees_btc_usd. */
export function feeAccountName(pairId: string): string {
  return `fees_${pairId.toLowerCase()}`;
}

/** Levels whose quantity changed, as [price, new quantity]; 0 for a level that is gone. */
function diffSide(before: BookDepth['bids'], after: BookDepth['bids']): [number, number][] {
  const previous = new Map(before.map((level) => [level.priceTicks, level.quantityLots]));
  const changes: [number, number][] = [];
  for (const level of after) {
    if (previous.get(level.priceTicks) !== level.quantityLots) changes.push([level.priceTicks, level.quantityLots]);
    previous.delete(level.priceTicks);
  }
  for (const price of previous.keys()) changes.push([price, 0]);
  return changes;
}
