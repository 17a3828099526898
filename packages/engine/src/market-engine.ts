import type {
  CancelOrderCommand,
  EngineOrder,
  MarketCommand,
  MarketCommandResult,
  MarketEvent,
  MarketOrderType,
  MarketRejectReason,
  MarketRules,
  MarketSnapshot,
  ModifyOrderCommand,
  OrderEndReason,
  PlaceOrderCommand,
} from './market-types.ts';
import type { OrderBook } from './order-book.ts';
import { isPositiveUnits } from './place-command.ts';
import { stopTriggered, withinPriceBand } from './price-rules.ts';
import { fnv1a64, serialiseSnapshot } from './state-hash.ts';
import {
  type BookDepth,
  type CancelledMaker,
  type Fill,
  MAX_UNITS,
  type PlaceCommand,
  type PlaceResult,
  type RemainderCancelReason,
  type Side,
  type TimeInForce,
} from './types.ts';

/** Basis points in a whole: the price band is priceBandBps / 10 000 of the reference price. */
const BPS_PER_UNIT = 10_000n;

type FieldRule = 'required' | 'optional' | 'forbidden';

interface OrderShape {
  priceTicks: FieldRule;
  stopPriceTicks: FieldRule;
  stopLimitPriceTicks: FieldRule;
  timesInForce: readonly TimeInForce[];
  /** Whether the order may be sized by a quote amount (it trades as a market order). */
  byQuote: boolean;
  /** Whether the order waits for a trigger before it trades (an oco's limit leg rests meanwhile). */
  waits: boolean;
}

const ORDER_SHAPES: Record<MarketOrderType, OrderShape> = {
  market: shape('forbidden', 'forbidden', 'forbidden', ['IOC', 'FOK'], true, false),
  limit: shape('required', 'forbidden', 'forbidden', ['GTC', 'IOC', 'FOK'], false, false),
  stop_loss: shape('forbidden', 'required', 'forbidden', ['GTC'], true, true),
  stop_limit: shape('required', 'required', 'forbidden', ['GTC'], false, true),
  take_profit: shape('forbidden', 'required', 'forbidden', ['GTC'], true, true),
  take_profit_limit: shape('required', 'required', 'forbidden', ['GTC'], false, true),
  oco: shape('required', 'required', 'optional', ['GTC'], false, true),
};

function shape(
  priceTicks: FieldRule,
  stopPriceTicks: FieldRule,
  stopLimitPriceTicks: FieldRule,
  timesInForce: readonly TimeInForce[],
  byQuote: boolean,
  waits: boolean,
): OrderShape {
  return { priceTicks, stopPriceTicks, stopLimitPriceTicks, timesInForce, byQuote, waits };
}

/** What one command has produced so far; triggered orders add to the same list and trade count. */
interface CommandContext {
  sequence: number;
  timestampMs: number;
  referencePriceTicks: number | null;
  events: MarketEvent[];
  tradeCount: number;
}

/** A validated modification, ready to apply. */
interface ModificationPlan {
  quantityLots: number;
  priceTicks: number | null;
  stopPriceTicks: number | null;
  keepPriority: boolean;
}

/**
 * The market engine: one OrderBook plus what the book does not know — stop and take-profit orders
 * waiting for the last trade price, oco pairs, modify rules and the pair's rules (amount limits and a
 * price band). Pure and deterministic like the book: time, sequence and the reference price arrive
 * with each command. Every rejection is decided before anything changes, so a rejected command
 * leaves the state (and its hash) exactly as it was.
 */
export class MarketEngine {
  private readonly book: OrderBook;
  private rules: MarketRules;
  /** Every open order: resting, waiting for its trigger, or both (an untriggered oco). */
  private readonly orders = new Map<string, EngineOrder>();
  /** Waiting order ids in trigger priority, which is sequence order. */
  private waiting: string[] = [];
  /** The sequence of the last accepted command; 0 before the first. */
  private lastAcceptedSequence = 0;

  constructor(book: OrderBook, rules: MarketRules) {
    assertRules(rules);
    const snapshot = book.snapshot();
    // The engine must know every resting order, so it starts from an empty book (or a restore).
    assert(snapshot.bids.length === 0 && snapshot.asks.length === 0, 'MarketEngine needs an empty book');
    this.book = book;
    this.rules = { ...rules };
  }

