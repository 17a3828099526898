import { describe, expect, it } from 'vitest';
import type { OrderBook } from './order-book.ts';
import { checkBookInvariants, limit, market, ORDER_BOOK_IMPLEMENTATIONS, sideView } from './test-support.ts';
import type { PlaceCommand } from './types.ts';

type Action = PlaceCommand | { cancel: string } | { reduce: string; toLots: bigint };

/** [makerOrderId, priceTicks, quantityLots] */
type FillView = [string, bigint, bigint];
type LevelView = [string, bigint, bigint];

interface Step {
  action: Action;
  /** 'accepted', 'cancelled', 'reduced' or a reject reason. */
  outcome: string;
  fills?: FillView[];
  bids: LevelView[];
  asks: LevelView[];
}

interface Scenario {
  name: string;
  steps: Step[];
}

function apply(book: OrderBook, action: Action): { outcome: string; fills: FillView[] } {
  if ('cancel' in action) {
    const result = book.cancel(action.cancel);
    return { outcome: result.status === 'rejected' ? result.reason : result.status, fills: [] };
  }
  if ('reduce' in action) {
    const result = book.reduce(action.reduce, action.toLots);
    return { outcome: result.status === 'rejected' ? result.reason : result.status, fills: [] };
  }
  const result = book.place(action);
  const fills = result.fills.map((fill): FillView => [fill.makerOrderId, fill.priceTicks, fill.quantityLots]);
  return { outcome: result.status === 'rejected' ? result.reason : result.status, fills };
}

const A = 'alice';
const B = 'bob';
const C = 'carol';

