import type { OrderBook } from './order-book.ts';
import { placeCommandProblem } from './place-command.ts';
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

export interface OrderBookOptions {
  selfTradePrevention: SelfTradePreventionMode;
}

const DEFAULT_OPTIONS: OrderBookOptions = { selfTradePrevention: 'cancel_newest' };

function copyOrder(order: RestingOrder): RestingOrder {
  return { ...order };
}

/** True when a resting order at makerPrice may trade with a taker on takerSide limited at limitPrice. */
export function priceAcceptable(takerSide: Side, limitPrice: number | null, makerPrice: number): boolean {
  if (limitPrice === null) return true;
  return takerSide === 'buy' ? makerPrice <= limitPrice : makerPrice >= limitPrice;
}

/** True when price a is strictly better than price b for a resting order on side. */
function betterPrice(side: Side, a: number, b: number): boolean {
  return side === 'buy' ? a > b : a < b;
}

/**
 * The reference order book: two plain arrays kept in priority order and scanned linearly. It is slow
 * on purpose, because its job is to be obviously correct so that the fast book can be checked against it.
 */
export class ReferenceOrderBook implements OrderBook {
  private bids: RestingOrder[] = [];
  private asks: RestingOrder[] = [];
  private lastTradePriceTicks: number | null = null;
  readonly options: OrderBookOptions;

  constructor(options: Partial<OrderBookOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  place(command: PlaceCommand): PlaceResult {
    const reason = this.validate(command);
    if (reason !== null) return rejected(command.orderId, reason);

    const limitPrice = limitPriceOf(command);
    if (command.postOnly && this.wouldCross(command.side, limitPrice)) {
      return rejected(command.orderId, 'post_only_would_cross');
    }
    if (command.timeInForce === 'FOK' && this.fillableLots(command, limitPrice) < command.quantityLots) {
      return rejected(command.orderId, 'fok_not_fillable');
    }
    return this.match(command, limitPrice);
  }

  cancel(orderId: string): CancelResult {
    const found = this.locate(orderId);
    if (found === null) return { status: 'rejected', orderId, reason: 'unknown_order' };
    const [removed] = found.queue.splice(found.index, 1);
    return { status: 'cancelled', orderId, cancelledLots: removed!.remainingLots };
  }

  reduce(orderId: string, newRemainingLots: number): ReduceResult {
    const found = this.locate(orderId);
    if (found === null) return { status: 'rejected', orderId, reason: 'unknown_order' };
    const order = found.queue[found.index]!;
    // Raising the quantity or reducing to zero is not a reduction: the first must lose priority
    // (a modify), the second is a cancel.
    if (newRemainingLots <= 0 || newRemainingLots > order.remainingLots) {
      return { status: 'rejected', orderId, reason: 'invalid_quantity' };
    }
    const cancelledLots = order.remainingLots - newRemainingLots;
    order.remainingLots = newRemainingLots;
    return { status: 'reduced', orderId, restingLots: newRemainingLots, cancelledLots };
  }

  bestBid(): number | null {
    return this.bids[0]?.priceTicks ?? null;
  }

  bestAsk(): number | null {
    return this.asks[0]?.priceTicks ?? null;
  }

  lastTradePrice(): number | null {
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
    const problem = placeCommandProblem(command);
    if (problem !== null) return problem;
    if (this.locate(command.orderId) !== null) return 'duplicate_order_id';
    return null;
  }

  private wouldCross(side: Side, limitPrice: number | null): boolean {
    const best = this.queue(opposite(side))[0];
    return best !== undefined && priceAcceptable(side, limitPrice, best.priceTicks);
  }

  /**
   * What a taker could fill right now: stops at its price limit, and at the first own resting order
   * unless self-trade prevention would cancel that order and go on.
   */
  private fillableLots(command: PlaceCommand, limitPrice: number | null): number {
    const mode = this.modeFor(command);
    let fillable = 0;
    for (const maker of this.queue(opposite(command.side))) {
      if (!priceAcceptable(command.side, limitPrice, maker.priceTicks)) break;
      if (maker.accountId === command.accountId) {
        if (mode === 'cancel_oldest') continue;
        break;
      }
      fillable += maker.remainingLots;
      if (fillable >= command.quantityLots) break;
    }
    return fillable;
  }

  private modeFor(command: PlaceCommand): SelfTradePreventionMode {
    return command.selfTradePrevention ?? this.options.selfTradePrevention;
  }

  private match(command: PlaceCommand, limitPrice: number | null): PlaceResult {
    const makers = this.queue(opposite(command.side));
    const fills: Fill[] = [];
    const cancelledMakers: CancelledMaker[] = [];
    const mode = this.modeFor(command);
    let remaining = command.quantityLots;
    let budget = command.quoteBudget ?? null;
    let selfTradePrevented = false;

    while (remaining > 0) {
      const maker = makers[0];
      if (maker === undefined || !priceAcceptable(command.side, limitPrice, maker.priceTicks)) break;
      if (maker.accountId === command.accountId) {
        if (mode !== 'cancel_newest') {
          makers.shift();
          cancelledMakers.push({
            orderId: maker.orderId,
            accountId: maker.accountId,
            side: maker.side,
            priceTicks: maker.priceTicks,
            cancelledLots: maker.remainingLots,
          });
        }
        if (mode === 'cancel_oldest') continue;
        selfTradePrevented = true;
        break;
      }
      let quantityLots = remaining < maker.remainingLots ? remaining : maker.remainingLots;
      if (budget !== null) {
        const affordable = budget / BigInt(maker.priceTicks);
        if (affordable < BigInt(quantityLots)) quantityLots = Number(affordable);
        // The budget cannot buy one more lot here: the rest is a market remainder.
        if (quantityLots === 0) break;
        budget -= BigInt(quantityLots) * BigInt(maker.priceTicks);
      }
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
      if (maker.remainingLots === 0) makers.shift();
    }

    const filledLots = command.quantityLots - remaining;
    const cancelReason = remainderCancelReason(command, remaining, selfTradePrevented);
    if (remaining > 0 && cancelReason === null) this.rest(command, remaining);
    return {
      status: 'accepted',
      orderId: command.orderId,
      fills,
      cancelledMakers,
      filledLots,
      restingLots: cancelReason === null ? remaining : 0,
      cancelledLots: cancelReason === null ? 0 : remaining,
      remainderCancelReason: cancelReason,
    };
  }

  private rest(command: PlaceCommand, remainingLots: number): void {
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

function rejected(orderId: string, reason: RejectReason): PlaceResult {
  return { status: 'rejected', orderId, reason, fills: [], cancelledMakers: [] };
}

/** The price a taker may not pass: its limit, a market order's protection price, or none. */
export function limitPriceOf(command: PlaceCommand): number | null {
  if (command.type === 'limit') return command.priceTicks;
  return command.priceTicks > 0 ? command.priceTicks : null;
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
