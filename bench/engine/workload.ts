import { FastOrderBook } from '../../packages/engine/src/fast-order-book.ts';
import type { PlaceCommand, Side } from '../../packages/engine/src/types.ts';

/**
 * The benchmark workload: one market, a prefilled book, then a stream of limit orders, cancels and
 * market orders. It is generated from a seed, so every run and every implementation sees the very same
 * stream, and it is generated once, before any timing, by replaying it through a shadow book so that
 * "the opposite best" and "a random resting order" refer to the real state of the book at that step.
 */

export interface WorkloadSpec {
  name: string;
  seed: number;
  prefillOrders: number;
  operations: number;
  /** Resting limit orders are placed 1 + exponential(this mean) ticks away from the opposite best. */
  restingDistanceMeanTicks: number;
}

export const STANDARD_WORKLOAD: WorkloadSpec = {
  name: 'standard',
  seed: 0x5eed_0001,
  prefillOrders: 5_000,
  operations: 1_000_000,
  restingDistanceMeanTicks: 50,
};

/**
 * The deep book: the same mix, with resting orders packed into few price levels, so that matching and
 * cancelling meet long queues. The mean distance was chosen so that about 130 orders rest per level.
 */
export const DEEP_WORKLOAD: WorkloadSpec = {
  name: 'deep',
  seed: 0x5eed_0002,
  prefillOrders: 5_000,
  operations: 1_000_000,
  restingDistanceMeanTicks: 2.5,
};

/** The price the first orders are placed around, far enough from zero that no price ever reaches it. */
const INITIAL_MID_TICKS = 1_000_000;
/** Accounts per side. Buyers and sellers never share an account, so self-trade prevention never fires. */
const ACCOUNTS_PER_SIDE = 100;

export type Operation =
  | { kind: 'place'; orderNumber: number; command: PlaceCommand }
  | { kind: 'cancel'; orderNumber: number; orderId: string };

export interface Workload {
  spec: WorkloadSpec;
  prefill: Operation[];
  operations: Operation[];
  /** Shape of the book at the end, as the shadow book saw it. */
  finalRestingOrders: number;
  finalLevels: number;
  counts: { limitCrossing: number; limitResting: number; cancel: number; market: number };
}

/** mulberry32: a tiny, fast, seeded 32-bit PRNG; plenty for a workload, and the same on every machine. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The ids of resting orders, with O(1) add, remove and uniform random pick. */
class LiveOrders {
  private readonly ids: string[] = [];
  private readonly numbers: number[] = [];
  private readonly indexById = new Map<string, number>();

  get size(): number {
    return this.ids.length;
  }

  add(orderId: string, orderNumber: number): void {
    this.indexById.set(orderId, this.ids.length);
    this.ids.push(orderId);
    this.numbers.push(orderNumber);
  }

  remove(orderId: string): void {
    const index = this.indexById.get(orderId);
    if (index === undefined) return;
    const lastId = this.ids.pop()!;
    const lastNumber = this.numbers.pop()!;
    this.indexById.delete(orderId);
    if (index < this.ids.length) {
      this.ids[index] = lastId;
      this.numbers[index] = lastNumber;
      this.indexById.set(lastId, index);
    }
  }

  pick(random: () => number): { orderId: string; orderNumber: number } {
    const index = Math.floor(random() * this.ids.length);
    return { orderId: this.ids[index]!, orderNumber: this.numbers[index]! };
  }
}

class Generator {
  private readonly random: () => number;
  private readonly book = new FastOrderBook();
  private readonly live = new LiveOrders();
  private nextOrderNumber = 1;
  readonly counts = { limitCrossing: 0, limitResting: 0, cancel: 0, market: 0 };

  constructor(private readonly spec: WorkloadSpec) {
    this.random = mulberry32(spec.seed);
  }

  prefill(): Operation[] {
    const operations: Operation[] = [];
    for (let index = 0; index < this.spec.prefillOrders; index++) {
      const side: Side = index % 2 === 0 ? 'buy' : 'sell';
      const distance = this.restingDistance();
      const priceTicks = side === 'buy' ? INITIAL_MID_TICKS - distance : INITIAL_MID_TICKS + distance;
      operations.push(this.place(side, 'limit', priceTicks, this.integer(1, 200)));
    }
    return operations;
  }