  apply(command: MarketCommand): MarketCommandResult {
    // A sequence that does not increase is a fault of the sequencer, not of the client.
    assert(
      Number.isSafeInteger(command.sequence) && command.sequence > this.lastAcceptedSequence,
      `command sequence ${command.sequence} does not follow ${this.lastAcceptedSequence}`,
    );
    if (command.kind !== 'cancel') {
      const reference = command.referencePriceTicks;
      // The sequencer parses the feed; a reference price that is not a positive tick count is its bug.
      assert(reference === null || isPositiveUnits(reference), `invalid reference price ${reference}`);
    }
    switch (command.kind) {
      case 'place':
        return this.place(command);
      case 'cancel':
        return this.cancel(command);
      case 'modify':
        return this.modify(command);
    }
  }

  order(orderId: string): EngineOrder | null {
    const order = this.orders.get(orderId);
    return order === undefined ? null : { ...order };
  }

  /** Every open order in sequence order (then by id, for orders triggered by the same command). */
  openOrders(): EngineOrder[] {
    return [...this.orders.values()].sort(compareOrders).map((order) => ({ ...order }));
  }

  depth(levels: number): BookDepth {
    return this.book.depth(levels);
  }

  bestBid(): number | null {
    return this.book.bestBid();
  }

  bestAsk(): number | null {
    return this.book.bestAsk();
  }

  lastTradePrice(): number | null {
    return this.book.lastTradePrice();
  }

  lastSequence(): number {
    return this.lastAcceptedSequence;
  }

  setRules(rules: MarketRules): void {
    assertRules(rules);
    this.rules = { ...rules };
  }

  snapshot(): MarketSnapshot {
    return {
      version: 1,
      book: this.book.snapshot(),
      orders: this.openOrders(),
      waitingOrderIds: [...this.waiting],
      lastSequence: this.lastAcceptedSequence,
    };
  }

  restore(snapshot: MarketSnapshot): void {
    assertSnapshotConsistent(snapshot);
    this.book.restore(snapshot.book);
    this.orders.clear();
    for (const order of snapshot.orders) this.orders.set(order.orderId, { ...order });
    this.waiting = [...snapshot.waitingOrderIds];
    this.lastAcceptedSequence = snapshot.lastSequence;
  }

  /** 16 hex digits over everything that decides future events: book, orders, waiting list, sequence. */
  stateHash(): string {
    const orders = this.openOrders().map(serialiseEngineOrder).join(';');
    const waiting = this.waiting.map(lengthPrefixed).join(',');
    return fnv1a64(
      `${serialiseSnapshot(this.book.snapshot())}|orders:${orders}|waiting:${waiting}|seq:${this.lastAcceptedSequence}`,
    );
  }

  // Commands.

  private place(command: PlaceOrderCommand): MarketCommandResult {
    const reason = this.validatePlace(command);
    if (reason !== null) return rejected(command.sequence, reason);
    const context = newContext(command);
    const order = newOrder(command);
    if (command.type === 'market' || command.type === 'limit') {
      // FOK and post-only are decided by the book, which rejects atomically: nothing has changed yet.
      const result = this.book.place(this.bookCommand(order, command.priceTicks, command.timeInForce, context));
      if (result.status === 'rejected') return rejected(command.sequence, result.reason);
      context.events.push({ type: 'accepted', orderId: order.orderId, accountId: order.accountId });
      this.absorb(order, result, context);
      return this.finish(context);
    }
    context.events.push({ type: 'accepted', orderId: order.orderId, accountId: order.accountId });
    this.orders.set(order.orderId, order);
    this.waiting.push(order.orderId);
    if (command.type === 'oco') this.placeLimitLeg(order, context);
    return this.finish(context);
  }

  private cancel(command: CancelOrderCommand): MarketCommandResult {
    const order = this.ownedOrder(command.orderId, command.accountId);
    if (order === null) return rejected(command.sequence, 'unknown_order');
    const context = newContext(command);
    if (inBook(order)) this.removeFromBook(order);
    this.forget(order);
    context.events.push(ended(order, 'cancelled', order.remainingLots));
    return this.finish(context);
  }

  private modify(command: ModifyOrderCommand): MarketCommandResult {
    const order = this.ownedOrder(command.orderId, command.accountId);
    if (order === null) return rejected(command.sequence, 'unknown_order');
    const plan = this.planModification(order, command);
    if (typeof plan === 'string') return rejected(command.sequence, plan);
    const context = newContext(command);
    if (plan.keepPriority) this.reduceInPlace(order, plan.quantityLots, context);
    else this.replace(order, plan, context);
    return this.finish(context);
  }

