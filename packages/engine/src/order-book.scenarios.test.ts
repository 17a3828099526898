import { describe, expect, it } from 'vitest';
import type { OrderBook } from './order-book.ts';
import { checkBookInvariants, limit, market, ORDER_BOOK_IMPLEMENTATIONS, sideView } from './test-support.ts';
import type { PlaceCommand } from './types.ts';

type Action = PlaceCommand | { cancel: string } | { reduce: string; toLots: number };

/** [makerOrderId, priceTicks, quantityLots] */
type FillView = [string, number, number];
type LevelView = [string, number, number];

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
      { action: limit('b1', A, 'buy', 99, 5), outcome: 'accepted', bids: [['b1', 99, 5]], asks: [] },
      {
        action: limit('s1', B, 'sell', 101, 3),
        outcome: 'accepted',
        bids: [['b1', 99, 5]],
        asks: [['s1', 101, 3]],
      },
    ],
  },
  {
    name: 'a crossing limit fills at the maker price and rests the remainder',
    steps: [
      { action: limit('s1', A, 'sell', 100, 3), outcome: 'accepted', bids: [], asks: [['s1', 100, 3]] },
      {
        action: limit('b1', B, 'buy', 102, 5),
        outcome: 'accepted',
        fills: [['s1', 100, 3]],
        bids: [['b1', 102, 2]],
        asks: [],
      },
    ],
  },
  {
    name: 'a sweep takes the better price first, then FIFO within a level',
    steps: [
      { action: limit('s1', A, 'sell', 101, 2), outcome: 'accepted', bids: [], asks: [['s1', 101, 2]] },
      {
        action: limit('s2', B, 'sell', 100, 2),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s2', 100, 2],
          ['s1', 101, 2],
        ],
      },
      {
        action: limit('s3', C, 'sell', 101, 2),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s2', 100, 2],
          ['s1', 101, 2],
          ['s3', 101, 2],
        ],
      },
      {
        action: limit('b1', 'dave', 'buy', 101, 5),
        outcome: 'accepted',
        fills: [
          ['s2', 100, 2],
          ['s1', 101, 2],
          ['s3', 101, 1],
        ],
        bids: [],
        asks: [['s3', 101, 1]],
      },
    ],
  },
  {
    name: 'IOC cancels its remainder instead of resting',
    steps: [
      { action: limit('s1', A, 'sell', 100, 2), outcome: 'accepted', bids: [], asks: [['s1', 100, 2]] },
      {
        action: limit('b1', B, 'buy', 100, 5, { timeInForce: 'IOC' }),
        outcome: 'accepted',
        fills: [['s1', 100, 2]],
        bids: [],
        asks: [],
      },
    ],
  },
  {
    name: 'FOK is all or nothing',
    steps: [
      { action: limit('s1', A, 'sell', 100, 2), outcome: 'accepted', bids: [], asks: [['s1', 100, 2]] },
      {
        action: limit('s2', A, 'sell', 102, 2),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100, 2],
          ['s2', 102, 2],
        ],
      },
      {
        action: limit('b1', B, 'buy', 101, 3, { timeInForce: 'FOK' }),
        outcome: 'fok_not_fillable',
        bids: [],
        asks: [
          ['s1', 100, 2],
          ['s2', 102, 2],
        ],
      },
      {
        action: limit('b2', B, 'buy', 102, 3, { timeInForce: 'FOK' }),
        outcome: 'accepted',
        fills: [
          ['s1', 100, 2],
          ['s2', 102, 1],
        ],
        bids: [],
        asks: [['s2', 102, 1]],
      },
    ],
  },
  {
    name: 'post-only rests when passive and is rejected when it would cross',
    steps: [
      { action: limit('s1', A, 'sell', 100, 2), outcome: 'accepted', bids: [], asks: [['s1', 100, 2]] },
      {
        action: limit('b1', B, 'buy', 100, 1, { postOnly: true }),
        outcome: 'post_only_would_cross',
        bids: [],
        asks: [['s1', 100, 2]],
      },
      {
        action: limit('b2', B, 'buy', 99, 1, { postOnly: true }),
        outcome: 'accepted',
        bids: [['b2', 99, 1]],
        asks: [['s1', 100, 2]],
      },
    ],
  },
  {
    name: 'self-trade prevention cancels the newest order once it reaches its own resting order',
    steps: [
      { action: limit('s1', B, 'sell', 100, 1), outcome: 'accepted', bids: [], asks: [['s1', 100, 1]] },
      {
        action: limit('s2', A, 'sell', 100, 2),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100, 1],
          ['s2', 100, 2],
        ],
      },
      {
        action: limit('s3', C, 'sell', 100, 2),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100, 1],
          ['s2', 100, 2],
          ['s3', 100, 2],
        ],
      },
      {
        action: limit('b1', A, 'buy', 100, 4),
        outcome: 'accepted',
        fills: [['s1', 100, 1]],
        bids: [],
        asks: [
          ['s2', 100, 2],
          ['s3', 100, 2],
        ],
      },
      {
        action: limit('b2', A, 'buy', 100, 1, { timeInForce: 'FOK' }),
        outcome: 'fok_not_fillable',
        bids: [],
        asks: [
          ['s2', 100, 2],
          ['s3', 100, 2],
        ],
      },
    ],
  },
  {
    name: 'a market order sweeps any price and cancels what the book cannot fill',
    steps: [
      { action: market('m0', A, 'buy', 3), outcome: 'accepted', bids: [], asks: [] },
      { action: limit('s1', B, 'sell', 100, 1), outcome: 'accepted', bids: [], asks: [['s1', 100, 1]] },
      {
        action: limit('s2', C, 'sell', 150, 1),
        outcome: 'accepted',
        bids: [],
        asks: [
          ['s1', 100, 1],
          ['s2', 150, 1],
        ],
      },
      {
        action: market('m1', A, 'buy', 3),
        outcome: 'accepted',
        fills: [
          ['s1', 100, 1],
          ['s2', 150, 1],
        ],
        bids: [],
        asks: [],
      },
    ],
  },
  {
    name: 'cancel removes a resting order; an unknown id is a named result',
    steps: [
      { action: limit('b1', A, 'buy', 99, 5), outcome: 'accepted', bids: [['b1', 99, 5]], asks: [] },
      { action: { cancel: 'b1' }, outcome: 'cancelled', bids: [], asks: [] },
      { action: { cancel: 'b1' }, outcome: 'unknown_order', bids: [], asks: [] },
    ],
  },
  {
    name: 'reduce keeps the place in the queue; raising or zeroing is refused',
    steps: [
      { action: limit('b1', A, 'buy', 99, 5), outcome: 'accepted', bids: [['b1', 99, 5]], asks: [] },
      {
        action: limit('b2', B, 'buy', 99, 5),
        outcome: 'accepted',
        bids: [
          ['b1', 99, 5],
          ['b2', 99, 5],
        ],
        asks: [],
      },
      {
        action: { reduce: 'b1', toLots: 2 },
        outcome: 'reduced',
        bids: [
          ['b1', 99, 2],
          ['b2', 99, 5],
        ],
        asks: [],
      },
      {
        action: { reduce: 'b1', toLots: 3 },
        outcome: 'invalid_quantity',
        bids: [
          ['b1', 99, 2],
          ['b2', 99, 5],
        ],
        asks: [],
      },
      {
        action: { reduce: 'b1', toLots: 0 },
        outcome: 'invalid_quantity',
        bids: [
          ['b1', 99, 2],
          ['b2', 99, 5],
        ],
        asks: [],
      },
      {
        action: { reduce: 'zz', toLots: 1 },
        outcome: 'unknown_order',
        bids: [
          ['b1', 99, 2],
          ['b2', 99, 5],
        ],
        asks: [],
      },
      {
        action: limit('s1', C, 'sell', 99, 3),
        outcome: 'accepted',
        fills: [
          ['b1', 99, 2],
          ['b2', 99, 1],
        ],
        bids: [['b2', 99, 4]],
        asks: [],
      },
    ],
  },
  {
    name: 'malformed and duplicate orders are rejected with named reasons',
    steps: [
      { action: limit('b1', A, 'buy', 99, 0), outcome: 'invalid_quantity', bids: [], asks: [] },
      { action: limit('b1', A, 'buy', 0, 1), outcome: 'invalid_price', bids: [], asks: [] },
      { action: market('m1', A, 'buy', 1, 'GTC'), outcome: 'invalid_time_in_force', bids: [], asks: [] },
      {
        action: limit('b1', A, 'buy', 99, 1, { timeInForce: 'IOC', postOnly: true }),
        outcome: 'invalid_time_in_force',
        bids: [],
        asks: [],
      },
      { action: { ...market('m2', A, 'buy', 1), postOnly: true }, outcome: 'invalid_order_type', bids: [], asks: [] },
      { action: limit('b1', A, 'buy', 99, 1), outcome: 'accepted', bids: [['b1', 99, 1]], asks: [] },
      { action: limit('b1', B, 'buy', 98, 1), outcome: 'duplicate_order_id', bids: [['b1', 99, 1]], asks: [] },
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
    book.place(limit('b1', A, 'buy', 99, 1));
    book.place(limit('b2', B, 'buy', 99, 2));
    book.place(limit('b3', B, 'buy', 98, 4));
    book.place(limit('b4', B, 'buy', 97, 4));
    book.place(limit('s1', C, 'sell', 101, 7));
    expect(book.depth(2)).toEqual({
      bids: [
        { priceTicks: 99, quantityLots: 3, orderCount: 2 },
        { priceTicks: 98, quantityLots: 4, orderCount: 1 },
      ],
      asks: [{ priceTicks: 101, quantityLots: 7, orderCount: 1 }],
    });
  });

  it('reports the remainder and the reason it was cancelled', () => {
    const book = create();
    book.place(limit('s1', A, 'sell', 100, 2));
    const result = book.place(limit('b1', B, 'buy', 100, 5, { timeInForce: 'IOC' }));
    expect(result).toMatchObject({
      status: 'accepted',
      filledLots: 2,
      restingLots: 0,
      cancelledLots: 3,
      remainderCancelReason: 'ioc_remainder',
    });
    expect(book.lastTradePrice()).toBe(100);
  });

  it('a snapshot is a copy: later matching does not change it', () => {
    const book = create();
    book.place(limit('s1', A, 'sell', 100, 2));
    const snapshot = book.snapshot();
    const hash = book.stateHash();
    book.place(limit('b1', B, 'buy', 100, 1));
    expect(book.stateHash()).not.toBe(hash);
    book.restore(snapshot);
    expect(book.stateHash()).toBe(hash);
    expect(sideView(book, 'sell')).toEqual([['s1', 100, 2]]);
  });
});