const scenarios: Scenario[] = [
  {
    name: 'non-crossing limits rest on both sides',
    steps: [
      { action: limit('b1', A, 'buy', 99n, 5n), outcome: 'accepted', bids: [['b1', 99n, 5n]], asks: [] },
      {
        action: limit('s1', B, 'sell', 101n, 3n),
        outcome: 'accepted',
        bids: [['b1', 99n, 5n]],
        asks: [['s1', 101n, 3n]],
      },
    ],
  },
  {
    name: 'a crossing limit fills at the maker price and rests the remainder',
    steps: [
      { action: limit('s1', A, 'sell', 100n, 3n), outcome: 'accepted', bids: [], asks: [['s1', 100n, 3n]] },
      {
        action: limit('b1', B, 'buy', 102n, 5n),
        outcome: 'accepted',
        fills: [['s1', 100n, 3n]],
        bids: [['b1', 102n, 2n]],
        asks: [],
      },
    ],
  },
  {
    name: 'a sweep takes the better price first, then FIFO within a level',
    steps: [
      { action: limit('s1', A, 'sell', 101n, 2n), outcome: 'accepted', bids: [], asks: [['s1', 101n, 2n]] },
      {
        action: limit('s2', B, 'sell', 100n, 2n),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s2', 100n, 2n],
          ['s1', 101n, 2n],
        ],
      },
      {
        action: limit('s3', C, 'sell', 101n, 2n),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s2', 100n, 2n],
          ['s1', 101n, 2n],
          ['s3', 101n, 2n],
        ],
      },
      {
        action: limit('b1', 'dave', 'buy', 101n, 5n),
        outcome: 'accepted',
        fills: [
          ['s2', 100n, 2n],
          ['s1', 101n, 2n],
          ['s3', 101n, 1n],
        ],
        bids: [],
        asks: [['s3', 101n, 1n]],
      },
    ],
  },
  {
    name: 'IOC cancels its remainder instead of resting',
    steps: [
      { action: limit('s1', A, 'sell', 100n, 2n), outcome: 'accepted', bids: [], asks: [['s1', 100n, 2n]] },
      {
        action: limit('b1', B, 'buy', 100n, 5n, { timeInForce: 'IOC' }),
        outcome: 'accepted',
        fills: [['s1', 100n, 2n]],
        bids: [],
        asks: [],
      },
    ],
  },
  {
    name: 'FOK is all or nothing',
    steps: [
      { action: limit('s1', A, 'sell', 100n, 2n), outcome: 'accepted', bids: [], asks: [['s1', 100n, 2n]] },
      {
        action: limit('s2', A, 'sell', 102n, 2n),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100n, 2n],
          ['s2', 102n, 2n],
        ],
      },
      {
        action: limit('b1', B, 'buy', 101n, 3n, { timeInForce: 'FOK' }),
        outcome: 'fok_not_fillable',
        bids: [],
        asks: [
          ['s1', 100n, 2n],
          ['s2', 102n, 2n],
        ],
      },
      {
        action: limit('b2', B, 'buy', 102n, 3n, { timeInForce: 'FOK' }),
        outcome: 'accepted',
        fills: [
          ['s1', 100n, 2n],
          ['s2', 102n, 1n],
        ],
        bids: [],
        asks: [['s2', 102n, 1n]],
      },
    ],
  },
  {
    name: 'post-only rests when passive and is rejected when it would cross',
    steps: [
      { action: limit('s1', A, 'sell', 100n, 2n), outcome: 'accepted', bids: [], asks: [['s1', 100n, 2n]] },
      {
        action: limit('b1', B, 'buy', 100n, 1n, { postOnly: true }),
        outcome: 'post_only_would_cross',
        bids: [],
        asks: [['s1', 100n, 2n]],
      },
      {
        action: limit('b2', B, 'buy', 99n, 1n, { postOnly: true }),
        outcome: 'accepted',
        bids: [['b2', 99n, 1n]],
        asks: [['s1', 100n, 2n]],
      },
    ],
  },
  {
    name: 'self-trade prevention cancels the newest order once it reaches its own resting order',
    steps: [
      { action: limit('s1', B, 'sell', 100n, 1n), outcome: 'accepted', bids: [], asks: [['s1', 100n, 1n]] },
      {
        action: limit('s2', A, 'sell', 100n, 2n),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100n, 1n],
          ['s2', 100n, 2n],
        ],
      },
      {
        action: limit('s3', C, 'sell', 100n, 2n),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100n, 1n],
          ['s2', 100n, 2n],
          ['s3', 100n, 2n],
        ],
      },
      {
        action: limit('b1', A, 'buy', 100n, 4n),
        outcome: 'accepted',
        fills: [['s1', 100n, 1n]],
        bids: [],
        asks: [
          ['s2', 100n, 2n],
          ['s3', 100n, 2n],
        ],
      },
      {
        action: limit('b2', A, 'buy', 100n, 1n, { timeInForce: 'FOK' }),
        outcome: 'fok_not_fillable',
        bids: [],
        asks: [
          ['s2', 100n, 2n],
          ['s3', 100n, 2n],
        ],
      },
    ],
  },
  {
    name: 'a market order sweeps any price and cancels what the book cannot fill',
    steps: [
      { action: market('m0', A, 'buy', 3n), outcome: 'accepted', bids: [], asks: [] },
      { action: limit('s1', B, 'sell', 100n, 1n), outcome: 'accepted', bids: [], asks: [['s1', 100n, 1n]] },
      {
        action: limit('s2', C, 'sell', 150n, 1n),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100n, 1n],
          ['s2', 150n, 1n],
        ],
      },
      {
        action: market('m1', A, 'buy', 3n),
        outcome: 'accepted',
        fills: [
          ['s1', 100n, 1n],
          ['s2', 150n, 1n],
        ],
        bids: [],
        asks: [],
      },
    ],
  },
  {
    name: 'cancel removes a resting order; an unknown id is a named result',
    steps: [
      { action: limit('b1', A, 'buy', 99n, 5n), outcome: 'accepted', bids: [['b1', 99n, 5n]], asks: [] },
      { action: { cancel: 'b1' }, outcome: 'cancelled', bids: [], asks: [] },
      { action: { cancel: 'b1' }, outcome: 'unknown_order', bids: [], asks: [] },
    ],
  },
  {
    name: 'reduce keeps the place in the queue; raising or zeroing is refused',
    steps: [
      { action: limit('b1', A, 'buy', 99n, 5n), outcome: 'accepted', bids: [['b1', 99n, 5n]], asks: [] },
      {
        action: limit('b2', B, 'buy', 99n, 5n),
        outcome: 'accepted',
        bids: [
          ['b1', 99n, 5n],
          ['b2', 99n, 5n],
        ],
        asks: [],
      },
      {
        action: { reduce: 'b1', toLots: 2n },
        outcome: 'reduced',
        bids: [
          ['b1', 99n, 2n],
          ['b2', 99n, 5n],
        ],
        asks: [],
      },
      {
        action: { reduce: 'b1', toLots: 3n },
        outcome: 'invalid_quantity',
        bids: [
          ['b1', 99n, 2n],
          ['b2', 99n, 5n],
        ],
        asks: [],
      },
      {
        action: { reduce: 'b1', toLots: 0n },
        outcome: 'invalid_quantity',
        bids: [
          ['b1', 99n, 2n],
          ['b2', 99n, 5n],
        ],
        asks: [],
      },
      {
        action: { reduce: 'zz', toLots: 1n },
        outcome: 'unknown_order',
        bids: [
          ['b1', 99n, 2n],
          ['b2', 99n, 5n],
        ],
        asks: [],
      },
      {
        action: limit('s1', C, 'sell', 99n, 3n),
        outcome: 'accepted',
        fills: [
          ['b1', 99n, 2n],
          ['b2', 99n, 1n],
        ],
        bids: [['b2', 99n, 4n]],
        asks: [],
      },
    ],
  },
  {
    name: 'malformed and duplicate orders are rejected with named reasons',
    steps: [
      { action: limit('b1', A, 'buy', 99n, 0n), outcome: 'invalid_quantity', bids: [], asks: [] },
      { action: limit('b1', A, 'buy', 0n, 1n), outcome: 'invalid_price', bids: [], asks: [] },
      { action: market('m1', A, 'buy', 1n, 'GTC'), outcome: 'invalid_time_in_force', bids: [], asks: [] },
      {
        action: limit('b1', A, 'buy', 99n, 1n, { timeInForce: 'IOC', postOnly: true }),
        outcome: 'invalid_time_in_force',
        bids: [],
        asks: [],
      },
      { action: { ...market('m2', A, 'buy', 1n), postOnly: true }, outcome: 'invalid_order_type', bids: [], asks: [] },
      { action: limit('b1', A, 'buy', 99n, 1n), outcome: 'accepted', bids: [['b1', 99n, 1n]], asks: [] },
      { action: limit('b1', B, 'buy', 98n, 1n), outcome: 'duplicate_order_id', bids: [['b1', 99n, 1n]], asks: [] },
    ],
  },
];

