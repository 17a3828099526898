import type { OrderBook } from './order-book.ts';
import { placeCommandProblem } from './place-command.ts';
import type { OrderBookOptions } from './reference-order-book.ts';
import { snapshotHash } from './state-hash.ts';
import type {
  BookDepth,
  BookSnapshot,
  CancelledMaker,
  CancelResult,
  DepthLevel,
  Fill,
  PlaceCommand,
  PlaceResult,
  ReduceResult,
  RejectReason,
  RemainderCancelReason,
  RestingOrder,
  SelfTradePreventionMode,
  Side,
} from './types.ts';

const DEFAULT_OPTIONS: OrderBookOptions = { selfTradePrevention: 'cancel_newest' };

/**
 * Freed order nodes and price levels are kept for reuse so that a busy book allocates almost nothing
 * once it has warmed up. The pools are bounded so that a book that once held many orders does not keep
 * their memory for ever; beyond this many, freed objects are left to the garbage collector.
 */
const MAX_POOLED_NODES = 65_536;
const MAX_POOLED_LEVELS = 4_096;

/** A resting order, linked into the queue of its price level. */
class OrderNode {
  orderId = '';
  accountId = '';
  side: Side = 'buy';
  priceTicks = 0;
  remainingLots = 0;
  originalLots = 0;
  timestampMs = 0;
  sequence = 0;
  previous: OrderNode | null = null;
  next: OrderNode | null = null;
  level: PriceLevel | null = null;
}

/** The orders resting at one price, oldest first, with running totals for depth. */
class PriceLevel {
  priceTicks = 0;
  head: OrderNode | null = null;
  tail: OrderNode | null = null;
  totalLots = 0;
  orderCount = 0;
}

/**
 * One side of the book. Levels are kept in an array sorted from the worst price to the best, so the best
 * level is the last element: taking it away when it empties is a pop, and new orders, which mostly
 * arrive near the best price, are inserted near the end where a splice moves little. `keys` holds one
 * number per level that sorts ascending towards the best (the price for bids, its negation for asks),
 * so one binary search serves both sides without touching the level objects.
 */
class BookSide {
  readonly keys: number[] = [];
  readonly levels: PriceLevel[] = [];

  constructor(
    readonly side: Side,
    /** +1 for bids, -1 for asks: key = price * sign. */
    readonly sign: number,
  ) {}

  best(): PriceLevel | null {
    const count = this.levels.length;
    return count === 0 ? null : this.levels[count - 1]!;
  }

