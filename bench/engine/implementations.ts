import { createRequire } from 'node:module';
import { OrderBook as NodejsOrderBook, Side as NodejsSide } from 'nodejs-order-book';
import { FastOrderBook } from '../../packages/engine/src/fast-order-book.ts';
import type { OrderBook } from '../../packages/engine/src/order-book.ts';
import { ReferenceOrderBook } from '../../packages/engine/src/reference-order-book.ts';
import type { Operation } from './workload.ts';

// orderbook-match-engine is CommonJS whose named exports Node cannot detect from ESM, so it is required.
const { Orderbook: MatchEngineOrderbook, TRADE_SIDE } = createRequire(import.meta.url)(
  'orderbook-match-engine',
) as typeof import('orderbook-match-engine');

/** [priceTicks, quantityLots], best first. */
export type LevelView = [number, number];

/** One implementation driven through its own API. */
export interface Replayer {
  apply(operation: Operation): void;
  /** The best levels of each side after a run, so that every implementation can be checked to agree. */
  topLevels(count: number): { bids: LevelView[]; asks: LevelView[] };
}

export interface Implementation {
  name: string;
  create(): Replayer;
}

class EngineReplayer implements Replayer {
  constructor(private readonly book: OrderBook) {}

  apply(operation: Operation): void {
    if (operation.kind === 'place') this.book.place(operation.command);
    else this.book.cancel(operation.orderId);
  }

  topLevels(count: number): { bids: LevelView[]; asks: LevelView[] } {
    const depth = this.book.depth(count);
    const view = (level: { priceTicks: number; quantityLots: number }): LevelView => [
      level.priceTicks,
      level.quantityLots,
    ];
    return { bids: depth.bids.map(view), asks: depth.asks.map(view) };
  }
}

/** nodejs-order-book: string ids, limit/market/cancel calls with option objects. */
class NodejsOrderBookReplayer implements Replayer {
  private readonly book = new NodejsOrderBook();

  apply(operation: Operation): void {
    if (operation.kind === 'cancel') {
      this.book.cancel(operation.orderId);
      return;
    }
    const command = operation.command;
    const side = command.side === 'buy' ? NodejsSide.BUY : NodejsSide.SELL;
    if (command.type === 'market') this.book.market({ side, size: command.quantityLots });
    else this.book.limit({ side, id: command.orderId, size: command.quantityLots, price: command.priceTicks });
  }

  topLevels(count: number): { bids: LevelView[]; asks: LevelView[] } {
    const [asks, bids] = this.book.depth();
    return {
      bids: [...bids].sort((a, b) => b[0] - a[0]).slice(0, count),
      asks: [...asks].sort((a, b) => a[0] - b[0]).slice(0, count),
    };
  }
}

/**
 * orderbook-match-engine: numeric ids and decimal quantities. It has no market order, so one is sent
 * as a limit at a price that crosses every level, and whatever it leaves resting is cancelled straight
 * away: the same outcome as an immediate-or-cancel market order, at the cost of one extra call.
 */
class MatchEngineReplayer implements Replayer {
  private readonly book = new MatchEngineOrderbook({ limit: 10 });

  apply(operation: Operation): void {
    if (operation.kind === 'cancel') {
      this.book.cancel(operation.orderNumber);
      return;
    }
    const command = operation.command;
    const side = command.side === 'buy' ? TRADE_SIDE.BID : TRADE_SIDE.ASK;
    if (command.type === 'limit') {
      this.book.add(operation.orderNumber, side, command.priceTicks, command.quantityLots);
      return;
    }
    const sweepPrice = command.side === 'buy' ? Number.MAX_SAFE_INTEGER : 1;
    const { order } = this.book.add(operation.orderNumber, side, sweepPrice, command.quantityLots);
    if (!order.leaveQuantity.isZero()) this.book.cancel(operation.orderNumber);
  }

  topLevels(count: number): { bids: LevelView[]; asks: LevelView[] } {
    const { bids, asks } = this.book.getOrderbook();
    const view = (level: { price: string; quantity: string }): LevelView => [
      Number(level.price),
      Number(level.quantity),
    ];
    return { bids: bids.slice(0, count).map(view), asks: asks.slice(0, count).map(view) };
  }
}

export const IMPLEMENTATIONS: Implementation[] = [
  { name: 'FastOrderBook', create: () => new EngineReplayer(new FastOrderBook()) },
  { name: 'ReferenceOrderBook', create: () => new EngineReplayer(new ReferenceOrderBook()) },
  { name: 'nodejs-order-book', create: () => new NodejsOrderBookReplayer() },
  { name: 'orderbook-match-engine', create: () => new MatchEngineReplayer() },
];