describe.each(ORDER_BOOK_IMPLEMENTATIONS)('$name scenarios', ({ create }) => {
  it.each(scenarios)('$name', ({ steps }) => {
    const book = create();
    for (const [index, step] of steps.entries()) {
      const { outcome, fills } = apply(book, step.action);
      const where = `step ${index}`;
      expect(outcome, where).toBe(step.outcome);
      expect(fills, where).toEqual(step.fills ?? []);
      expect(sideView(book, 'buy'), where).toEqual(step.bids);
      expect(sideView(book, 'sell'), where).toEqual(step.asks);
      checkBookInvariants(book);
    }
  });

  it('reports depth by level, best first, limited to the requested count', () => {
    const book = create();
    book.place(limit('b1', A, 'buy', 99n, 1n));
    book.place(limit('b2', B, 'buy', 99n, 2n));
    book.place(limit('b3', B, 'buy', 98n, 4n));
    book.place(limit('b4', B, 'buy', 97n, 4n));
    book.place(limit('s1', C, 'sell', 101n, 7n));
    expect(book.depth(2)).toEqual({
      bids: [
        { priceTicks: 99n, quantityLots: 3n, orderCount: 2 },
        { priceTicks: 98n, quantityLots: 4n, orderCount: 1 },
      ],
      asks: [{ priceTicks: 101n, quantityLots: 7n, orderCount: 1 }],
    });
  });

  it('reports the remainder and the reason it was cancelled', () => {
    const book = create();
    book.place(limit('s1', A, 'sell', 100n, 2n));
    const result = book.place(limit('b1', B, 'buy', 100n, 5n, { timeInForce: 'IOC' }));
    expect(result).toMatchObject({
      status: 'accepted',
      filledLots: 2n,
      restingLots: 0n,
      cancelledLots: 3n,
      remainderCancelReason: 'ioc_remainder',
    });
    expect(book.lastTradePrice()).toBe(100n);
  });

  it('a snapshot is a copy: later matching does not change it', () => {
    const book = create();
    book.place(limit('s1', A, 'sell', 100n, 2n));
    const snapshot = book.snapshot();
    const hash = book.stateHash();
    book.place(limit('b1', B, 'buy', 100n, 1n));
    expect(book.stateHash()).not.toBe(hash);
    book.restore(snapshot);
    expect(book.stateHash()).toBe(hash);
    expect(sideView(book, 'sell')).toEqual([['s1', 100n, 2n]]);
  });
});