  /** Runs the triggers the command's trades set off, then records the command as applied. */
  private finish(context: CommandContext): MarketCommandResult {
    if (context.tradeCount > 0) this.runTriggers(context);
    this.lastAcceptedSequence = context.sequence;
    return { status: 'accepted', sequence: context.sequence, events: context.events };
  }

  // Validation: every check that can reject runs here, before any state changes.

  private validatePlace(command: PlaceOrderCommand): MarketRejectReason | null {
    const orderShape = ORDER_SHAPES[command.type] as OrderShape | undefined;
    if (orderShape === undefined) return 'invalid_order_type';
    if (!isPositiveUnits(command.quantityLots)) return 'invalid_quantity';
    const fieldReason = checkPriceFields(command, orderShape) ?? checkTimeInForce(command, orderShape);
    if (fieldReason !== null) return fieldReason;
    if (command.quoteAmount !== null) {
      if (!orderShape.byQuote || typeof command.quoteAmount !== 'bigint' || command.quoteAmount <= 0n) {
        return 'invalid_quote_budget';
      }
      // The book cannot promise all-or-nothing for a budget that whole lots rarely spend exactly.
      if (command.timeInForce === 'FOK') return 'invalid_time_in_force';
    }
    if (this.orders.has(command.orderId)) return 'duplicate_order_id';
    // By quote amount, quantityLots is only the server's cap; the amount limits apply to base sizes.
    if (command.quoteAmount === null) {
      const sizeReason = this.checkSize(command.quantityLots);
      if (sizeReason !== null) return sizeReason;
    }
    const reference = command.referencePriceTicks;
    for (const price of [command.priceTicks, command.stopPriceTicks, command.stopLimitPriceTicks]) {
      if (price !== null && !this.inBand(price, reference)) return 'price_outside_band';
    }
    return this.checkTriggerSide(command.type, command.side, command.priceTicks, command.stopPriceTicks, reference);
  }

  private checkSize(quantityLots: number): MarketRejectReason | null {
    if (quantityLots < this.rules.minQuantityLots) return 'quantity_below_minimum';
    if (quantityLots > this.rules.maxQuantityLots) return 'quantity_above_maximum';
    return null;
  }

  /**
   * A stop must not hold already, and an oco's legs must lie either side of the market. The market is
   * the last trade price, or the reference price while the book has never traded.
   */
  private checkTriggerSide(
    type: MarketOrderType,
    side: Side,
    priceTicks: number | null,
    stopPriceTicks: number | null,
    referencePriceTicks: number | null,
  ): MarketRejectReason | null {
    if (!ORDER_SHAPES[type].waits || stopPriceTicks === null) return null;
    const marketPrice = this.book.lastTradePrice() ?? referencePriceTicks;
    if (type === 'oco') return checkOcoLegs(side, priceTicks!, stopPriceTicks, marketPrice);
    if (marketPrice !== null && triggerHolds(type, side, stopPriceTicks, marketPrice)) {
      return 'stop_would_trigger_immediately';
    }
    return null;
  }

  private planModification(order: EngineOrder, command: ModifyOrderCommand): ModificationPlan | MarketRejectReason {
    const waiting = order.state === 'waiting_trigger';
    const currentPrice = workingPrice(order);
    if (command.priceTicks !== null && currentPrice === null) return 'invalid_price';
    // Only a waiting order still has a stop to move.
    if (command.stopPriceTicks !== null && command.stopPriceTicks !== order.stopPriceTicks && !waiting) {
      return 'invalid_stop_price';
    }
    const quantityLots = command.quantityLots ?? order.quantityLots;
    const priceTicks = command.priceTicks ?? currentPrice;
    const stopPriceTicks = command.stopPriceTicks ?? order.stopPriceTicks;
    const quantityChanged = quantityLots !== order.quantityLots;
    const priceChanged = priceTicks !== currentPrice;
    const stopChanged = stopPriceTicks !== order.stopPriceTicks;
    if (!quantityChanged && !priceChanged && !stopChanged) return 'invalid_modification';
    const reference = command.referencePriceTicks;
    if (quantityChanged) {
      if (!isPositiveUnits(quantityLots)) return 'invalid_quantity';
      if (quantityLots <= order.filledLots) return 'invalid_modification';
      const sizeReason = order.quoteAmount === null ? this.checkSize(quantityLots) : null;
      if (sizeReason !== null) return sizeReason;
    }
    // Unchanged prices are not checked against today's band: reducing a far-away order must stay possible.
    if (priceChanged) {
      if (priceTicks === null || !isPositiveUnits(priceTicks)) return 'invalid_price';
      if (!this.inBand(priceTicks, reference)) return 'price_outside_band';
    }
    if (stopChanged) {
      if (stopPriceTicks === null || !isPositiveUnits(stopPriceTicks)) return 'invalid_stop_price';
      if (!this.inBand(stopPriceTicks, reference)) return 'price_outside_band';
    }
    if (waiting && (stopChanged || (order.type === 'oco' && priceChanged))) {
      const reason = this.checkTriggerSide(order.type, order.side, priceTicks, stopPriceTicks, reference);
      if (reason !== null) return reason;
    }
    const keepPriority = quantityChanged && quantityLots < order.quantityLots && !priceChanged && !stopChanged;
    // Placed again, a post-only order must still not take; the book would reject it after the cancel.
    if (!keepPriority && order.postOnly && priceTicks !== null && this.wouldCross(order.side, priceTicks)) {
      return 'post_only_would_cross';
    }
    return { quantityLots, priceTicks, stopPriceTicks, keepPriority };
  }

