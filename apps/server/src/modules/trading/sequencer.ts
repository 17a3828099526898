import type { OrderBookUpdate, Trade } from '@platform/contracts';
import type { BookDepth, MarketCommand, MarketEngine, MarketEvent, MarketRejectReason } from '@platform/engine';
import { formatDecimal } from '@platform/money';
import type { Database, Transaction } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { availableBalances, type EntryInput, type PostingInput, postEntries } from '../ledger/service.ts';
import { type OrderState, requiredReserve } from './order-state.ts';
import {
  atomsOf,
  atomsText,
  feeAtoms,
  lotsToAtoms,
  notionalAtoms,
  type PairSpec,
  priceText,
  quantityText,
} from './pair-spec.ts';

/** Most commands one group commit takes: bounds the transaction and the latency of the first. */
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

/** A batch whose optimistic balance read lost a race is retried this many times before it fails. */
const MAX_BATCH_ATTEMPTS = 3;

/** A trade as written to the trades table and announced. */
export interface TradeRecord {
  id: string;
  pairId: string;
  sequence: number;
  priceTicks: number;
  quantityLots: number;
  total: bigint;
  takerSide: 'buy' | 'sell';
  makerOrderId: string;
  takerOrderId: string;
  makerAccountId: string;
  takerAccountId: string;
  makerFee: bigint;
  takerFee: bigint;
  executedAt: Date;
}

export interface SequencerHooks {
  /** Right after a batch commits, before the next one starts (engine snapshots are taken here). */
  committed?: (sequencer: MarketSequencer) => void;
  /** After a batch commits: the trades it made, for candles and statistics. */
  onTrades?: (spec: PairSpec, trades: TradeRecord[]) => void;
  /** After a batch commits: every order whose state changed, and the accounts whose balances moved. */
  onOrders?: (spec: PairSpec, orders: OrderState[], accounts: Map<string, Set<string>>) => void;
  /**
   * Inside the batch transaction: extra rows that must commit with it (order notifications). May
   * return a function to run once the batch has committed (to push what it wrote).
   */
  inTransaction?: (tx: Transaction, spec: PairSpec, changes: OrderChange[]) => Promise<(() => void) | undefined>;
}

/** What happened to an order in a batch, for notifications (spec §4: placed, filled, cancelled, rejected). */
export interface OrderChange {
  kind: 'placed' | 'filled' | 'cancelled' | 'rejected' | 'expired' | 'completed';
  order: OrderState;
}

export interface SequencerDeps {
  db: Database;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  bandBps: number;
  hooks: SequencerHooks;
  /** Rebuilds this market from the database after a failed batch (nothing of it was written). */
  reload: (sequencer: MarketSequencer) => Promise<void>;
}

/**
 * JSON for the journal and the snapshots: a bigint (a quote budget) is written as the string
 * '123n' and read back as a bigint. No other value of the engine is a string ending in a digit and 'n'.
 */
export function toEngineJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? `${item}n` : item));
}

/** Reads what toEngineJson wrote (a string, or the value a jsonb column already parsed). */
export function fromEngineJson<T>(json: unknown): T {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  return JSON.parse(text, (_key, item) =>
    typeof item === 'string' && /^-?\d+n$/.test(item) ? BigInt(item.slice(0, -1)) : item,
  ) as T;
}

export const parseCommand = (json: unknown): MarketCommand => fromEngineJson<MarketCommand>(json);

/**
 * One market's sequencer: the only writer of its book and its open orders. Commands queue up while
 * a batch commits; the next batch takes all of them (group commit). A batch assigns sequence numbers,
 * applies the commands to the engine, settles the results (trades, fees, holds released) and writes
 * the journal, the orders, the trades and the ledger postings in one transaction. Only then are the
 * callers answered and the events published. A failed transaction reloads the market from the
 * database, so memory never runs ahead of what is durable.
 */
export class MarketSequencer {
  readonly orders = new Map<string, OrderState>();
  lastSequence = 0;
  private queue: Pending[] = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => {};
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
      if (!this.running) this.start();
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

  /** Resolves when every queued command has been committed. */
  drained(): Promise<void> {
    return this.running ? this.idle : Promise.resolve();
  }

