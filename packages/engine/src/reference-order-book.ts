import type { OrderBook } from './order-book.ts';
import { snapshotHash } from './state-hash.ts';
import type {
  BookDepth,
  BookSnapshot,
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

export interface OrderBookOptions {
  selfTradePrevention: SelfTradePreventionMode;
}

const DEFAULT_OPTIONS: OrderBookOptions = { selfTradePrevention: 'cancel_newest' };

function copyOrder(order: RestingOrder): RestingOrder {
  return { ...order };
}

/** True when a resting order at makerPrice may trade with a taker on takerSide limited at limitPrice. */
function priceAcceptable(takerSide: Side, limitPrice: bigint | null, makerPrice: bigint): boolean {
  if (limitPrice === null) return true;
  return takerSide === 'buy' ? makerPrice <= limitPrice : makerPrice >= limitPrice;
}

/** True when price a is strictly better than price b for a resting order on side. */
function betterPrice(side: Side, a: bigint, b: bigint): boolean {
  return side === 'buy' ? a > b : a < b;
}

/**
 * The reference order book: two plain arrays kept in priority order and scanned linearly. It is slow
 * on purpose, because its job is to be obviously correct so that the fast book can be checked against it.
 */
export class ReferenceOrderBook implements OrderBook {
  private bids: RestingOrder[] = [];
  private asks: RestingOrder[] = [];
  private lastTradePriceTicks: bigint | null = null;
  readonly options: OrderBookOptions;

  constructor(options: Partial<OrderBookOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  place(command: PlaceCommand): PlaceResult {
    const reason = this.validate(command);
    if (reason !== null) return { status: 'rejected', orderId: command.orderId, reason, fills: [] };

    const limitPrice = command.type === 'market' ? null : command.priceTicks;
    if (command.postOnly && this.wouldCross(command.side, limitPrice)) {
      return { status: 'rejected', orderId: command.orderId, reason: 'post_only_would_cross', fills: [] };
    }
    if (command.timeInForce === 'FOK' && this.fillableLots(command, limitPrice) < command.quantityLots) {
      return { status: 'rejected', orderId: command.orderId, reason: 'fok_not_fillable', fills: [] };
    }
    return this.match(command, limitPrice);
  }

  cancel(orderId: string): CancelResult {
    const found = this.locate(orderId);
    if (found === null) return { status: 'rejected', orderId, reason: 'unknown_order' };
    const [removed] = found.queue.splice(found.index, 1);
    return { status: 'cancelled', orderId, cancelledLots: removed!.remainingLots };
  }

  reduce(orderId: string, newRemainingLots: bigint): ReduceResult {
    const found = this.locate(orderId);
    if (found === null) return { status: 'rejected', orderId, reason: 'unknown_order' };
    const order = found.queue[found.index]!;
    // Raising the quantity or reducing to zero is not a reduction: the first must lose priority
    // (a modify), the second is a cancel.
    if (newRemainingLots <= 0n || newRemainingLots > order.remainingLots) {
      return { status: 'rejected', orderId, reason: 'invalid_quantity' };
    }
    const cancelledLots = order.remainingLots - newRemainingLots;
    order.remainingLots = newRemainingLots;
    return { status: 'reduced', orderId, restingLots: newRemainingLots, cancelledLots };
  }

  bestBid(): bigint | null {
    return this.bids[0]?.priceTicks ?? null;
  }

  bestAsk(): bigint | null {
    return this.asks[0]?.priceTicks ?? null;
  }

  lastTradePrice(): bigint | null {
    return this.lastTradePriceTicks;
  }

  depth(levels: number): BookDepth {
    return { bids: aggregate(this.bids, levels), asks: aggregate(this.asks, levels) };
  }

  order(orderId: string): RestingOrder | null {
    const found = this.locate(orderId);
    return found === null ? null : copyOrder(found.queue[found.index]!);
  }

  orders(side: Side): RestingOrder[] {
    return this.queue(side).map(copyOrder);
  }

  snapshot(): BookSnapshot {
    return {
      version: 1,
      bids: this.bids.map(copyOrder),
      asks: this.asks.map(copyOrder),
      lastTradePriceTicks: this.lastTradePriceTicks,
    };
  }

  restore(snapshot: BookSnapshot): void {
    this.bids = snapshot.bids.map(copyOrder);
    this.asks = snapshot.asks.map(copyOrder);
    this.lastTradePriceTicks = snapshot.lastTradePriceTicks;
  }

  stateHash(): string {
    return snapshotHash(this.snapshot());
  }

  private validate(command: PlaceCommand): RejectReason | null {
    if (command.quantityLots <= 0n) return 'invalid_quantity';
    if (command.type === 'limit' && command.priceTicks <= 0n) return 'invalid_price';
    if (command.type === 'market' && command.postOnly) return 'invalid_order_type';
    // A market order never rests, so GTC has no meaning for it; post-only must be able to rest.
    if (command.type === 'market' && command.timeInForce === 'GTC') return 'invalid_time_in_force';
    if (command.postOnly && command.timeInForce !== 'GTC') return 'invalid_time_in_force';
    if (this.locate(command.orderId) !== null) return 'duplicate_order_id';
    return null;
  }

  private wouldCross(side: Side, limitPrice: bigint | null): boolean {
    const best = this.queue(opposite(side))[0];
    return best !== undefined && priceAcceptable(side, limitPrice, best.priceTicks);
  }

  /** What a taker could fill right now: stops at its price limit or at the first own resting order. */
  private fillableLots(command: PlaceCommand, limitPrice: bigint | null): bigint {
    let fillable = 0n;
    for (const maker of this.queue(opposite(command.side))) {
      if (!priceAcceptable(command.side, limitPrice, maker.priceTicks)) break;
      if (maker.accountId === command.accountId) break;
      fillable += maker.remainingLots;
      if (fillable >= command.quantityLots) break;
    }
    return fillable;
  }

  private match(command: PlaceCommand, limitPrice: bigint | null): PlaceResult {
    const makers = this.queue(opposite(command.side));
    const fills: Fill[] = [];
    let remaining = command.quantityLots;
    let selfTradePrevented = false;

    while (remaining > 0n) {
      const maker = makers[0];
      if (maker === undefined || !priceAcceptable(command.side, limitPrice, maker.priceTicks)) break;
      if (maker.accountId === command.accountId) {
        selfTradePrevented = true;
        break;
      }
      const quantityLots = remaining < maker.remainingLots ? remaining : maker.remainingLots;
      fills.push({
        makerOrderId: maker.orderId,
        takerOrderId: command.orderId,
        makerAccountId: maker.accountId,
        takerAccountId: command.accountId,
        takerSide: command.side,
        priceTicks: maker.priceTicks,
        quantityLots,
        sequence: command.sequence,
      });
      remaining -= quantityLots;
      maker.remainingLots -= quantityLots;
      this.lastTradePriceTicks = maker.priceTicks;
      if (maker.remainingLots === 0n) makers.shift();
    }

    const filledLots = command.quantityLots - remaining;
    const cancelReason = remainderCancelReason(command, remaining, selfTradePrevented);
    if (remaining > 0n && cancelReason === null) this.rest(command, remaining);
    return {
      status: 'accepted',
      orderId: command.orderId,
      fills,
      filledLots,
      restingLots: cancelReason === null ? remaining : 0n,
      cancelledLots: cancelReason === null ? 0n : remaining,
      remainderCancelReason: cancelReason,
    };
  }

  private rest(command: PlaceCommand, remainingLots: bigint): void {
    const queue = this.queue(command.side);
    // Behind every order at the same or a better price: that is price-time priority.
    let index = 0;
    while (index < queue.length && !betterPrice(command.side, command.priceTicks, queue[index]!.priceTicks)) index++;
    queue.splice(index, 0, {
      orderId: command.orderId,
      accountId: command.accountId,
      side: command.side,
      priceTicks: command.priceTicks,
      remainingLots,
      originalLots: command.quantityLots,
      timestampMs: command.timestampMs,
      sequence: command.sequence,
    });
  }

  private queue(side: Side): RestingOrder[] {
    return side === 'buy' ? this.bids : this.asks;
  }

  private locate(orderId: string): { queue: RestingOrder[]; index: number } | null {
    for (const queue of [this.bids, this.asks]) {
      const index = queue.findIndex((order) => order.orderId === orderId);
      if (index >= 0) return { queue, index };
    }
    return null;
  }
}

function opposite(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy';
}

function remainderCancelReason(
  command: PlaceCommand,
  remainingLots: bigint,
  selfTradePrevented: boolean,
): RemainderCancelReason | null {
  if (remainingLots === 0n) return null;
  if (selfTradePrevented) return 'self_trade_prevented';
  if (command.type === 'market') return 'market_remainder';
  if (command.timeInForce !== 'GTC') return 'ioc_remainder';
  return null;
}

function aggregate(queue: RestingOrder[], levels: number): DepthLevel[] {
  const result: DepthLevel[] = [];
  for (const order of queue) {
    const last = result[result.length - 1];
    if (last !== undefined && last.priceTicks === order.priceTicks) {
      last.quantityLots += order.remainingLots;
      last.orderCount++;
      continue;
    }
    if (result.length >= levels) break;
    result.push({ priceTicks: order.priceTicks, quantityLots: order.remainingLots, orderCount: 1 });
  }
  return result;
}