  private inBand(priceTicks: number, referencePriceTicks: number | null): boolean {
    return withinPriceBand(priceTicks, referencePriceTicks, this.rules.priceBandBps);
  }

  private wouldCross(side: Side, priceTicks: number): boolean {
    const best = side === 'buy' ? this.book.bestAsk() : this.book.bestBid();
    if (best === null) return false;
    return side === 'buy' ? best <= priceTicks : best >= priceTicks;
  }

  // Changes: only reached once a command is known to be accepted.

  private reduceInPlace(order: EngineOrder, quantityLots: number, context: CommandContext): void {
    const remainingLots = quantityLots - order.filledLots;
    if (inBook(order)) {
      const result = this.book.reduce(order.orderId, remainingLots);
      assert(result.status === 'reduced', `reduce of ${order.orderId} failed`);
    }
    order.quantityLots = quantityLots;
    order.remainingLots = remainingLots;
    context.events.push(modified(order, true));
  }

  /** Cancels the order and places it again under the same id, with a new place in time. */
  private replace(order: EngineOrder, plan: ModificationPlan, context: CommandContext): void {
    const waiting = order.state === 'waiting_trigger';
    if (inBook(order)) this.removeFromBook(order);
    // The modify's price is the one the order works at: a triggered oco rests at its stop-limit price.
    if (restsAtStopLimit(order)) order.stopLimitPriceTicks = plan.priceTicks;
    else order.priceTicks = plan.priceTicks;
    order.quantityLots = plan.quantityLots;
    order.remainingLots = plan.quantityLots - order.filledLots;
    order.stopPriceTicks = plan.stopPriceTicks;
    order.sequence = context.sequence;
    order.timestampMs = context.timestampMs;
    context.events.push(modified(order, false));
    if (waiting) {
      // The newest sequence goes last, so the waiting list stays in sequence order.
      this.waiting.splice(this.waiting.indexOf(order.orderId), 1);
      this.waiting.push(order.orderId);
      if (order.type === 'oco') this.placeLimitLeg(order, context);
      return;
    }
    const result = this.book.place(this.bookCommand(order, workingPrice(order), 'GTC', context));
    assert(result.status === 'accepted', `re-placing ${order.orderId} was rejected`);
    this.absorb(order, result, context);
  }

  private placeLimitLeg(order: EngineOrder, context: CommandContext): void {
    order.limitLegResting = true;
    const result = this.book.place(this.bookCommand(order, order.priceTicks, 'GTC', context));
    assert(result.status === 'accepted', `the limit leg of ${order.orderId} was rejected`);
    this.absorb(order, result, context);
  }

  /**
   * Triggers run in rounds: every waiting order whose condition holds at the current last trade price
   * triggers, in sequence order, even if an earlier one has moved the price since (the price did reach
   * its stop). Then the new last price is checked again, until a round finds nothing: each round
   * removes at least one order from the waiting list, so this ends.
   */
  private runTriggers(context: CommandContext): void {
    for (;;) {
      const lastTradePriceTicks = this.book.lastTradePrice();
      if (lastTradePriceTicks === null) return;
      const due = this.waiting.filter((orderId) => {
        const order = this.orders.get(orderId)!;
        return triggerHolds(order.type, order.side, order.stopPriceTicks!, lastTradePriceTicks);
      });
      if (due.length === 0) return;
      for (const orderId of due) {
        const order = this.orders.get(orderId);
        // An earlier trigger in this round may have filled or ended it.
        if (order === undefined || order.state !== 'waiting_trigger') continue;
        this.trigger(order, lastTradePriceTicks, context);
      }
    }
  }