  /** The index of the first level whose key is not below key (the insertion point). */
  lowerBound(key: number): number {
    const keys = this.keys;
    let low = 0;
    let high = keys.length;
    // Most new orders land close to the best price, at the end of the array: check there first.
    if (high > 0 && keys[high - 1]! < key) return high;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (keys[middle]! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  clear(): void {
    this.keys.length = 0;
    this.levels.length = 0;
  }
}

/**
 * The fast order book: intrusive doubly linked queues per price level, a map from order id to node for
 * O(1) cancel and reduce, and sorted level arrays for the best price. It must behave exactly like
 * ReferenceOrderBook, which the shared suites and a differential property test check after every step.
 */
export class FastOrderBook implements OrderBook {
  readonly options: OrderBookOptions;
  private readonly bids = new BookSide('buy', 1);
  private readonly asks = new BookSide('sell', -1);
  private readonly nodes = new Map<string, OrderNode>();
  private lastTradePriceTicks: number | null = null;
  private readonly freeNodes: OrderNode[] = [];
  private readonly freeLevels: PriceLevel[] = [];

  constructor(options: Partial<OrderBookOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  place(command: PlaceCommand): PlaceResult {
    const reason = this.validate(command);
    if (reason !== null) return rejected(command.orderId, reason);

    const limitPrice = limitPriceOf(command);
    const makers = command.side === 'buy' ? this.asks : this.bids;
    if (command.postOnly && this.wouldCross(makers, command.side, limitPrice)) {
      return rejected(command.orderId, 'post_only_would_cross');
    }
    if (command.timeInForce === 'FOK' && this.fillableLots(makers, command, limitPrice) < command.quantityLots) {
      return rejected(command.orderId, 'fok_not_fillable');
    }
    if (command.quoteBudget !== undefined)
      return this.matchWithBudget(makers, command, limitPrice, command.quoteBudget);
    return this.match(makers, command, limitPrice);
  }

  cancel(orderId: string): CancelResult {
    const node = this.nodes.get(orderId);
    if (node === undefined) return { status: 'rejected', orderId, reason: 'unknown_order' };
    const cancelledLots = node.remainingLots;
    this.removeNode(node);
    return { status: 'cancelled', orderId, cancelledLots };
  }

  reduce(orderId: string, newRemainingLots: number): ReduceResult {
    const node = this.nodes.get(orderId);
    if (node === undefined) return { status: 'rejected', orderId, reason: 'unknown_order' };
    // Raising the quantity or reducing to zero is not a reduction: the first must lose priority
    // (a modify), the second is a cancel.
    if (newRemainingLots <= 0 || newRemainingLots > node.remainingLots) {
      return { status: 'rejected', orderId, reason: 'invalid_quantity' };
    }
    const cancelledLots = node.remainingLots - newRemainingLots;
    node.remainingLots = newRemainingLots;
    node.level!.totalLots -= cancelledLots;
    return { status: 'reduced', orderId, restingLots: newRemainingLots, cancelledLots };
  }

  bestBid(): number | null {
    return this.bids.best()?.priceTicks ?? null;
  }

  bestAsk(): number | null {
    return this.asks.best()?.priceTicks ?? null;
  }

  lastTradePrice(): number | null {
    return this.lastTradePriceTicks;
  }

  depth(levels: number): BookDepth {
    return { bids: depthOf(this.bids, levels), asks: depthOf(this.asks, levels) };
  }

  order(orderId: string): RestingOrder | null {
    const node = this.nodes.get(orderId);
    return node === undefined ? null : restingOrderOf(node);
  }

  orders(side: Side): RestingOrder[] {
    return ordersOf(side === 'buy' ? this.bids : this.asks);
  }

  snapshot(): BookSnapshot {
    return {
      version: 1,
      bids: ordersOf(this.bids),
      asks: ordersOf(this.asks),
      lastTradePriceTicks: this.lastTradePriceTicks,
    };
  }

  restore(snapshot: BookSnapshot): void {
    this.nodes.clear();
    this.bids.clear();
    this.asks.clear();
    // A snapshot lists each side best first and in arrival order within a price, so appending in that
    // order rebuilds every queue as it was.
    for (const order of snapshot.bids) this.restoreOrder(this.bids, order);
    for (const order of snapshot.asks) this.restoreOrder(this.asks, order);
    this.lastTradePriceTicks = snapshot.lastTradePriceTicks;
  }

  stateHash(): string {
    return snapshotHash(this.snapshot());
  }

  private validate(command: PlaceCommand): RejectReason | null {
    const problem = placeCommandProblem(command);
    if (problem !== null) return problem;
    if (this.nodes.has(command.orderId)) return 'duplicate_order_id';
    return null;
  }

  private wouldCross(makers: BookSide, side: Side, limitPrice: number): boolean {
    const best = makers.best();
    return best !== null && priceAcceptable(side, limitPrice, best.priceTicks);
  }

  /**
   * What a taker could fill right now: stops at its price limit, and at the first own resting order
   * unless self-trade prevention would cancel that order and go on.
   */
  private fillableLots(makers: BookSide, command: PlaceCommand, limitPrice: number): number {
    const skipOwnOrders = this.modeFor(command) === 'cancel_oldest';
    const levels = makers.levels;
    let fillable = 0;
    for (let index = levels.length - 1; index >= 0; index--) {
      const level = levels[index]!;
      if (!priceAcceptable(command.side, limitPrice, level.priceTicks)) break;
      for (let node = level.head; node !== null; node = node.next) {
        if (node.accountId === command.accountId) {
          if (skipOwnOrders) continue;
          return fillable;
        }
        fillable += node.remainingLots;
        if (fillable >= command.quantityLots) return fillable;
      }
    }
    return fillable;
  }

  private modeFor(command: PlaceCommand): SelfTradePreventionMode {
    return command.selfTradePrevention ?? this.options.selfTradePrevention;
  }

  /**
   * The hot path: a taker without a quote budget. Kept apart from the budget variant so that no bigint
   * arithmetic or budget branch runs for ordinary orders.
   */
  private match(makers: BookSide, command: PlaceCommand, limitPrice: number): PlaceResult {
    const fills: Fill[] = [];
    const cancelledMakers: CancelledMaker[] = [];
    const takerSide = command.side;
    const takerAccountId = command.accountId;
    let remaining = command.quantityLots;
    let selfTradePrevented = false;

    while (remaining > 0) {
      const level = makers.best();
      if (level === null || !priceAcceptable(takerSide, limitPrice, level.priceTicks)) break;
      const maker = level.head!;
      if (maker.accountId === takerAccountId) {
        if (this.preventSelfTrade(command, maker, cancelledMakers)) continue;
        selfTradePrevented = true;
        break;
      }
      const quantityLots = remaining < maker.remainingLots ? remaining : maker.remainingLots;
      fills.push(fillOf(command, maker, quantityLots));
      remaining -= quantityLots;
      this.lastTradePriceTicks = level.priceTicks;
      this.consume(maker, quantityLots);
    }
    return this.finish(command, fills, cancelledMakers, remaining, selfTradePrevented);
  }

  /** The same loop as match, for a market order limited by how much quote it may spend or receive. */
  private matchWithBudget(
    makers: BookSide,
    command: PlaceCommand,
    limitPrice: number,
    quoteBudget: bigint,
  ): PlaceResult {
    const fills: Fill[] = [];
    const cancelledMakers: CancelledMaker[] = [];
    let remaining = command.quantityLots;
    let budget = quoteBudget;
    let selfTradePrevented = false;

    while (remaining > 0) {
      const level = makers.best();
      if (level === null || !priceAcceptable(command.side, limitPrice, level.priceTicks)) break;
      const maker = level.head!;
      if (maker.accountId === command.accountId) {
        if (this.preventSelfTrade(command, maker, cancelledMakers)) continue;
        selfTradePrevented = true;
        break;
      }
      let quantityLots = remaining < maker.remainingLots ? remaining : maker.remainingLots;
      const priceTicks = BigInt(level.priceTicks);
      const affordable = budget / priceTicks;
      if (affordable < BigInt(quantityLots)) quantityLots = Number(affordable);
      // The budget cannot buy one more lot here: the rest is a market remainder.
      if (quantityLots === 0) break;
      budget -= BigInt(quantityLots) * priceTicks;
      fills.push(fillOf(command, maker, quantityLots));
      remaining -= quantityLots;
      this.lastTradePriceTicks = level.priceTicks;
      this.consume(maker, quantityLots);
    }
    return this.finish(command, fills, cancelledMakers, remaining, selfTradePrevented);
  }

  /**
   * The taker met a resting order of its own account. Cancels that maker when the mode says so, and
   * returns true when matching may go on (cancel_oldest).
   */
  private preventSelfTrade(command: PlaceCommand, maker: OrderNode, cancelledMakers: CancelledMaker[]): boolean {
    const mode = this.modeFor(command);
    if (mode === 'cancel_newest') return false;
    cancelledMakers.push({
      orderId: maker.orderId,
      accountId: maker.accountId,
      side: maker.side,
      priceTicks: maker.priceTicks,
      cancelledLots: maker.remainingLots,
    });
    this.removeNode(maker);
    return mode === 'cancel_oldest';
  }

  private finish(
    command: PlaceCommand,
    fills: Fill[],
    cancelledMakers: CancelledMaker[],
    remaining: number,
    selfTradePrevented: boolean,
  ): PlaceResult {
    const cancelReason = remainderCancelReason(command, remaining, selfTradePrevented);
    if (remaining > 0 && cancelReason === null) this.rest(command, remaining);
    return {
      status: 'accepted',
      orderId: command.orderId,
      fills,
      cancelledMakers,
      filledLots: command.quantityLots - remaining,
      restingLots: cancelReason === null ? remaining : 0,
      cancelledLots: cancelReason === null ? 0 : remaining,
      remainderCancelReason: cancelReason,
    };
  }

  /** Takes quantityLots from the maker at the head of the best level; a filled maker leaves the book. */
  private consume(maker: OrderNode, quantityLots: number): void {
    const level = maker.level!;
    if (quantityLots < maker.remainingLots) {
      maker.remainingLots -= quantityLots;
      level.totalLots -= quantityLots;
      return;
    }
    this.removeNode(maker);
  }

  private rest(command: PlaceCommand, remainingLots: number): void {
    const node = this.allocateNode();
    node.orderId = command.orderId;
    node.accountId = command.accountId;
    node.side = command.side;
    node.priceTicks = command.priceTicks;
    node.remainingLots = remainingLots;
    node.originalLots = command.quantityLots;
    node.timestampMs = command.timestampMs;
    node.sequence = command.sequence;
    this.append(command.side === 'buy' ? this.bids : this.asks, node);
  }

  private restoreOrder(bookSide: BookSide, order: RestingOrder): void {
    const node = this.allocateNode();
    node.orderId = order.orderId;
    node.accountId = order.accountId;
    node.side = order.side;
    node.priceTicks = order.priceTicks;
    node.remainingLots = order.remainingLots;
    node.originalLots = order.originalLots;
    node.timestampMs = order.timestampMs;
    node.sequence = order.sequence;
    this.append(bookSide, node);
  }

  /** Puts the node at the back of its price level, behind every order at the same or a better price. */
  private append(bookSide: BookSide, node: OrderNode): void {
    const level = this.levelFor(bookSide, node.priceTicks);
    const tail = level.tail;
    node.previous = tail;
    node.next = null;
    node.level = level;
    if (tail === null) level.head = node;
    else tail.next = node;
    level.tail = node;
    level.totalLots += node.remainingLots;
    level.orderCount++;
    this.nodes.set(node.orderId, node);
  }

  private levelFor(bookSide: BookSide, priceTicks: number): PriceLevel {
    const key = priceTicks * bookSide.sign;
    const index = bookSide.lowerBound(key);
    const keys = bookSide.keys;
    if (index < keys.length && keys[index] === key) return bookSide.levels[index]!;
    const level = this.freeLevels.pop() ?? new PriceLevel();
    level.priceTicks = priceTicks;
    if (index === keys.length) {
      keys.push(key);
      bookSide.levels.push(level);
    } else {
      keys.splice(index, 0, key);
      bookSide.levels.splice(index, 0, level);
    }
    return level;
  }

  /** Unlinks a resting order, forgets its id and drops its level when it was the last order there. */
  private removeNode(node: OrderNode): void {
    const level = node.level!;
    const previous = node.previous;
    const next = node.next;
    if (previous === null) level.head = next;
    else previous.next = next;
    if (next === null) level.tail = previous;
    else next.previous = previous;
    level.totalLots -= node.remainingLots;
    level.orderCount--;
    this.nodes.delete(node.orderId);
    if (level.orderCount === 0) this.removeLevel(node.side === 'buy' ? this.bids : this.asks, level);
    this.freeNode(node);
  }

  private removeLevel(bookSide: BookSide, level: PriceLevel): void {
    const keys = bookSide.keys;
    const last = keys.length - 1;
    if (bookSide.levels[last] === level) {
      keys.pop();
      bookSide.levels.pop();
    } else {
      const index = bookSide.lowerBound(level.priceTicks * bookSide.sign);
      keys.splice(index, 1);
      bookSide.levels.splice(index, 1);
    }
    level.head = null;
    level.tail = null;
    level.totalLots = 0;
    if (this.freeLevels.length < MAX_POOLED_LEVELS) this.freeLevels.push(level);
  }

  private allocateNode(): OrderNode {
    return this.freeNodes.pop() ?? new OrderNode();
  }

  private freeNode(node: OrderNode): void {
    // Drop the references so that a pooled node keeps no queue, level or strings alive.
    node.orderId = '';
    node.accountId = '';
    node.previous = null;
    node.next = null;
    node.level = null;
    if (this.freeNodes.length < MAX_POOLED_NODES) this.freeNodes.push(node);
  }
}

/** The price a taker may not pass: its limit, a market order's protection price, or 0 for none. */
function limitPriceOf(command: PlaceCommand): number {
  if (command.type === 'limit') return command.priceTicks;
  return command.priceTicks > 0 ? command.priceTicks : 0;
}

/** True when a resting order at makerPrice may trade with a taker on takerSide limited at limitPrice (0: none). */
function priceAcceptable(takerSide: Side, limitPrice: number, makerPrice: number): boolean {
  if (limitPrice === 0) return true;
  return takerSide === 'buy' ? makerPrice <= limitPrice : makerPrice >= limitPrice;
}

function fillOf(command: PlaceCommand, maker: OrderNode, quantityLots: number): Fill {
  return {
    makerOrderId: maker.orderId,
    takerOrderId: command.orderId,
    makerAccountId: maker.accountId,
    takerAccountId: command.accountId,
    takerSide: command.side,
    priceTicks: maker.priceTicks,
    quantityLots,
    sequence: command.sequence,
  };
}

function rejected(orderId: string, reason: RejectReason): PlaceResult {
  return { status: 'rejected', orderId, reason, fills: [], cancelledMakers: [] };
}

function remainderCancelReason(
  command: PlaceCommand,
  remainingLots: number,
  selfTradePrevented: boolean,
): RemainderCancelReason | null {
  if (remainingLots === 0) return null;
  if (selfTradePrevented) return 'self_trade_prevented';
  if (command.type === 'market') return 'market_remainder';
  if (command.timeInForce !== 'GTC') return 'ioc_remainder';
  return null;
}

function restingOrderOf(node: OrderNode): RestingOrder {
  return {
    orderId: node.orderId,
    accountId: node.accountId,
    side: node.side,
    priceTicks: node.priceTicks,
    remainingLots: node.remainingLots,
    originalLots: node.originalLots,
    timestampMs: node.timestampMs,
    sequence: node.sequence,
  };
}

function ordersOf(bookSide: BookSide): RestingOrder[] {
  const result: RestingOrder[] = [];
  const levels = bookSide.levels;
  for (let index = levels.length - 1; index >= 0; index--) {
    for (let node = levels[index]!.head; node !== null; node = node.next) result.push(restingOrderOf(node));
  }
  return result;
}

function depthOf(bookSide: BookSide, count: number): DepthLevel[] {
  const result: DepthLevel[] = [];
  const levels = bookSide.levels;
  // Written as "not at least count" so that an odd count (NaN, a fraction) behaves as in the reference.
  for (let index = levels.length - 1; index >= 0 && !(result.length >= count); index--) {
    const level = levels[index]!;
    result.push({ priceTicks: level.priceTicks, quantityLots: level.totalLots, orderCount: level.orderCount });
  }
  return result;
}
