import { expect } from 'vitest';
import { FastOrderBook } from './fast-order-book.ts';
import type { OrderBook } from './order-book.ts';
import { ReferenceOrderBook } from './reference-order-book.ts';
import type { PlaceCommand, RestingOrder, Side, TimeInForce } from './types.ts';

/** Every implementation of OrderBook runs the same suite; the fast book joins this list. */
export const ORDER_BOOK_IMPLEMENTATIONS: { name: string; create: () => OrderBook }[] = [
  { name: 'ReferenceOrderBook', create: () => new ReferenceOrderBook() },
  { name: 'FastOrderBook', create: () => new FastOrderBook() },
];

let nextSequence = 1;

export function limit(
  orderId: string,
  accountId: string,
  side: Side,
  priceTicks: number,
  quantityLots: number,
  options: { timeInForce?: TimeInForce; postOnly?: boolean } = {},
): PlaceCommand {
  const sequence = nextSequence++;
  return {
    orderId,
    accountId,
    side,
    type: 'limit',
    priceTicks,
    quantityLots,
    timeInForce: options.timeInForce ?? 'GTC',
    postOnly: options.postOnly ?? false,
    timestampMs: 1_700_000_000_000 + sequence,
    sequence,
  };
}

export function market(
  orderId: string,
  accountId: string,
  side: Side,
  quantityLots: number,
  timeInForce: TimeInForce = 'IOC',
): PlaceCommand {
  return { ...limit(orderId, accountId, side, 0, quantityLots, { timeInForce }), type: 'market' };
}

function checkSide(orders: RestingOrder[], side: Side): void {
  for (const [index, order] of orders.entries()) {
    expect(order.side).toBe(side);
    expect(order.remainingLots > 0).toBe(true);
    expect(order.remainingLots <= order.originalLots).toBe(true);
    expect(order.priceTicks > 0).toBe(true);
    const next = orders[index + 1];
    if (next === undefined) continue;
    // Priority order: never a better price behind a worse one.
    if (side === 'buy') expect(order.priceTicks >= next.priceTicks).toBe(true);
    else expect(order.priceTicks <= next.priceTicks).toBe(true);
    // Within a price, arrival order; the sequencer hands out increasing sequence numbers.
    if (order.priceTicks === next.priceTicks) expect(order.sequence < next.sequence).toBe(true);
  }
}

/** The internal state checks run after every step of every test. */
export function checkBookInvariants(book: OrderBook): void {
  const bids = book.orders('buy');
  const asks = book.orders('sell');
  checkSide(bids, 'buy');
  checkSide(asks, 'sell');
  const ids = [...bids, ...asks].map((order) => order.orderId);
  expect(new Set(ids).size).toBe(ids.length);
  expect(book.bestBid()).toBe(bids[0]?.priceTicks ?? null);
  expect(book.bestAsk()).toBe(asks[0]?.priceTicks ?? null);
  const bestBid = book.bestBid();
  const bestAsk = book.bestAsk();
  if (bestBid !== null && bestAsk !== null) expect(bestBid < bestAsk).toBe(true);
}

/** A compact view of one side for scenario tables: [orderId, priceTicks, remainingLots]. */
export function sideView(book: OrderBook, side: Side): [string, number, number][] {
  return book.orders(side).map((order) => [order.orderId, order.priceTicks, order.remainingLots]);
}