  private trigger(order: EngineOrder, lastTradePriceTicks: number, context: CommandContext): void {
    this.unwait(order);
    context.events.push({
      type: 'triggered',
      orderId: order.orderId,
      accountId: order.accountId,
      lastTradePriceTicks,
    });
    if (order.type === 'oco') {
      this.removeFromBook(order);
      order.limitLegResting = false;
    }
    // A triggered order takes its place in time from the command that triggered it.
    order.sequence = context.sequence;
    order.timestampMs = context.timestampMs;
    const limitPriceTicks = triggeredLimitPrice(order);
    const result = this.book.place(
      // A stop that becomes a market order is protected by the band around its own stop price, not
      // around whatever reference the triggering command carried: the server holds a buy's funds
      // up to exactly that edge, so the order can never spend more than it holds.
      this.bookCommand(order, limitPriceTicks, limitPriceTicks === null ? 'IOC' : 'GTC', {
        ...context,
        referencePriceTicks: order.stopPriceTicks,
      }),
    );
    assert(result.status === 'accepted', `triggered order ${order.orderId} was rejected`);
    this.absorb(order, result, context);
  }

  /** The book command for an order's open lots: a limit at priceTicks, or a market order when it is null. */
  private bookCommand(
    order: EngineOrder,
    priceTicks: number | null,
    timeInForce: TimeInForce,
    context: CommandContext,
  ): PlaceCommand {
    const isMarket = priceTicks === null;
    const command: PlaceCommand = {
      orderId: order.orderId,
      accountId: order.accountId,
      side: order.side,
      type: isMarket ? 'market' : 'limit',
      priceTicks: isMarket ? this.protectionPrice(order.side, context.referencePriceTicks) : priceTicks,
      quantityLots: order.remainingLots,
      selfTradePrevention: order.selfTradePrevention ?? this.rules.selfTradePrevention,
      timeInForce,
      postOnly: order.postOnly,
      timestampMs: context.timestampMs,
      sequence: context.sequence,
    };
    if (isMarket && order.quoteAmount !== null) command.quoteBudget = order.quoteAmount;
    return command;
  }

  /** The band edge on the order's worse side, rounded inward to a whole tick; 0 (none) without a reference. */
  private protectionPrice(side: Side, referencePriceTicks: number | null): number {
    if (referencePriceTicks === null) return 0;
    const reference = BigInt(referencePriceTicks);
    const band = BigInt(this.rules.priceBandBps);
    if (side === 'buy') {
      const edge = (reference * (BPS_PER_UNIT + band)) / BPS_PER_UNIT;
      return edge > BigInt(MAX_UNITS) ? MAX_UNITS : Number(edge);
    }
    const scaled = reference * (BPS_PER_UNIT - band);
    // A band of 100 % or more leaves no lower edge.
    if (scaled <= 0n) return 0;
    return Number((scaled + BPS_PER_UNIT - 1n) / BPS_PER_UNIT);
  }

  /**
   * Turns what the book did for a taker into events and tracked state: trades and self-trade
   * cancellations in the order the book met them, then where the taker ends up.
   */
  private absorb(taker: EngineOrder, result: PlaceResult & { status: 'accepted' }, context: CommandContext): void {
    let takerRemainingLots = taker.remainingLots;
    for (const met of this.inMetOrder(taker.side, result.fills, result.cancelledMakers)) {
      if ('cancelledLots' in met) {
        this.endSelfTradedMaker(met, context);
        continue;
      }
      takerRemainingLots -= met.quantityLots;
      this.recordTrade(met, takerRemainingLots, context);
    }
    taker.filledLots += result.filledLots;
    taker.remainingLots -= result.filledLots;
    assert(taker.remainingLots === takerRemainingLots, `fills of ${taker.orderId} do not add up`);
    // Any trade of an oco's limit leg ends its stop leg; the order goes on as a plain limit.
    if (result.filledLots > 0 && taker.state === 'waiting_trigger') this.unwait(taker);
    if (result.restingLots > 0) {
      assert(result.restingLots === taker.remainingLots, `resting lots of ${taker.orderId} do not add up`);
      if (taker.state !== 'waiting_trigger') taker.state = 'resting';
      this.orders.set(taker.orderId, taker);
      context.events.push({
        type: 'rested',
        orderId: taker.orderId,
        accountId: taker.accountId,
        priceTicks: workingPrice(taker)!,
        remainingLots: taker.remainingLots,
      });
      return;
    }
    this.forget(taker);
    if (result.cancelledLots > 0) {
      assert(result.cancelledLots === taker.remainingLots, `cancelled lots of ${taker.orderId} do not add up`);
      context.events.push(ended(taker, endReason(result.remainderCancelReason), result.cancelledLots));
      return;
    }
    assert(taker.remainingLots === 0, `${taker.orderId} neither rests, ends nor fills`);
    context.events.push({ type: 'filled', orderId: taker.orderId, accountId: taker.accountId });
  }

