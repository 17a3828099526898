import type { OrderBookUpdate, Trade } from '@platform/contracts';
import type { BookDepth, MarketCommand, MarketEngine, MarketEvent, MarketRejectReason } from '@platform/engine';
import type { Database, Transaction } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { type EntryInput, type PostingInput, postEntries } from '../ledger/service.ts';
import { isOpenStatus, type OrderState, requiredReserve } from './order-state.ts';
import {
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
  | { status: 'rejected'; reason: MarketRejectReason; order: OrderState | null };

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
      /** Atoms the service already moved to the order's modify_hold. */
      hold: bigint;
      referenceTicks: number | null;
    };

type Pending = { job: Job; resolve: (outcome: CommandOutcome) => void; reject: (error: unknown) => void };

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
  /**
   * Rebuilds this market from the database after a failed batch; the batch's new orders and
   * modifies never took effect, so their holds go back.
   */
  reload: (
    sequencer: MarketSequencer,
    failed: { placedOrderIds: string[]; modifiedOrderIds: string[] },
  ) => Promise<void>;
}

/** Journal form of a command: bigints as strings. */
export function serialiseCommand(command: MarketCommand): string {
  return JSON.stringify(command, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
}

export function parseCommand(json: unknown): MarketCommand {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  return JSON.parse(text, (_key, value) =>
    typeof value === 'string' && /^-?\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value,
  ) as MarketCommand;
}

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
      this.queue.push({ job, resolve, reject });
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

  private async runBatch(batch: Pending[]): Promise<void> {
    const now = this.deps.clock();
    const effects = new BatchEffects(this.spec);
    const outcomes: CommandOutcome[] = [];
    const firstSequence = this.lastSequence;
    let afterCommit: (() => void) | undefined;
    try {
      for (const pending of batch) outcomes.push(this.applyOne(pending.job, now, effects));
      const changes = effects.changes.map((change) => ({ kind: change.kind, order: { ...change.order } }));
      afterCommit = await this.deps.db.transaction(
        async (tx) => {
          await effects.write(tx, this.spec.id, now);
          return this.deps.hooks.inTransaction?.(tx, this.spec, changes);
        },
        { retries: 5 },
      );
    } catch (error) {
      this.deps.log.error({ err: error, pair: this.spec.id, firstSequence }, 'market batch failed; reloading');
      for (const pending of batch) pending.reject(error);
      await this.reloadAfterFailure(batch);
      return;
    }
    for (const [index, pending] of batch.entries()) pending.resolve(outcomes[index]!);
    this.publish(effects, now);
    afterCommit?.();
  }

  private async reloadAfterFailure(batch: Pending[]): Promise<void> {
    const placedOrderIds: string[] = [];
    const modifiedOrderIds: string[] = [];
    for (const { job } of batch) {
      if (job.kind === 'place') placedOrderIds.push(job.order.id);
      if (job.kind === 'modify' && job.hold > 0n) modifiedOrderIds.push(job.orderId);
    }
    try {
      await this.deps.reload(this, { placedOrderIds, modifiedOrderIds });
    } catch (error) {
      this.deps.log.fatal({ err: error, pair: this.spec.id }, 'market reload failed; market closed');
      this.closed = true;
    }
  }

  private applyOne(job: Job, now: Date, effects: BatchEffects): CommandOutcome {
    const sequence = ++this.lastSequence;
    const timestampMs = now.getTime();
    switch (job.kind) {
      case 'place': {
        const order = job.order;
        this.orders.set(order.id, order);
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
        // The extra hold the service took now belongs to the order, either way; a rejected modify
        // releases what the order does not need below.
        order.modifyHold -= job.hold;
        order.reserved += job.hold;
        effects.modifyTaken(order, job.hold);
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
        owner: { kind: 'system', name: 'fees' },
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

  private publish(effects: BatchEffects, now: Date): void {
    const { pubsub } = this.deps;
    const spec = this.spec;
    for (const trade of effects.trades) {
      const message: Trade = {
        id: trade.id,
        trading_pair: spec.id,
        symbol: spec.symbol,
        price: priceText(spec, trade.priceTicks),
        quantity: quantityText(spec, trade.quantityLots),
        total: atomsText(trade.total),
        side: trade.takerSide,
        timestamp: trade.executedAt.getTime(),
      };
      pubsub.publish(`trades.${spec.id}`, message);
    }
    if (effects.trades.length > 0) this.deps.hooks.onTrades?.(spec, effects.trades);
    this.publishBookDelta(now);
    this.deps.hooks.onOrders?.(
      spec,
      [...effects.touched.values()].map((order) => ({ ...order })),
      effects.accounts,
    );
  }

  private publishBookDelta(now: Date): void {
    const depth = this.engine.depth(BOOK_DEPTH_LEVELS);
    const bids = diffSide(this.lastDepth.bids, depth.bids);
    const asks = diffSide(this.lastDepth.asks, depth.asks);
    if (bids.length === 0 && asks.length === 0) return;
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
    this.deps.pubsub.publish(`orderbook.${this.spec.id}`, delta);
    this.deps.pubsub.retain(`orderbook.${this.spec.id}`, snapshot);
  }
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
  private readonly modifyTakenByOrder = new Map<string, bigint>();

  constructor(private readonly spec: PairSpec) {}

  journal(command: MarketCommand, accepted: boolean): void {
    this.journalRows.push({ s: command.sequence, c: JSON.parse(serialiseCommand(command)), a: accepted });
  }

  touch(order: OrderState): void {
    this.touched.set(order.id, order);
  }

  modifyTaken(order: OrderState, amount: bigint): void {
    this.modifyTakenByOrder.set(order.id, (this.modifyTakenByOrder.get(order.id) ?? 0n) + amount);
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

  async write(tx: Transaction, pairId: string, now: Date): Promise<void> {
    if (this.journalRows.length > 0) {
      await tx.query(
        `INSERT INTO market_journal (pair_id, sequence, command, accepted)
         SELECT $1, (e->>'s')::bigint, e->'c', (e->>'a')::boolean FROM jsonb_array_elements($2::jsonb) AS e`,
        [pairId, JSON.stringify(this.journalRows)],
      );
    }
    if (this.touched.size > 0) {
      const rows = [...this.touched.values()].map((order) => ({
        id: order.id,
        status: order.status,
        quantity: order.quantityLots === null ? null : quantityText(this.spec, order.quantityLots),
        price: order.priceTicks === null ? null : priceText(this.spec, order.priceTicks),
        stop_price: order.stopPriceTicks === null ? null : priceText(this.spec, order.stopPriceTicks),
        filled_quantity: quantityText(this.spec, order.filledLots),
        filled_total: atomsText(order.filledTotal),
        fee: atomsText(order.fee),
        reserved: atomsText(order.reserved),
        modify_taken: atomsText(this.modifyTakenByOrder.get(order.id) ?? 0n),
        triggered: order.triggered,
        reject_reason: order.rejectReason,
        end_reason: order.endReason,
        sequence: order.sequence,
        updated_at: order.updatedAt.toISOString(),
      }));
      await tx.query(
        `UPDATE orders AS o SET status = v.status, quantity = v.quantity, price = v.price, stop_price = v.stop_price,
           filled_quantity = v.filled_quantity, filled_total = v.filled_total, fee = v.fee, reserved = v.reserved,
           modify_hold = o.modify_hold - v.modify_taken, triggered = v.triggered, reject_reason = v.reject_reason,
           end_reason = v.end_reason, sequence = v.sequence, updated_at = v.updated_at
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, status text, quantity numeric, price numeric,
           stop_price numeric, filled_quantity numeric, filled_total numeric, fee numeric, reserved numeric,
           modify_taken numeric, triggered boolean, reject_reason text, end_reason text, sequence bigint,
           updated_at timestamptz)
         WHERE o.id = v.id`,
        [JSON.stringify(rows)],
      );
    }
    if (this.trades.length > 0) {
      const rows = this.trades.map((trade) => ({
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
        `INSERT INTO trades (id, pair_id, sequence, price, quantity, total, taker_side, maker_order_id, taker_order_id,
           maker_account_id, taker_account_id, maker_fee, taker_fee, fee_currency, executed_at)
         SELECT v.id, $2, v.sequence, v.price, v.quantity, v.total, v.taker_side, v.maker_order_id, v.taker_order_id,
           v.maker_account_id, v.taker_account_id, v.maker_fee, v.taker_fee, $3, $4
         FROM jsonb_to_recordset($1::jsonb) AS v(id text, sequence bigint, price numeric, quantity numeric,
           total numeric, taker_side text, maker_order_id uuid, taker_order_id uuid, maker_account_id uuid,
           taker_account_id uuid, maker_fee numeric, taker_fee numeric)`,
        [JSON.stringify(rows), pairId, this.spec.quote, now.toISOString()],
      );
    }
    if (this.entries.length > 0) await postEntries(tx, this.entries);
  }
}

export { isOpenStatus };
