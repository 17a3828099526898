import type {
  BookDepth,
  BookSnapshot,
  CancelResult,
  PlaceCommand,
  PlaceResult,
  ReduceResult,
  RestingOrder,
} from './types.ts';

/**
 * One market's order book. The reference and the fast implementation both satisfy this interface and
 * run the same test suite, so the fast one is proven against the obviously correct one.
 */
export interface OrderBook {
  place(command: PlaceCommand): PlaceResult;
  cancel(orderId: string): CancelResult;
  /** Lowers the open quantity of a resting order; the order keeps its place in the queue. */
  reduce(orderId: string, newRemainingLots: number): ReduceResult;
  bestBid(): number | null;
  bestAsk(): number | null;
  lastTradePrice(): number | null;
  depth(levels: number): BookDepth;
  order(orderId: string): RestingOrder | null;
  /** Resting orders of one side, best price first, then arrival order. */
  orders(side: 'buy' | 'sell'): RestingOrder[];
  snapshot(): BookSnapshot;
  restore(snapshot: BookSnapshot): void;
  /** A deterministic hash of the book state as 16 hex digits. */
  stateHash(): string;
}