  private recordTrade(fill: Fill, takerRemainingLots: number, context: CommandContext): void {
    const maker = this.orders.get(fill.makerOrderId);
    assert(maker !== undefined, `maker ${fill.makerOrderId} is not tracked`);
    maker.filledLots += fill.quantityLots;
    maker.remainingLots -= fill.quantityLots;
    assert(maker.remainingLots >= 0, `maker ${maker.orderId} overfilled`);
    if (maker.state === 'waiting_trigger') {
      this.unwait(maker);
      maker.state = 'resting';
    }
    context.events.push({
      type: 'trade',
      tradeId: `${context.sequence}:${context.tradeCount++}`,
      makerOrderId: fill.makerOrderId,
      makerAccountId: fill.makerAccountId,
      takerOrderId: fill.takerOrderId,
      takerAccountId: fill.takerAccountId,
      takerSide: fill.takerSide,
      priceTicks: fill.priceTicks,
      quantityLots: fill.quantityLots,
      makerRemainingLots: maker.remainingLots,
      takerRemainingLots,
    });
    if (maker.remainingLots === 0) {
      this.forget(maker);
      context.events.push({ type: 'filled', orderId: maker.orderId, accountId: maker.accountId });
    }
  }

  private endSelfTradedMaker(cancelled: CancelledMaker, context: CommandContext): void {
    const maker = this.orders.get(cancelled.orderId);
    assert(maker !== undefined, `maker ${cancelled.orderId} is not tracked`);
    assert(maker.remainingLots === cancelled.cancelledLots, `maker ${maker.orderId} cancelled lots do not add up`);
    this.forget(maker);
    context.events.push(ended(maker, 'self_trade_prevented', cancelled.cancelledLots));
  }

  /**
   * The book reports fills and self-trade cancellations as two lists, each in the order met. Makers
   * are met in price-time order, so the two merge back by (price, sequence). Two makers at one price
   * with one sequence (both triggered by the same command) merge fills first, which is still
   * deterministic.
   */
  private inMetOrder(takerSide: Side, fills: Fill[], cancelled: CancelledMaker[]): (Fill | CancelledMaker)[] {
    if (cancelled.length === 0) return fills;
    if (fills.length === 0) return cancelled;
    const rank = (orderId: string, priceTicks: number): [number, number] => [
      takerSide === 'buy' ? priceTicks : -priceTicks,
      this.orders.get(orderId)?.sequence ?? 0,
    ];
    const merged: (Fill | CancelledMaker)[] = [];
    let fillIndex = 0;
    let cancelIndex = 0;
    while (fillIndex < fills.length && cancelIndex < cancelled.length) {
      const fill = fills[fillIndex]!;
      const cancel = cancelled[cancelIndex]!;
      const [fillPrice, fillSequence] = rank(fill.makerOrderId, fill.priceTicks);
      const [cancelPrice, cancelSequence] = rank(cancel.orderId, cancel.priceTicks);
      const fillFirst = fillPrice < cancelPrice || (fillPrice === cancelPrice && fillSequence <= cancelSequence);
      if (fillFirst) {
        merged.push(fill);
        fillIndex++;
      } else {
        merged.push(cancel);
        cancelIndex++;
      }
    }
    return [...merged, ...fills.slice(fillIndex), ...cancelled.slice(cancelIndex)];
  }

  // Bookkeeping.

  private ownedOrder(orderId: string, accountId: string): EngineOrder | null {
    const order = this.orders.get(orderId);
    // Another account's order is answered as unknown, so that ids leak nothing.
    return order !== undefined && order.accountId === accountId ? order : null;
  }