  get pendingCount(): number {
    return this.queue.length;
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

  private start(): void {
    this.running = true;
    this.idle = new Promise((resolve) => {
      this.markIdle = resolve;
    });
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.runBatch(batch);
      }
    } finally {
      this.running = false;
      this.markIdle();
    }
  }

  /**
   * One group commit. Funds are checked against balances read just before (one query for the whole
   * batch) and tracked in memory from command to command, so the holds, the engine's results and
   * their settlement are all written in the batch's one transaction. If another market spent the
   * same funds meanwhile, the database refuses the negative balance, nothing is written, and the
   * batch starts again from freshly read balances.
   */
  private async runBatch(batch: Pending[]): Promise<void> {
    const now = this.deps.clock();
    const effects = new BatchEffects(this.spec);
    const outcomes: CommandOutcome[] = [];
    const firstSequence = this.lastSequence;
    let afterCommit: (() => void) | undefined;
    try {
      const t0 = performance.now();
      const funds = await this.readFunds(batch);
      const t1 = performance.now();
      for (const pending of batch) outcomes.push(this.applyOne(pending.job, now, effects, funds));
      const changes = effects.changes.map((change) => ({ kind: change.kind, order: { ...change.order } }));
      const t2 = performance.now();
      afterCommit = await this.deps.db.transaction(
        async (tx) => {
          await effects.writeRecords(tx, this.spec.id, now);
          const after = await this.deps.hooks.inTransaction?.(tx, this.spec, changes);
          // The ledger goes last: its row locks (balances other markets touch too) are then held
          // only for the commit itself.
          await effects.writeLedger(tx);
          return after;
        },
        { retries: 5 },
      );
      const t3 = performance.now();
      this.deps.log.debug(
        {
          pair: this.spec.id,
          commands: batch.length,
          readMs: Math.round((t1 - t0) * 10) / 10,
          applyMs: Math.round((t2 - t1) * 10) / 10,
          commitMs: Math.round((t3 - t2) * 10) / 10,
        },
        'market batch committed',
      );
    } catch (error) {
      await this.recoverFrom(error, batch, firstSequence);
      return;
    }
    // Everything the batch announces is pictured now, before the next batch can touch the engine;
    // the callers are answered first and the fan-out runs right after, so subscribers never delay them.
    const emit = this.prepareEvents(effects, now);
    this.deps.hooks.committed?.(this);
    for (const [index, pending] of batch.entries()) pending.resolve(outcomes[index]!);
    setImmediate(() => {
      emit();
      afterCommit?.();
    });
  }

  /** Available balances (atoms) of every account and currency the batch must hold funds from. */
  private async readFunds(batch: Pending[]): Promise<Map<string, bigint>> {
    const keys = new Map<string, { accountId: string; currency: string }>();
    for (const { job } of batch) {
      if (job.kind === 'place' && job.order.reserved > 0n) {
        keys.set(`${job.order.accountId}:${job.order.reserveCurrency}`, {
          accountId: job.order.accountId,
          currency: job.order.reserveCurrency,
        });
      } else if (job.kind === 'modify' && job.hold > 0n) {
        const order = this.orders.get(job.orderId);
        if (order)
          keys.set(`${order.accountId}:${order.reserveCurrency}`, {
            accountId: order.accountId,
            currency: order.reserveCurrency,
          });
      }
    }
    const funds = new Map<string, bigint>();
    if (keys.size === 0) return funds;
    const rows = await availableBalances(this.deps.db, [...keys.values()]);
    for (const [key, value] of rows) funds.set(key, atomsOf(value));
    return funds;
  }

  /** Takes `amount` from the funds read for the batch; false when they do not cover it. */
  private static take(funds: Map<string, bigint>, accountId: string, currency: string, amount: bigint): boolean {
    const key = `${accountId}:${currency}`;
    const have = funds.get(key) ?? 0n;
    if (have < amount) return false;
    funds.set(key, have - amount);
    return true;
  }

  /**
   * Nothing of a failed batch was written: memory is rebuilt from the database. A batch that lost
   * a race for funds (or hit a transient conflict) runs again; anything else fails its callers.
   */
  private async recoverFrom(error: unknown, batch: Pending[], firstSequence: number): Promise<void> {
    const raced = error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE';
    const retry = batch.filter((pending) => raced && pending.attempts + 1 < MAX_BATCH_ATTEMPTS);
    const fail = batch.filter((pending) => !retry.includes(pending));
    if (fail.length > 0) {
      this.deps.log.error({ err: error, pair: this.spec.id, firstSequence }, 'market batch failed; reloading');
    }
    try {
      await this.deps.reload(this);
    } catch (reloadError) {
      this.deps.log.fatal({ err: reloadError, pair: this.spec.id }, 'market reload failed; market closed');
      this.closed = true;
      for (const pending of batch) pending.reject(reloadError);
      return;
    }
    for (const pending of fail) pending.reject(error);
    for (const pending of retry) {
      pending.attempts++;
      if (pending.job.kind === 'place' && pending.pristine) pending.job.order = { ...pending.pristine };
    }
    this.queue.unshift(...retry);
  }

  private applyOne(job: Job, now: Date, effects: BatchEffects, funds: Map<string, bigint>): CommandOutcome {
    // Funds first: a command the balance cannot cover never reaches the engine or the journal.
    if (
      job.kind === 'place' &&
      !MarketSequencer.take(funds, job.order.accountId, job.order.reserveCurrency, job.order.reserved)
    ) {
      return { status: 'rejected', reason: 'insufficient_balance', order: null };
    }
    if (job.kind === 'modify' && job.hold > 0n) {
      const order = this.orders.get(job.orderId);
      if (order && !MarketSequencer.take(funds, order.accountId, order.reserveCurrency, job.hold)) {
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
    if (buyer.reserved < value || seller.reserved < base) {
      throw new Error(`trade ${sequence}:${event.tradeId} exceeds a hold (buyer ${buyer.id}, seller ${seller.id})`);
    }
    // The buyer's fee never takes more than its hold has left (rounding safety; exact at 0.1 %).
    const fullBuyerFee = feeAtoms(value, buyerRate);
    const buyerFee = fullBuyerFee <= buyer.reserved - value ? fullBuyerFee : buyer.reserved - value;
    const sellerFee = feeAtoms(value, sellerRate);
    buyer.reserved -= value + buyerFee;
    seller.reserved -= base;
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
    effects.entries.push({ kind: 'trade', reference: event.tradeId, postings });
    effects.accountsMoved(buyer.accountId, spec.quote, spec.base);
    effects.accountsMoved(seller.accountId, spec.quote, spec.base);
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
    if (order === undefined) throw new Error(`engine event for an order the sequencer does not hold: ${orderId}`);
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
      this.deps.hooks.onOrders?.(spec, orders, effects.accounts);
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

/** Everything one batch writes, gathered while the commands apply. */
class BatchEffects {
  readonly journalRows: { s: number; c: unknown; a: boolean }[] = [];
  readonly touched = new Map<string, OrderState>();
  readonly trades: TradeRecord[] = [];
  readonly entries: EntryInput[] = [];
  readonly changes: OrderChange[] = [];
  /** account -> currencies whose balance moved. */
  readonly accounts = new Map<string, Set<string>>();

  constructor(private readonly spec: PairSpec) {}

  journal(command: MarketCommand, accepted: boolean): void {
    this.journalRows.push({ s: command.sequence, c: JSON.parse(toEngineJson(command)), a: accepted });
  }

  touch(order: OrderState): void {
    this.touched.set(order.id, order);
  }

  hold(order: OrderState, amount: bigint): void {
    if (amount <= 0n) return;
    const owner = { kind: 'user' as const, accountId: order.accountId };
    this.entries.push({
      kind: 'order_hold',
      reference: order.id,
      postings: [
        { owner, currency: order.reserveCurrency, bucket: 'available', amount: atomsText(-amount) },
        { owner, currency: order.reserveCurrency, bucket: 'locked', amount: atomsText(amount) },
      ],
    });
    this.accountsMoved(order.accountId, order.reserveCurrency);
    this.touch(order);
  }

  accountsMoved(accountId: string, ...currencies: string[]): void {
    let set = this.accounts.get(accountId);
    if (!set) {
      set = new Set();
      this.accounts.set(accountId, set);
    }
    for (const currency of currencies) set.add(currency);
  }

  release(order: OrderState, amount: bigint, kind: string): void {
    if (amount <= 0n) return;
    const owner = { kind: 'user' as const, accountId: order.accountId };
    this.entries.push({
      kind,
      reference: order.id,
      postings: [
        { owner, currency: order.reserveCurrency, bucket: 'locked', amount: atomsText(-amount) },
        { owner, currency: order.reserveCurrency, bucket: 'available', amount: atomsText(amount) },
      ],
    });
    this.accountsMoved(order.accountId, order.reserveCurrency);
  }

  /**
   * The batch's journal rows, orders (new ones inserted with their state after the batch, open ones
   * updated) and trades, in one statement: one round trip instead of three.
   */
  async writeRecords(tx: Transaction, pairId: string, now: Date): Promise<void> {
    if (this.journalRows.length === 0 && this.touched.size === 0 && this.trades.length === 0) return;
    const spec = this.spec;
    const price = (ticks: number | null) => (ticks === null ? null : priceText(spec, ticks));
    const orderRows = [...this.touched.values()].map((order) => ({
      id: order.id,
      account_id: order.accountId,
      client_order_id: order.clientOrderId,
      side: order.side,
      type: order.type,
      time_in_force: order.timeInForce,
      post_only: order.postOnly,
      self_trade_prevention: order.selfTradePrevention,
      price: price(order.priceTicks),
      stop_price: price(order.stopPriceTicks),
      stop_limit_price: price(order.stopLimitPriceTicks),
      quantity: order.quantityLots === null ? null : quantityText(spec, order.quantityLots),
      quote_amount:
        order.quoteNotional === null
          ? null
          : formatDecimal({ units: order.quoteNotional, scale: spec.pricePrecision + spec.quantityPrecision }),
      filled_quantity: quantityText(spec, order.filledLots),
      filled_total: atomsText(order.filledTotal),
      fee: atomsText(order.fee),
      status: order.status,
      triggered: order.triggered,
      reject_reason: order.rejectReason,
      end_reason: order.endReason,
      reserve_currency: order.reserveCurrency,
      reserved: atomsText(order.reserved),
      reference_ticks: order.referenceTicks,
      sequence: order.sequence,
      created_at: order.createdAt.toISOString(),
      updated_at: order.updatedAt.toISOString(),
    }));
    const tradeRows = this.trades.map((trade) => ({
      id: trade.id,
      sequence: trade.sequence,
      price: priceText(this.spec, trade.priceTicks),
      quantity: quantityText(this.spec, trade.quantityLots),
      total: atomsText(trade.total),
      taker_side: trade.takerSide,
      maker_order_id: trade.makerOrderId,
      taker_order_id: trade.takerOrderId,
      maker_account_id: trade.makerAccountId,
      taker_account_id: trade.takerAccountId,
      maker_fee: atomsText(trade.makerFee),
      taker_fee: atomsText(trade.takerFee),
    }));
    await tx.query(
      `WITH journal AS (
         INSERT INTO market_journal (pair_id, sequence, command, accepted)
         SELECT $1, (e->>'s')::bigint, e->'c', (e->>'a')::boolean FROM jsonb_array_elements($2::jsonb) AS e
       ),
       upserted AS (
         INSERT INTO orders (id, account_id, pair_id, client_order_id, side, type, time_in_force, post_only,
           self_trade_prevention, price, stop_price, stop_limit_price, quantity, quote_amount, filled_quantity,
           filled_total, fee, status, triggered, reject_reason, end_reason, reserve_currency, reserved,
           reference_ticks, sequence, created_at, updated_at)
         SELECT v.id, v.account_id, $1, v.client_order_id, v.side, v.type, v.time_in_force, v.post_only,
           v.self_trade_prevention, v.price, v.stop_price, v.stop_limit_price, v.quantity, v.quote_amount,
           v.filled_quantity, v.filled_total, v.fee, v.status, v.triggered, v.reject_reason, v.end_reason,
           v.reserve_currency, v.reserved, v.reference_ticks, v.sequence, v.created_at, v.updated_at
         FROM jsonb_to_recordset($3::jsonb) AS v(id uuid, account_id uuid, client_order_id text, side text, type text,
           time_in_force text, post_only boolean, self_trade_prevention text, price numeric, stop_price numeric,
           stop_limit_price numeric, quantity numeric, quote_amount numeric, filled_quantity numeric,
           filled_total numeric, fee numeric, status text, triggered boolean, reject_reason text, end_reason text,
           reserve_currency text, reserved numeric, reference_ticks bigint, sequence bigint,
           created_at timestamptz, updated_at timestamptz)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, quantity = EXCLUDED.quantity, price = EXCLUDED.price,
           stop_price = EXCLUDED.stop_price, filled_quantity = EXCLUDED.filled_quantity,
           filled_total = EXCLUDED.filled_total, fee = EXCLUDED.fee, reserved = EXCLUDED.reserved,
           triggered = EXCLUDED.triggered, reject_reason = EXCLUDED.reject_reason, end_reason = EXCLUDED.end_reason,
           sequence = EXCLUDED.sequence, updated_at = EXCLUDED.updated_at
       )
       -- The trades' foreign keys see the orders inserted above: constraint checks run at the end of the statement.
       INSERT INTO trades (id, pair_id, sequence, price, quantity, total, taker_side, maker_order_id, taker_order_id,
         maker_account_id, taker_account_id, maker_fee, taker_fee, fee_currency, executed_at)
       SELECT v.id, $1, v.sequence, v.price, v.quantity, v.total, v.taker_side, v.maker_order_id, v.taker_order_id,
         v.maker_account_id, v.taker_account_id, v.maker_fee, v.taker_fee, $5, $6
       FROM jsonb_to_recordset($4::jsonb) AS v(id text, sequence bigint, price numeric, quantity numeric,
         total numeric, taker_side text, maker_order_id uuid, taker_order_id uuid, maker_account_id uuid,
         taker_account_id uuid, maker_fee numeric, taker_fee numeric)`,
      [
        pairId,
        JSON.stringify(this.journalRows),
        JSON.stringify(orderRows),
        JSON.stringify(tradeRows),
        this.spec.quote,
        now.toISOString(),
      ],
    );
  }

  async writeLedger(tx: Transaction): Promise<void> {
    if (this.entries.length > 0) await postEntries(tx, this.entries);
  }
}