  next(): Operation {
    const draw = this.random();
    if (draw < 0.6) return this.limitOrder();
    if (draw < 0.9 && this.live.size > 0) return this.cancel();
    if (draw < 0.9) return this.restingLimit(this.side());
    this.counts.market++;
    return this.place(this.side(), 'market', 0, this.integer(1, 10));
  }

  finalShape(): { restingOrders: number; levels: number } {
    const bids = this.book.depth(Number.MAX_SAFE_INTEGER).bids;
    const asks = this.book.depth(Number.MAX_SAFE_INTEGER).asks;
    return { restingOrders: this.live.size, levels: bids.length + asks.length };
  }

  private limitOrder(): Operation {
    const side = this.side();
    if (this.random() < this.crossingShare()) {
      const opposite = side === 'buy' ? this.book.bestAsk() : this.book.bestBid();
      if (opposite !== null) {
        this.counts.limitCrossing++;
        const through = this.integer(0, 2);
        const priceTicks = side === 'buy' ? opposite + through : opposite - through;
        return this.place(side, 'limit', priceTicks, this.integer(1, 10));
      }
    }
    return this.restingLimit(side);
  }

  /**
   * With cancels at 30% of operations and only about 30% resting limit orders, cancels plus fills would
   * drain the book to a handful of orders within a few thousand operations. So the crossing share of limit
   * orders steps from one half down to two fifths while the book is below its prefilled size, which holds
   * the book near that size; the run reports the share it ended up with.
   */
  private crossingShare(): number {
    return this.live.size >= this.spec.prefillOrders ? 0.5 : 0.4;
  }

  /** Anchored on the opposite best, so it never crosses; with a spread of a tick or two it lands behind its own best. */
  private restingLimit(side: Side): Operation {
    this.counts.limitResting++;
    const distance = this.restingDistance();
    const opposite = side === 'buy' ? this.book.bestAsk() : this.book.bestBid();
    const anchor = opposite ?? this.book.lastTradePrice() ?? INITIAL_MID_TICKS;
    const priceTicks = side === 'buy' ? anchor - distance : anchor + distance;
    return this.place(side, 'limit', priceTicks, this.integer(1, 200));
  }

  private cancel(): Operation {
    this.counts.cancel++;
    const { orderId, orderNumber } = this.live.pick(this.random);
    this.book.cancel(orderId);
    this.live.remove(orderId);
    return { kind: 'cancel', orderNumber, orderId };
  }

  private place(side: Side, type: 'limit' | 'market', priceTicks: number, quantityLots: number): Operation {
    const orderNumber = this.nextOrderNumber++;
    const command: PlaceCommand = {
      orderId: `o${orderNumber}`,
      accountId: `${side === 'buy' ? 'b' : 's'}${this.integer(0, ACCOUNTS_PER_SIDE - 1)}`,
      side,
      type,
      priceTicks,
      quantityLots,
      timeInForce: type === 'market' ? 'IOC' : 'GTC',
      postOnly: false,
      timestampMs: orderNumber,
      sequence: orderNumber,
    };
    const result = this.book.place(command);
    for (const fill of result.fills) {
      if (this.book.order(fill.makerOrderId) === null) this.live.remove(fill.makerOrderId);
    }
    if (result.status === 'accepted' && result.restingLots > 0) this.live.add(command.orderId, orderNumber);
    return { kind: 'place', orderNumber, command };
  }

  private side(): Side {
    return this.random() < 0.5 ? 'buy' : 'sell';
  }

  /** 1 + floor(exponential with the spec's mean), in ticks. */
  private restingDistance(): number {
    return 1 + Math.floor(-Math.log(1 - this.random()) * this.spec.restingDistanceMeanTicks);
  }

  private integer(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
}

export function generateWorkload(spec: WorkloadSpec, operationCount = spec.operations): Workload {
  const generator = new Generator(spec);
  const prefill = generator.prefill();
  const operations: Operation[] = new Array(operationCount);
  for (let index = 0; index < operationCount; index++) operations[index] = generator.next();
  const shape = generator.finalShape();
  return {
    spec,
    prefill,
    operations,
    finalRestingOrders: shape.restingOrders,
    finalLevels: shape.levels,
    counts: generator.counts,
  };
}