  private removeFromBook(order: EngineOrder): void {
    const result = this.book.cancel(order.orderId);
    assert(
      result.status === 'cancelled' && result.cancelledLots === order.remainingLots,
      `book and engine disagree on ${order.orderId}`,
    );
  }

  private unwait(order: EngineOrder): void {
    const index = this.waiting.indexOf(order.orderId);
    assert(index >= 0, `${order.orderId} is not waiting`);
    this.waiting.splice(index, 1);
    order.state = 'resting';
  }

  private forget(order: EngineOrder): void {
    if (order.state === 'waiting_trigger') this.unwait(order);
    this.orders.delete(order.orderId);
  }
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`MarketEngine: ${message}`);
}

function assertRules(rules: MarketRules): void {
  assert(
    isPositiveUnits(rules.minQuantityLots) &&
      isPositiveUnits(rules.maxQuantityLots) &&
      rules.minQuantityLots <= rules.maxQuantityLots,
    'quantity limits must be positive lots with min <= max',
  );
  assert(Number.isSafeInteger(rules.priceBandBps) && rules.priceBandBps >= 0, 'priceBandBps must be >= 0');
}

function assertSnapshotConsistent(snapshot: MarketSnapshot): void {
  assert(snapshot.version === 1, `unknown snapshot version ${snapshot.version}`);
  assert(Number.isSafeInteger(snapshot.lastSequence) && snapshot.lastSequence >= 0, 'invalid lastSequence');
  const orders = new Map(snapshot.orders.map((order) => [order.orderId, order]));
  assert(orders.size === snapshot.orders.length, 'duplicate order ids in snapshot');
  const waiting = new Set(snapshot.waitingOrderIds);
  assert(waiting.size === snapshot.waitingOrderIds.length, 'duplicate waiting ids in snapshot');
  for (const order of snapshot.orders) {
    assert(order.quantityLots === order.filledLots + order.remainingLots, `${order.orderId} lots do not add up`);
    assert((order.state === 'waiting_trigger') === waiting.has(order.orderId), `${order.orderId} waiting mismatch`);
  }
  const inBookCount = snapshot.orders.filter(inBook).length;
  const resting = [...snapshot.book.bids, ...snapshot.book.asks];
  assert(resting.length === inBookCount, 'book and engine orders differ');
  for (const bookOrder of resting) {
    const order = orders.get(bookOrder.orderId);
    assert(order !== undefined && inBook(order), `book order ${bookOrder.orderId} is not tracked`);
    assert(order.remainingLots === bookOrder.remainingLots, `${bookOrder.orderId} remaining lots differ`);
  }
}

function newContext(command: MarketCommand): CommandContext {
  return {
    sequence: command.sequence,
    timestampMs: command.timestampMs,
    referencePriceTicks: command.kind === 'cancel' ? null : command.referencePriceTicks,
    events: [],
    tradeCount: 0,
  };
}

function newOrder(command: PlaceOrderCommand): EngineOrder {
  return {
    orderId: command.orderId,
    accountId: command.accountId,
    side: command.side,
    type: command.type,
    quantityLots: command.quantityLots,
    filledLots: 0,
    remainingLots: command.quantityLots,
    quoteAmount: command.quoteAmount,
    priceTicks: command.priceTicks,
    stopPriceTicks: command.stopPriceTicks,
    stopLimitPriceTicks: command.stopLimitPriceTicks,
    timeInForce: command.timeInForce,
    postOnly: command.postOnly,
    selfTradePrevention: command.selfTradePrevention,
    state: ORDER_SHAPES[command.type].waits ? 'waiting_trigger' : 'resting',
    limitLegResting: false,
    sequence: command.sequence,
    timestampMs: command.timestampMs,
  };
}

function checkPriceFields(command: PlaceOrderCommand, orderShape: OrderShape): MarketRejectReason | null {
  if (!fieldAllowed(command.priceTicks, orderShape.priceTicks)) return 'invalid_price';
  if (!fieldAllowed(command.stopPriceTicks, orderShape.stopPriceTicks)) return 'invalid_stop_price';
  if (!fieldAllowed(command.stopLimitPriceTicks, orderShape.stopLimitPriceTicks)) return 'invalid_price';
  return null;
}

function fieldAllowed(value: number | null, rule: FieldRule): boolean {
  if (value === null) return rule !== 'required';
  return rule !== 'forbidden' && isPositiveUnits(value);
}

function checkTimeInForce(command: PlaceOrderCommand, orderShape: OrderShape): MarketRejectReason | null {
  // Post-only only makes sense for an order that rests at once, which is a plain limit order.
  if (command.postOnly && command.type !== 'limit') return 'invalid_order_type';
  if (!orderShape.timesInForce.includes(command.timeInForce)) return 'invalid_time_in_force';
  if (command.postOnly && command.timeInForce !== 'GTC') return 'invalid_time_in_force';
  return null;
}

/** A sell oco sits above the market with its limit and below it with its stop; a buy the other way round. */
function checkOcoLegs(
  side: Side,
  priceTicks: number,
  stopPriceTicks: number,
  marketPrice: number | null,
): MarketRejectReason | null {
  const above = (a: number, b: number): boolean => (side === 'sell' ? a > b : a < b);
  if (marketPrice !== null) {
    if (!above(priceTicks, marketPrice)) return 'invalid_price';
    if (!above(marketPrice, stopPriceTicks)) return 'invalid_stop_price';
  }
  if (!above(priceTicks, stopPriceTicks)) return 'invalid_stop_price';
  return null;
}

/** Stops (and an oco's stop leg) trigger on the move against the position; take-profits on the favourable one. */
function triggerHolds(type: MarketOrderType, side: Side, stopPriceTicks: number, lastTradePriceTicks: number): boolean {
  return stopTriggered(
    type === 'take_profit' || type === 'take_profit_limit',
    side,
    stopPriceTicks,
    lastTradePriceTicks,
  );
}

/** The limit price a triggered order trades at, or null for a market order. */
function triggeredLimitPrice(order: EngineOrder): number | null {
  if (order.type === 'stop_limit' || order.type === 'take_profit_limit') return order.priceTicks;
  if (order.type === 'oco') return order.stopLimitPriceTicks;
  return null;
}

/** The price an order rests (or would rest) at: a triggered oco rests at its stop-limit price. */
function workingPrice(order: EngineOrder): number | null {
  return restsAtStopLimit(order) ? order.stopLimitPriceTicks : order.priceTicks;
}

function restsAtStopLimit(order: EngineOrder): boolean {
  return order.type === 'oco' && !order.limitLegResting && order.state === 'resting';
}

/** Whether part of the order sits in the book: a resting order, or an untriggered oco's limit leg. */
function inBook(order: EngineOrder): boolean {
  return order.state === 'resting' || order.limitLegResting;
}

function endReason(reason: RemainderCancelReason | null): OrderEndReason {
  return reason === 'self_trade_prevented' ? 'self_trade_prevented' : 'expired';
}

function ended(order: EngineOrder, reason: OrderEndReason, unfilledLots: number): MarketEvent {
  return { type: 'ended', orderId: order.orderId, accountId: order.accountId, reason, unfilledLots };
}

function modified(order: EngineOrder, keptPriority: boolean): MarketEvent {
  return {
    type: 'modified',
    orderId: order.orderId,
    accountId: order.accountId,
    quantityLots: order.quantityLots,
    priceTicks: workingPrice(order),
    stopPriceTicks: order.stopPriceTicks,
    keptPriority,
  };
}

function rejected(sequence: number, reason: MarketRejectReason): MarketCommandResult {
  return { status: 'rejected', sequence, reason, events: [] };
}

function compareOrders(a: EngineOrder, b: EngineOrder): number {
  if (a.sequence !== b.sequence) return a.sequence - b.sequence;
  if (a.orderId === b.orderId) return 0;
  return a.orderId < b.orderId ? -1 : 1;
}

function lengthPrefixed(text: string): string {
  return `${text.length}:${text}`;
}

function serialiseEngineOrder(order: EngineOrder): string {
  const optional = (value: number | bigint | string | null): string => (value === null ? '-' : String(value));
  return [
    lengthPrefixed(order.orderId),
    lengthPrefixed(order.accountId),
    order.side,
    order.type,
    order.quantityLots,
    order.filledLots,
    order.remainingLots,
    optional(order.quoteAmount),
    optional(order.priceTicks),
    optional(order.stopPriceTicks),
    optional(order.stopLimitPriceTicks),
    order.timeInForce,
    order.postOnly,
    optional(order.selfTradePrevention),
    order.state,
    order.limitLegResting,
    order.sequence,
    order.timestampMs,
  ].join(',');
}
