import { describe, expect, it } from 'vitest';
import { MarketEngine } from './market-engine.ts';
import type {
  EngineOrder,
  MarketCommand,
  MarketEvent,
  MarketOrderType,
  MarketRejectReason,
  MarketRules,
  MarketSnapshot,
  PlaceOrderCommand,
} from './market-types.ts';
import type { OrderBook } from './order-book.ts';
import { ORDER_BOOK_IMPLEMENTATIONS, sideView } from './test-support.ts';
import type { RestingOrder, SelfTradePreventionMode, Side, TimeInForce } from './types.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A command without its sequence and time: the runner hands those out in order, as the sequencer does. */
type Draft = DistributiveOmit<MarketCommand, 'sequence' | 'timestampMs'>;
type PlaceDraft = Omit<PlaceOrderCommand, 'sequence' | 'timestampMs'>;
/** [orderId, priceTicks, remainingLots] */
type LevelView = [string, number, number];

interface Step {
  command: Draft;
  outcome: 'accepted' | MarketRejectReason;
  /** Events in the compact form of describe(); checked when given. */
  events?: string[];
  bids?: LevelView[];
  asks?: LevelView[];
  waiting?: string[];
}

interface Scenario {
  name: string;
  rules?: Partial<MarketRules>;
  steps: Step[];
}

const DEFAULT_RULES: MarketRules = {
  minQuantityLots: 1,
  maxQuantityLots: 1_000,
  priceBandBps: 1_000,
  selfTradePrevention: 'cancel_newest',
};

interface PlaceOptions {
  timeInForce?: TimeInForce;
  postOnly?: boolean;
  selfTradePrevention?: SelfTradePreventionMode;
  referencePriceTicks?: number | null;
  quoteAmount?: bigint | null;
  stopLimitPriceTicks?: number | null;
}

function place(
  type: MarketOrderType,
  orderId: string,
  accountId: string,
  side: Side,
  quantityLots: number,
  prices: { priceTicks?: number | null; stopPriceTicks?: number | null },
  options: PlaceOptions = {},
): PlaceDraft {
  return {
    kind: 'place',
    orderId,
    accountId,
    side,
    type,
    quantityLots,
    quoteAmount: options.quoteAmount ?? null,
    priceTicks: prices.priceTicks ?? null,
    stopPriceTicks: prices.stopPriceTicks ?? null,
    stopLimitPriceTicks: options.stopLimitPriceTicks ?? null,
    timeInForce: options.timeInForce ?? (type === 'market' ? 'IOC' : 'GTC'),
    postOnly: options.postOnly ?? false,
    selfTradePrevention: options.selfTradePrevention ?? null,
    referencePriceTicks: options.referencePriceTicks ?? null,
  };
}

function limit(id: string, account: string, side: Side, priceTicks: number, lots: number, options: PlaceOptions = {}) {
  return place('limit', id, account, side, lots, { priceTicks }, options);
}

function market(id: string, account: string, side: Side, lots: number, options: PlaceOptions = {}) {
  return place('market', id, account, side, lots, {}, options);
}

/** stop_loss / take_profit without a limit price, stop_limit / take_profit_limit with one. */
function stop(
  type: 'stop_loss' | 'stop_limit' | 'take_profit' | 'take_profit_limit',
  id: string,
  account: string,
  side: Side,
  stopPriceTicks: number,
  lots: number,
  priceTicks: number | null = null,
  options: PlaceOptions = {},
) {
  return place(type, id, account, side, lots, { priceTicks, stopPriceTicks }, options);
}

function oco(
  id: string,
  account: string,
  side: Side,
  priceTicks: number,
  stopPriceTicks: number,
  lots: number,
  options: PlaceOptions = {},
) {
  return place('oco', id, account, side, lots, { priceTicks, stopPriceTicks }, options);
}

function cancel(orderId: string, accountId: string): Draft {
  return { kind: 'cancel', orderId, accountId };
}

function modify(
  orderId: string,
  accountId: string,
  changes: { quantityLots?: number; priceTicks?: number; stopPriceTicks?: number },
  referencePriceTicks: number | null = null,
): Draft {
  return {
    kind: 'modify',
    orderId,
    accountId,
    quantityLots: changes.quantityLots ?? null,
    priceTicks: changes.priceTicks ?? null,
    stopPriceTicks: changes.stopPriceTicks ?? null,
    referencePriceTicks,
  };
}

/** One line per event, so that scenario tables stay readable. */
function describeEvent(event: MarketEvent): string {
  switch (event.type) {
    case 'accepted':
      return `accepted ${event.orderId}`;
    case 'trade':
      return `trade ${event.makerOrderId}/${event.takerOrderId} ${event.quantityLots}@${event.priceTicks} m${event.makerRemainingLots} t${event.takerRemainingLots}`;
    case 'triggered':
      return `triggered ${event.orderId}@${event.lastTradePriceTicks}`;
    case 'rested':
      return `rested ${event.orderId} ${event.remainingLots}@${event.priceTicks}`;
    case 'modified':
      return `modified ${event.orderId} q${event.quantityLots} p${event.priceTicks ?? '-'} s${event.stopPriceTicks ?? '-'} ${event.keptPriority ? 'kept' : 'moved'}`;
    case 'filled':
      return `filled ${event.orderId}`;
    case 'ended':
      return `ended ${event.orderId} ${event.reason} ${event.unfilledLots}`;
  }
}

const A = 'alice';
const B = 'bob';
const C = 'carol';
const D = 'dave';

/** Two steps that make the book trade once at 100 and leave it empty: the last trade price is 100. */
const LAST_TRADE_AT_100: Step[] = [
  { command: limit('b0', C, 'buy', 100, 1), outcome: 'accepted', events: ['accepted b0', 'rested b0 1@100'] },
  {
    command: limit('s0', D, 'sell', 100, 1),
    outcome: 'accepted',
    events: ['accepted s0', 'trade b0/s0 1@100 m0 t0', 'filled b0', 'filled s0'],
    bids: [],
    asks: [],
  },
];

const scenarios: Scenario[] = [
  {
    name: 'a crossing limit trades at the maker price, fills the maker and rests its remainder',
    steps: [
      { command: limit('s1', A, 'sell', 100, 3), outcome: 'accepted', events: ['accepted s1', 'rested s1 3@100'] },
      {
        command: limit('b1', B, 'buy', 102, 5),
        outcome: 'accepted',
        events: ['accepted b1', 'trade s1/b1 3@100 m0 t2', 'filled s1', 'rested b1 2@102'],
        bids: [['b1', 102, 2]],
        asks: [],
      },
    ],
  },
  {
    name: 'a market order sweeps the levels and its unfilled rest expires',
    steps: [
      { command: limit('s1', A, 'sell', 100, 2), outcome: 'accepted' },
      { command: limit('s2', C, 'sell', 101, 2), outcome: 'accepted' },
      {
        command: market('m1', B, 'buy', 5),
        outcome: 'accepted',
        events: [
          'accepted m1',
          'trade s1/m1 2@100 m0 t3',
          'filled s1',
          'trade s2/m1 2@101 m0 t1',
          'filled s2',
          'ended m1 expired 1',
        ],
        asks: [],
      },
      { command: market('m2', B, 'sell', 3), outcome: 'accepted', events: ['accepted m2', 'ended m2 expired 3'] },
      { command: market('m3', B, 'sell', 3, { timeInForce: 'FOK' }), outcome: 'fok_not_fillable' },
    ],
  },
  {
    name: 'a market order by quote amount takes the whole lots its budget pays for',
    steps: [
      { command: limit('s1', A, 'sell', 100, 2), outcome: 'accepted' },
      { command: limit('s2', A, 'sell', 110, 5), outcome: 'accepted' },
      {
        // 2 x 100 = 200, then 250 left buys 2 x 110 = 220; 30 cannot pay for another lot.
        command: market('q1', B, 'buy', 10, { quoteAmount: 450n }),
        outcome: 'accepted',
        events: [
          'accepted q1',
          'trade s1/q1 2@100 m0 t8',
          'filled s1',
          'trade s2/q1 2@110 m3 t6',
          'ended q1 expired 6',
        ],
        asks: [['s2', 110, 3]],
      },
      {
        // The lot cap binds before the budget does.
        command: market('q2', B, 'buy', 1, { quoteAmount: 10_000n }),
        outcome: 'accepted',
        events: ['accepted q2', 'trade s2/q2 1@110 m2 t0', 'filled q2'],
      },
      { command: limit('q3', B, 'buy', 100, 1, { quoteAmount: 100n }), outcome: 'invalid_quote_budget' },
      { command: market('q3', B, 'buy', 1, { quoteAmount: 0n }), outcome: 'invalid_quote_budget' },
      {
        command: market('q3', B, 'buy', 1, { quoteAmount: 100n, timeInForce: 'FOK' }),
        outcome: 'invalid_time_in_force',
      },
      { command: oco('q3', B, 'sell', 120, 90, 1, { quoteAmount: 100n }), outcome: 'invalid_quote_budget' },
    ],
  },
  {
    name: 'amount limits apply to base quantities, not to orders sized by quote amount',
    rules: { minQuantityLots: 2, maxQuantityLots: 10 },
    steps: [
      { command: limit('s1', A, 'sell', 100, 1), outcome: 'quantity_below_minimum' },
      { command: limit('s1', A, 'sell', 100, 11), outcome: 'quantity_above_maximum' },
      { command: stop('stop_loss', 'st1', A, 'sell', 90, 11), outcome: 'quantity_above_maximum' },
      { command: limit('s1', A, 'sell', 100, 10), outcome: 'accepted', asks: [['s1', 100, 10]] },
      { command: market('m1', B, 'buy', 1), outcome: 'quantity_below_minimum' },
      {
        command: market('m1', B, 'buy', 1, { quoteAmount: 250n }),
        outcome: 'accepted',
        events: ['accepted m1', 'trade s1/m1 1@100 m9 t0', 'filled m1'],
      },
      {
        command: market('m2', B, 'buy', 50, { quoteAmount: 300n }),
        outcome: 'accepted',
        events: ['accepted m2', 'trade s1/m2 3@100 m6 t47', 'ended m2 expired 47'],
      },
    ],
  },
  {
    name: 'IOC expires its remainder and FOK is all or nothing',
    steps: [
      { command: limit('s1', A, 'sell', 100, 2), outcome: 'accepted' },
      {
        command: limit('b1', B, 'buy', 100, 5, { timeInForce: 'IOC' }),
        outcome: 'accepted',
        events: ['accepted b1', 'trade s1/b1 2@100 m0 t3', 'filled s1', 'ended b1 expired 3'],
        bids: [],
      },
      { command: limit('s2', A, 'sell', 100, 2), outcome: 'accepted' },
      {
        command: limit('b2', B, 'buy', 100, 3, { timeInForce: 'FOK' }),
        outcome: 'fok_not_fillable',
        asks: [['s2', 100, 2]],
      },
      {
        command: limit('b3', B, 'buy', 100, 2, { timeInForce: 'FOK' }),
        outcome: 'accepted',
        events: ['accepted b3', 'trade s2/b3 2@100 m0 t0', 'filled s2', 'filled b3'],
        asks: [],
      },
    ],
  },
  {
    name: 'post-only rests or is rejected, and only a plain GTC limit may be post-only',
    steps: [
      { command: limit('s1', A, 'sell', 100, 2), outcome: 'accepted' },
      { command: limit('p1', B, 'buy', 100, 1, { postOnly: true }), outcome: 'post_only_would_cross' },
      {
        command: limit('p1', B, 'buy', 99, 1, { postOnly: true }),
        outcome: 'accepted',
        events: ['accepted p1', 'rested p1 1@99'],
      },
      {
        command: limit('p2', B, 'buy', 98, 1, { postOnly: true, timeInForce: 'IOC' }),
        outcome: 'invalid_time_in_force',
      },
      { command: market('p2', B, 'buy', 1, { postOnly: true }), outcome: 'invalid_order_type' },
      { command: stop('stop_limit', 'p2', B, 'buy', 105, 1, 106, { postOnly: true }), outcome: 'invalid_order_type' },
      { command: oco('p2', B, 'buy', 95, 105, 1, { postOnly: true }), outcome: 'invalid_order_type' },
      // Moved across the book, a post-only order would take: the modify is rejected and nothing moves.
      { command: modify('p1', B, { priceTicks: 100 }), outcome: 'post_only_would_cross', bids: [['p1', 99, 1]] },
    ],
  },
  {
    name: 'a stop-loss sell triggers on a fall and its trades trigger the next stop in the same command',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: limit('b1', C, 'buy', 99, 2), outcome: 'accepted' },
      { command: limit('b2', C, 'buy', 97, 2), outcome: 'accepted' },
      { command: limit('b3', C, 'buy', 94, 5), outcome: 'accepted' },
      { command: stop('stop_loss', 'st1', A, 'sell', 100, 2), outcome: 'stop_would_trigger_immediately' },
      {
        command: stop('stop_loss', 'st1', A, 'sell', 98, 2),
        outcome: 'accepted',
        events: ['accepted st1'],
        waiting: ['st1'],
      },
      { command: stop('stop_loss', 'st2', B, 'sell', 96, 3), outcome: 'accepted', waiting: ['st1', 'st2'] },
      {
        command: market('m1', D, 'sell', 3),
        outcome: 'accepted',
        events: [
          'accepted m1',
          'trade b1/m1 2@99 m0 t1',
          'filled b1',
          'trade b2/m1 1@97 m1 t0',
          'filled m1',
          'triggered st1@97',
          'trade b2/st1 1@97 m0 t1',
          'filled b2',
          'trade b3/st1 1@94 m4 t0',
          'filled st1',
          'triggered st2@94',
          'trade b3/st2 3@94 m1 t0',
          'filled st2',
        ],
        bids: [['b3', 94, 1]],
        waiting: [],
      },
    ],
  },
  {
    name: 'a stop-limit buy triggers on a rise and rests at its limit price',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: limit('s1', C, 'sell', 102, 1), outcome: 'accepted' },
      { command: stop('stop_limit', 'sl1', A, 'buy', 100, 3, 103), outcome: 'stop_would_trigger_immediately' },
      { command: stop('stop_limit', 'sl1', A, 'buy', 101, 3, 103), outcome: 'accepted', waiting: ['sl1'] },
      {
        command: limit('b2', D, 'buy', 102, 1),
        outcome: 'accepted',
        events: [
          'accepted b2',
          'trade s1/b2 1@102 m0 t0',
          'filled s1',
          'filled b2',
          'triggered sl1@102',
          'rested sl1 3@103',
        ],
        bids: [['sl1', 103, 3]],
        asks: [],
        waiting: [],
      },
      // Once triggered it is a plain limit: it has no stop left to move.
      { command: modify('sl1', A, { stopPriceTicks: 104 }), outcome: 'invalid_stop_price' },
    ],
  },
  {
    name: 'take-profit sells on a rise and take-profit-limit buys on a fall',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: stop('take_profit', 'tp1', A, 'sell', 100, 2), outcome: 'stop_would_trigger_immediately' },
      { command: stop('take_profit', 'tp1', A, 'sell', 102, 2), outcome: 'accepted' },
      { command: stop('take_profit_limit', 'tl1', B, 'buy', 100, 1, 97), outcome: 'stop_would_trigger_immediately' },
      { command: stop('take_profit_limit', 'tl1', B, 'buy', 98, 1, 97), outcome: 'accepted', waiting: ['tp1', 'tl1'] },
      { command: limit('b1', C, 'buy', 101, 2), outcome: 'accepted' },
      { command: limit('s1', D, 'sell', 102, 1), outcome: 'accepted' },
      {
        command: limit('b2', C, 'buy', 102, 1),
        outcome: 'accepted',
        events: [
          'accepted b2',
          'trade s1/b2 1@102 m0 t0',
          'filled s1',
          'filled b2',
          'triggered tp1@102',
          'trade b1/tp1 2@101 m0 t0',
          'filled b1',
          'filled tp1',
        ],
        waiting: ['tl1'],
      },
      { command: limit('b3', C, 'buy', 98, 1), outcome: 'accepted' },
      {
        command: market('m1', D, 'sell', 1),
        outcome: 'accepted',
        events: [
          'accepted m1',
          'trade b3/m1 1@98 m0 t0',
          'filled b3',
          'filled m1',
          'triggered tl1@98',
          'rested tl1 1@97',
        ],
        bids: [['tl1', 97, 1]],
        waiting: [],
      },
    ],
  },
  {
    name: 'before any trade a stop is checked against the reference price, and waits when there is neither',
    steps: [
      {
        command: stop('stop_loss', 'st1', A, 'sell', 100, 1, null, { referencePriceTicks: 100 }),
        outcome: 'stop_would_trigger_immediately',
      },
      { command: stop('stop_loss', 'st1', A, 'sell', 99, 1, null, { referencePriceTicks: 100 }), outcome: 'accepted' },
      { command: stop('stop_loss', 'st2', B, 'sell', 150, 1), outcome: 'accepted', waiting: ['st1', 'st2'] },
      { command: limit('b0', C, 'buy', 100, 1), outcome: 'accepted' },
      {
        // The first trade triggers the stop that was above the market all along; no bid is left for it.
        command: limit('s0', D, 'sell', 100, 1),
        outcome: 'accepted',
        events: [
          'accepted s0',
          'trade b0/s0 1@100 m0 t0',
          'filled b0',
          'filled s0',
          'triggered st2@100',
          'ended st2 expired 1',
        ],
        waiting: ['st1'],
      },
    ],
  },
  {
    name: 'oco sell: a trade of the limit leg ends the stop leg and the order goes on as a plain limit',
    steps: [
      ...LAST_TRADE_AT_100,
      {
        command: oco('o1', A, 'sell', 105, 95, 4),
        outcome: 'accepted',
        events: ['accepted o1', 'rested o1 4@105'],
        asks: [['o1', 105, 4]],
        waiting: ['o1'],
      },
      {
        command: limit('b1', B, 'buy', 105, 1),
        outcome: 'accepted',
        events: ['accepted b1', 'trade o1/b1 1@105 m3 t0', 'filled b1'],
        asks: [['o1', 105, 3]],
        waiting: [],
      },
      { command: limit('b2', C, 'buy', 95, 1), outcome: 'accepted' },
      {
        command: market('m1', D, 'sell', 1),
        outcome: 'accepted',
        events: ['accepted m1', 'trade b2/m1 1@95 m0 t0', 'filled b2', 'filled m1'],
        asks: [['o1', 105, 3]],
      },
      { command: modify('o1', A, { stopPriceTicks: 90 }), outcome: 'invalid_stop_price' },
      {
        command: limit('b3', B, 'buy', 105, 3),
        outcome: 'accepted',
        events: ['accepted b3', 'trade o1/b3 3@105 m0 t0', 'filled o1', 'filled b3'],
        asks: [],
      },
    ],
  },
  {
    name: 'oco: a limit leg that trades on placement or on a modify ends its stop leg at once',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: limit('b1', C, 'buy', 106, 1), outcome: 'accepted' },
      {
        command: oco('o1', A, 'sell', 105, 95, 3),
        outcome: 'accepted',
        events: ['accepted o1', 'trade b1/o1 1@106 m0 t2', 'filled b1', 'rested o1 2@105'],
        bids: [],
        asks: [['o1', 105, 2]],
        waiting: [],
      },
      { command: cancel('o1', A), outcome: 'accepted', events: ['ended o1 cancelled 2'] },
      { command: oco('o2', B, 'sell', 110, 95, 2), outcome: 'accepted', waiting: ['o2'] },
      { command: limit('b2', C, 'buy', 108, 1), outcome: 'accepted' },
      {
        command: modify('o2', B, { priceTicks: 107 }),
        outcome: 'accepted',
        events: ['modified o2 q2 p107 s95 moved', 'trade b2/o2 1@108 m0 t1', 'filled b2', 'rested o2 1@107'],
        asks: [['o2', 107, 1]],
        waiting: [],
      },
      { command: modify('o2', B, { stopPriceTicks: 90 }), outcome: 'invalid_stop_price' },
    ],
  },
  {
    name: 'oco sell: the stop triggers, the limit leg leaves the book and the rest trades as a market order',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: oco('o1', A, 'sell', 105, 95, 4), outcome: 'accepted' },
      { command: limit('b1', C, 'buy', 95, 1), outcome: 'accepted' },
      { command: limit('b2', C, 'buy', 94, 2), outcome: 'accepted' },
      {
        command: market('m1', D, 'sell', 1),
        outcome: 'accepted',
        events: [
          'accepted m1',
          'trade b1/m1 1@95 m0 t0',
          'filled b1',
          'filled m1',
          'triggered o1@95',
          'trade b2/o1 2@94 m0 t2',
          'filled b2',
          'ended o1 expired 2',
        ],
        bids: [],
        asks: [],
        waiting: [],
      },
    ],
  },
  {
    name: 'oco buy with a stop-limit leg: the trigger moves it to the stop-limit price',
    steps: [
      ...LAST_TRADE_AT_100,
      {
        command: oco('o1', A, 'buy', 95, 105, 2, { stopLimitPriceTicks: 106 }),
        outcome: 'accepted',
        events: ['accepted o1', 'rested o1 2@95'],
        bids: [['o1', 95, 2]],
        waiting: ['o1'],
      },
      { command: limit('s1', C, 'sell', 105, 1), outcome: 'accepted' },
      {
        command: limit('b1', D, 'buy', 105, 1),
        outcome: 'accepted',
        events: [
          'accepted b1',
          'trade s1/b1 1@105 m0 t0',
          'filled s1',
          'filled b1',
          'triggered o1@105',
          'rested o1 2@106',
        ],
        bids: [['o1', 106, 2]],
        waiting: [],
      },
      {
        // A modify's price moves the order where it now rests.
        command: modify('o1', A, { priceTicks: 104 }),
        outcome: 'accepted',
        events: ['modified o1 q2 p104 s105 moved', 'rested o1 2@104'],
        bids: [['o1', 104, 2]],
      },
    ],
  },
  {
    name: 'oco legs must lie either side of the market',
    steps: [
      { command: oco('o1', A, 'sell', 100, 100, 1), outcome: 'invalid_stop_price' },
      { command: oco('o1', A, 'sell', 100, 90, 1, { timeInForce: 'IOC' }), outcome: 'invalid_time_in_force' },
      ...LAST_TRADE_AT_100,
      { command: oco('o1', A, 'buy', 101, 105, 1), outcome: 'invalid_price' },
      { command: oco('o1', A, 'buy', 95, 99, 1), outcome: 'invalid_stop_price' },
      { command: oco('o1', A, 'sell', 100, 95, 1), outcome: 'invalid_price' },
      { command: oco('o1', A, 'sell', 105, 100, 1), outcome: 'invalid_stop_price' },
      { command: oco('o1', A, 'sell', 105, 95, 1), outcome: 'accepted', waiting: ['o1'] },
    ],
  },
  {
    name: 'modify: lowering the quantity keeps priority, any other change places the order again',
    steps: [
      { command: limit('b1', A, 'buy', 99, 5), outcome: 'accepted' },
      { command: limit('b2', B, 'buy', 99, 5), outcome: 'accepted' },
      {
        command: modify('b1', A, { quantityLots: 3 }),
        outcome: 'accepted',
        events: ['modified b1 q3 p99 s- kept'],
        bids: [
          ['b1', 99, 3],
          ['b2', 99, 5],
        ],
      },
      {
        command: modify('b1', A, { quantityLots: 6 }),
        outcome: 'accepted',
        events: ['modified b1 q6 p99 s- moved', 'rested b1 6@99'],
        bids: [
          ['b2', 99, 5],
          ['b1', 99, 6],
        ],
      },
      {
        command: modify('b2', B, { priceTicks: 98 }),
        outcome: 'accepted',
        events: ['modified b2 q5 p98 s- moved', 'rested b2 5@98'],
        bids: [
          ['b1', 99, 6],
          ['b2', 98, 5],
        ],
      },
      { command: modify('b2', B, { quantityLots: 5, priceTicks: 98 }), outcome: 'invalid_modification' },
      { command: modify('b2', C, { quantityLots: 4 }), outcome: 'unknown_order' },
      { command: modify('nope', C, { quantityLots: 4 }), outcome: 'unknown_order' },
      {
        command: limit('s1', C, 'sell', 99, 2),
        outcome: 'accepted',
        events: ['accepted s1', 'trade b1/s1 2@99 m4 t0', 'filled s1'],
      },
      // The new total counts the 2 lots already filled.
      { command: modify('b1', A, { quantityLots: 2 }), outcome: 'invalid_modification' },
      { command: modify('b1', A, { quantityLots: 0 }), outcome: 'invalid_quantity' },
      {
        command: modify('b1', A, { quantityLots: 3 }),
        outcome: 'accepted',
        events: ['modified b1 q3 p99 s- kept'],
        bids: [
          ['b1', 99, 1],
          ['b2', 98, 5],
        ],
      },
      { command: limit('s2', D, 'sell', 100, 3), outcome: 'accepted' },
      {
        command: modify('b2', B, { priceTicks: 100 }),
        outcome: 'accepted',
        events: ['modified b2 q5 p100 s- moved', 'trade s2/b2 3@100 m0 t2', 'filled s2', 'rested b2 2@100'],
        bids: [
          ['b2', 100, 2],
          ['b1', 99, 1],
        ],
        asks: [],
      },
      { command: modify('b1', A, { priceTicks: 120 }, 100), outcome: 'price_outside_band' },
      { command: modify('b1', A, { quantityLots: 2_000 }), outcome: 'quantity_above_maximum' },
      { command: modify('b1', A, { stopPriceTicks: 90 }), outcome: 'invalid_stop_price' },
      // Unchanged prices are not checked against today's band.
      {
        command: modify('b2', B, { quantityLots: 4, priceTicks: 100 }, 200),
        outcome: 'accepted',
        events: ['modified b2 q4 p100 s- kept'],
      },
    ],
  },
  {
    name: 'modify a waiting order: it keeps waiting with its new values, at the back of the queue',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: stop('stop_loss', 'st1', A, 'sell', 95, 2), outcome: 'accepted' },
      { command: stop('stop_loss', 'st2', B, 'sell', 94, 1), outcome: 'accepted', waiting: ['st1', 'st2'] },
      {
        command: modify('st1', A, { stopPriceTicks: 96 }),
        outcome: 'accepted',
        events: ['modified st1 q2 p- s96 moved'],
        waiting: ['st2', 'st1'],
      },
      { command: modify('st1', A, { stopPriceTicks: 100 }), outcome: 'stop_would_trigger_immediately' },
      { command: modify('st1', A, { stopPriceTicks: 80 }, 100), outcome: 'price_outside_band' },
      { command: modify('st1', A, { priceTicks: 90 }), outcome: 'invalid_price' },
      {
        command: modify('st1', A, { quantityLots: 1 }),
        outcome: 'accepted',
        events: ['modified st1 q1 p- s96 kept'],
        waiting: ['st2', 'st1'],
      },
      { command: oco('o1', C, 'sell', 105, 95, 2), outcome: 'accepted', asks: [['o1', 105, 2]] },
      {
        command: modify('o1', C, { priceTicks: 104 }),
        outcome: 'accepted',
        events: ['modified o1 q2 p104 s95 moved', 'rested o1 2@104'],
        asks: [['o1', 104, 2]],
        waiting: ['st2', 'st1', 'o1'],
      },
      { command: modify('o1', C, { stopPriceTicks: 101 }), outcome: 'invalid_stop_price' },
      { command: modify('o1', C, { priceTicks: 99 }), outcome: 'invalid_price' },
      {
        command: modify('o1', C, { quantityLots: 1 }),
        outcome: 'accepted',
        events: ['modified o1 q1 p104 s95 kept'],
        asks: [['o1', 104, 1]],
        waiting: ['st2', 'st1', 'o1'],
      },
      {
        command: cancel('o1', C),
        outcome: 'accepted',
        events: ['ended o1 cancelled 1'],
        asks: [],
        waiting: ['st2', 'st1'],
      },
      { command: cancel('st2', A), outcome: 'unknown_order' },
      { command: cancel('st2', B), outcome: 'accepted', events: ['ended st2 cancelled 1'], waiting: ['st1'] },
      { command: cancel('st2', B), outcome: 'unknown_order' },
    ],
  },
  {
    name: 'cancel ends a resting order with its unfilled lots',
    steps: [
      { command: limit('s1', A, 'sell', 100, 5), outcome: 'accepted' },
      { command: limit('b1', B, 'buy', 100, 2), outcome: 'accepted' },
      { command: cancel('s1', B), outcome: 'unknown_order', asks: [['s1', 100, 3]] },
      { command: cancel('s1', A), outcome: 'accepted', events: ['ended s1 cancelled 3'], asks: [] },
    ],
  },
  {
    name: 'self-trade prevention: cancel_newest (the default) ends the incoming order',
    steps: [
      { command: limit('s1', A, 'sell', 100, 2), outcome: 'accepted' },
      {
        command: limit('b1', A, 'buy', 100, 3),
        outcome: 'accepted',
        events: ['accepted b1', 'ended b1 self_trade_prevented 3'],
        bids: [],
        asks: [['s1', 100, 2]],
      },
    ],
  },
  {
    name: 'self-trade prevention: cancel_oldest ends the own resting order in the order met and goes on',
    steps: [
      { command: limit('s0', C, 'sell', 99, 1), outcome: 'accepted' },
      { command: limit('s1', A, 'sell', 100, 2), outcome: 'accepted' },
      { command: limit('s2', B, 'sell', 100, 1), outcome: 'accepted' },
      {
        command: limit('b1', A, 'buy', 100, 3, { selfTradePrevention: 'cancel_oldest' }),
        outcome: 'accepted',
        events: [
          'accepted b1',
          'trade s0/b1 1@99 m0 t2',
          'filled s0',
          'ended s1 self_trade_prevented 2',
          'trade s2/b1 1@100 m0 t1',
          'filled s2',
          'rested b1 1@100',
        ],
        bids: [['b1', 100, 1]],
        asks: [],
      },
    ],
  },
  {
    name: 'self-trade prevention: cancel_both from the rules ends both orders',
    rules: { selfTradePrevention: 'cancel_both' },
    steps: [
      { command: limit('s1', A, 'sell', 100, 2), outcome: 'accepted' },
      {
        command: limit('b1', A, 'buy', 100, 1),
        outcome: 'accepted',
        events: ['accepted b1', 'ended s1 self_trade_prevented 2', 'ended b1 self_trade_prevented 1'],
        bids: [],
        asks: [],
      },
    ],
  },
  {
    name: 'the price band bounds limit and stop prices, inclusive of its edges',
    steps: [
      { command: limit('b1', A, 'buy', 89, 1, { referencePriceTicks: 100 }), outcome: 'price_outside_band' },
      { command: limit('b1', A, 'buy', 90, 1, { referencePriceTicks: 100 }), outcome: 'accepted' },
      { command: limit('s1', A, 'sell', 111, 1, { referencePriceTicks: 100 }), outcome: 'price_outside_band' },
      { command: limit('s1', A, 'sell', 110, 1, { referencePriceTicks: 100 }), outcome: 'accepted' },
      { command: limit('s2', A, 'sell', 500, 1), outcome: 'accepted' },
      {
        command: stop('stop_loss', 'st1', B, 'sell', 89, 1, null, { referencePriceTicks: 100 }),
        outcome: 'price_outside_band',
      },
      {
        command: stop('stop_limit', 'st1', B, 'sell', 95, 1, 80, { referencePriceTicks: 100 }),
        outcome: 'price_outside_band',
      },
      {
        command: oco('o1', B, 'buy', 95, 105, 1, { referencePriceTicks: 100, stopLimitPriceTicks: 115 }),
        outcome: 'price_outside_band',
      },
    ],
  },
  {
    name: 'a market order never trades beyond the band edge, rounded inward to a whole tick',
    steps: [
      { command: limit('s1', C, 'sell', 105, 1), outcome: 'accepted' },
      { command: limit('s2', C, 'sell', 111, 1), outcome: 'accepted' },
      { command: limit('s3', C, 'sell', 112, 1), outcome: 'accepted' },
      {
        // Reference 101 and 10 %: the buy edge is 111.1, so 111.
        command: market('m1', B, 'buy', 3, { referencePriceTicks: 101 }),
        outcome: 'accepted',
        events: [
          'accepted m1',
          'trade s1/m1 1@105 m0 t2',
          'filled s1',
          'trade s2/m1 1@111 m0 t1',
          'filled s2',
          'ended m1 expired 1',
        ],
        asks: [['s3', 112, 1]],
      },
      { command: limit('b1', C, 'buy', 91, 1), outcome: 'accepted' },
      { command: limit('b2', C, 'buy', 90, 1), outcome: 'accepted' },
      {
        // The sell edge is 90.9, so 91.
        command: market('m2', B, 'sell', 2, { referencePriceTicks: 101 }),
        outcome: 'accepted',
        events: ['accepted m2', 'trade b1/m2 1@91 m0 t1', 'filled b1', 'ended m2 expired 1'],
        bids: [['b2', 90, 1]],
      },
      {
        // Without a reference price there is no band and no protection.
        command: market('m3', B, 'buy', 1),
        outcome: 'accepted',
        events: ['accepted m3', 'trade s3/m3 1@112 m0 t0', 'filled s3', 'filled m3'],
      },
    ],
  },
  {
    name: 'a triggered market stop is protected by the band of the command that triggered it',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: stop('stop_loss', 'st1', A, 'sell', 98, 2), outcome: 'accepted' },
      { command: limit('b1', C, 'buy', 98, 1), outcome: 'accepted' },
      { command: limit('b2', C, 'buy', 85, 5), outcome: 'accepted' },
      {
        command: market('m1', D, 'sell', 1, { referencePriceTicks: 100 }),
        outcome: 'accepted',
        events: [
          'accepted m1',
          'trade b1/m1 1@98 m0 t0',
          'filled b1',
          'filled m1',
          'triggered st1@98',
          'ended st1 expired 2',
        ],
        bids: [['b2', 85, 5]],
      },
    ],
  },
  {
    name: 'a stop-loss sized by quote amount trades as a market order by quote once triggered',
    steps: [
      ...LAST_TRADE_AT_100,
      { command: stop('stop_loss', 'st1', A, 'sell', 99, 10, null, { quoteAmount: 300n }), outcome: 'accepted' },
      { command: limit('b1', C, 'buy', 99, 1), outcome: 'accepted' },
      { command: limit('b2', C, 'buy', 98, 5), outcome: 'accepted' },
      {
        // The stop sells until one more lot would take it past 300: 3 x 98 = 294.
        command: market('m1', D, 'sell', 1),
        outcome: 'accepted',
        events: [
          'accepted m1',
          'trade b1/m1 1@99 m0 t0',
          'filled b1',
          'filled m1',
          'triggered st1@99',
          'trade b2/st1 3@98 m2 t7',
          'ended st1 expired 7',
        ],
      },
    ],
  },
  {
    name: 'malformed orders are rejected with named reasons',
    steps: [
      { command: limit('x', A, 'buy', 99, 0), outcome: 'invalid_quantity' },
      { command: limit('x', A, 'buy', 99, 1.5), outcome: 'invalid_quantity' },
      { command: limit('x', A, 'buy', 0, 1), outcome: 'invalid_price' },
      { command: place('limit', 'x', A, 'buy', 1, {}), outcome: 'invalid_price' },
      { command: place('market', 'x', A, 'buy', 1, { priceTicks: 100 }), outcome: 'invalid_price' },
      {
        command: place('limit', 'x', A, 'buy', 1, { priceTicks: 99, stopPriceTicks: 98 }),
        outcome: 'invalid_stop_price',
      },
      { command: place('stop_loss', 'x', A, 'sell', 1, {}), outcome: 'invalid_stop_price' },
      { command: place('stop_limit', 'x', A, 'sell', 1, { stopPriceTicks: 90 }), outcome: 'invalid_price' },
      {
        command: stop('stop_loss', 'x', A, 'sell', 90, 1, null, { stopLimitPriceTicks: 89 }),
        outcome: 'invalid_price',
      },
      {
        command: stop('stop_loss', 'x', A, 'sell', 90, 1, null, { timeInForce: 'IOC' }),
        outcome: 'invalid_time_in_force',
      },
      { command: market('x', A, 'buy', 1, { timeInForce: 'GTC' }), outcome: 'invalid_time_in_force' },
      {
        command: { ...market('x', A, 'buy', 1), type: 'iceberg' as MarketOrderType },
        outcome: 'invalid_order_type',
      },
      { command: limit('x', A, 'buy', 99, 1), outcome: 'accepted' },
      { command: limit('x', B, 'sell', 120, 1), outcome: 'duplicate_order_id' },
      { command: stop('stop_loss', 'y', A, 'sell', 90, 1), outcome: 'accepted' },
      { command: limit('y', B, 'sell', 120, 1), outcome: 'duplicate_order_id' },
    ],
  },
];

/** The checks that run after every step: the book is sound and the engine's orders match it exactly. */
function checkEngine(engine: MarketEngine, book: OrderBook): void {
  const snapshot = engine.snapshot();
  checkBookSide(snapshot.book.bids, 'buy');
  checkBookSide(snapshot.book.asks, 'sell');
  const bestBid = engine.bestBid();
  const bestAsk = engine.bestAsk();
  if (bestBid !== null && bestAsk !== null) expect(bestBid < bestAsk).toBe(true);
  expect(engine.openOrders()).toEqual(snapshot.orders);
  const waiting = snapshot.orders.filter((order) => order.state === 'waiting_trigger').map((order) => order.orderId);
  expect(snapshot.waitingOrderIds).toEqual(waiting);
  const inBook = new Map<string, EngineOrder>();
  for (const order of snapshot.orders) {
    expect(order.filledLots + order.remainingLots).toBe(order.quantityLots);
    expect(order.remainingLots > 0).toBe(true);
    expect(engine.order(order.orderId)).toEqual(order);
    if (order.state === 'resting' || order.limitLegResting) inBook.set(order.orderId, order);
  }
  const resting = [...book.orders('buy'), ...book.orders('sell')];
  expect(resting.map((order) => order.orderId).sort()).toEqual([...inBook.keys()].sort());
  for (const order of resting) expect(order.remainingLots).toBe(inBook.get(order.orderId)?.remainingLots);
}

function checkBookSide(orders: RestingOrder[], side: Side): void {
  for (const [index, order] of orders.entries()) {
    const next = orders[index + 1];
    if (next === undefined) continue;
    if (side === 'buy') expect(order.priceTicks >= next.priceTicks).toBe(true);
    else expect(order.priceTicks <= next.priceTicks).toBe(true);
    // Orders triggered by one command share its sequence, so equal sequences may meet at a price.
    if (order.priceTicks === next.priceTicks) expect(order.sequence <= next.sequence).toBe(true);
  }
}

function commandAt(draft: Draft, sequence: number): MarketCommand {
  return { ...draft, sequence, timestampMs: 1_700_000_000_000 + sequence } as MarketCommand;
}

function newEngine(create: () => OrderBook, rules: Partial<MarketRules> = {}) {
  const book = create();
  return { book, engine: new MarketEngine(book, { ...DEFAULT_RULES, ...rules }) };
}

describe.each(ORDER_BOOK_IMPLEMENTATIONS)('MarketEngine on $name', ({ create }) => {
  it.each(scenarios)('$name', ({ rules, steps }) => {
    const { book, engine } = newEngine(create, rules);
    for (const [index, step] of steps.entries()) {
      const where = `step ${index}`;
      const hashBefore = engine.stateHash();
      const result = engine.apply(commandAt(step.command, index + 1));
      expect(result.status === 'accepted' ? 'accepted' : result.reason, where).toBe(step.outcome);
      expect(result.sequence, where).toBe(index + 1);
      if (result.status === 'rejected') {
        expect(result.events, where).toEqual([]);
        expect(engine.stateHash(), `${where}: a reject changes nothing`).toBe(hashBefore);
      }
      if (step.events !== undefined) expect(result.events.map(describeEvent), where).toEqual(step.events);
      if (step.bids !== undefined) expect(sideView(book, 'buy'), where).toEqual(step.bids);
      if (step.asks !== undefined) expect(sideView(book, 'sell'), where).toEqual(step.asks);
      if (step.waiting !== undefined) expect(engine.snapshot().waitingOrderIds, where).toEqual(step.waiting);
      checkEngine(engine, book);
    }
  });

  it('numbers trades per command across triggered orders and reports remaining lots on both sides', () => {
    const { engine } = newEngine(create);
    const drafts: Draft[] = [
      ...LAST_TRADE_AT_100.map((step) => step.command),
      limit('b1', C, 'buy', 99, 1),
      limit('b2', C, 'buy', 98, 2),
      stop('stop_loss', 'st1', A, 'sell', 99, 2),
    ];
    for (const [index, draft] of drafts.entries()) engine.apply(commandAt(draft, index + 1));
    const result = engine.apply(commandAt(market('m1', D, 'sell', 1), 40));
    const trades = result.events.filter((event) => event.type === 'trade');
    expect(trades).toHaveLength(2);
    expect(trades.map((trade) => (trade.type === 'trade' ? trade.tradeId : ''))).toEqual(['40:0', '40:1']);
    expect(trades[1]).toEqual({
      type: 'trade',
      tradeId: '40:1',
      makerOrderId: 'b2',
      makerAccountId: C,
      takerOrderId: 'st1',
      takerAccountId: A,
      takerSide: 'sell',
      priceTicks: 98,
      quantityLots: 2,
      makerRemainingLots: 0,
      takerRemainingLots: 0,
    });
    expect(result.events[0]).toEqual({ type: 'accepted', orderId: 'm1', accountId: D });
  });

  it('reports open orders, resting and waiting, with their state', () => {
    const { engine } = newEngine(create);
    const drafts: Draft[] = [
      ...LAST_TRADE_AT_100.map((step) => step.command),
      limit('b1', A, 'buy', 99, 5),
      stop('stop_loss', 'st1', A, 'sell', 95, 2),
      oco('o1', B, 'sell', 105, 95, 3),
      limit('s1', C, 'sell', 99, 2),
    ];
    for (const [index, draft] of drafts.entries()) engine.apply(commandAt(draft, index + 1));
    expect(engine.order('b1')).toMatchObject({ state: 'resting', quantityLots: 5, filledLots: 2, remainingLots: 3 });
    expect(engine.order('st1')).toMatchObject({ state: 'waiting_trigger', limitLegResting: false, remainingLots: 2 });
    expect(engine.order('o1')).toMatchObject({ state: 'waiting_trigger', limitLegResting: true, priceTicks: 105 });
    expect(engine.order('s1')).toBeNull();
    expect(engine.openOrders().map((order) => order.orderId)).toEqual(['b1', 'st1', 'o1']);
    expect(engine.lastTradePrice()).toBe(99);
    expect(engine.bestBid()).toBe(99);
    expect(engine.bestAsk()).toBe(105);
    expect(engine.depth(1)).toEqual({
      bids: [{ priceTicks: 99, quantityLots: 3, orderCount: 1 }],
      asks: [{ priceTicks: 105, quantityLots: 3, orderCount: 1 }],
    });
    // A copy: changing it changes nothing inside.
    const copy = engine.order('b1')!;
    copy.remainingLots = 1;
    expect(engine.order('b1')?.remainingLots).toBe(3);
  });

  it('throws when the sequence does not increase, and counts only accepted commands', () => {
    const { engine } = newEngine(create);
    expect(engine.lastSequence()).toBe(0);
    engine.apply(commandAt(limit('b1', A, 'buy', 99, 1), 5));
    expect(engine.apply(commandAt(limit('b2', A, 'buy', 0, 1), 6)).status).toBe('rejected');
    expect(engine.lastSequence()).toBe(5);
    const hash = engine.stateHash();
    expect(() => engine.apply(commandAt(limit('b3', A, 'buy', 99, 1), 5))).toThrow(/sequence/);
    expect(() => engine.apply(commandAt(cancel('b1', A), 4))).toThrow(/sequence/);
    expect(engine.stateHash()).toBe(hash);
    expect(engine.apply(commandAt(cancel('b1', A), 7)).status).toBe('accepted');
    expect(engine.lastSequence()).toBe(7);
  });

  it('restores a snapshot into a fresh engine that then behaves the same', () => {
    const drafts: Draft[] = [
      ...LAST_TRADE_AT_100.map((step) => step.command),
      limit('b1', A, 'buy', 99, 5),
      stop('stop_loss', 'st1', A, 'sell', 98, 2),
      oco('o1', B, 'sell', 105, 97, 3, { stopLimitPriceTicks: 96 }),
      limit('b2', C, 'buy', 97, 4),
    ];
    const rest: Draft[] = [market('m1', D, 'sell', 6), modify('o1', B, { priceTicks: 95 }), cancel('b2', C)];
    const { engine: original } = newEngine(create);
    for (const [index, draft] of drafts.entries()) original.apply(commandAt(draft, index + 1));
    const snapshot: MarketSnapshot = original.snapshot();
    const { engine: restored } = newEngine(create);
    restored.restore(structuredClone(snapshot));
    expect(restored.stateHash()).toBe(original.stateHash());
    expect(restored.snapshot()).toEqual(snapshot);
    for (const [index, draft] of rest.entries()) {
      const command = commandAt(draft, 100 + index);
      expect(restored.apply(command)).toEqual(original.apply(command));
    }
    expect(restored.stateHash()).toBe(original.stateHash());
  });

  it('refuses an inconsistent snapshot and keeps its state', () => {
    const { engine } = newEngine(create);
    engine.apply(commandAt(limit('b1', A, 'buy', 99, 5), 1));
    const snapshot = engine.snapshot();
    const hash = engine.stateHash();
    const lost = { ...snapshot, orders: [] };
    const stray = { ...snapshot, waitingOrderIds: ['b1'] };
    expect(() => engine.restore(lost)).toThrow();
    expect(() => engine.restore(stray)).toThrow();
    expect(engine.stateHash()).toBe(hash);
  });

  it('hashes waiting orders and the sequence, not only the book', () => {
    const { engine } = newEngine(create);
    const empty = engine.stateHash();
    expect(empty).toMatch(/^[0-9a-f]{16}$/);
    engine.apply(commandAt(stop('stop_loss', 'st1', A, 'sell', 95, 2), 1));
    const waiting = engine.stateHash();
    expect(waiting).not.toBe(empty);
    engine.apply(commandAt(modify('st1', A, { stopPriceTicks: 94 }), 2));
    expect(engine.stateHash()).not.toBe(waiting);
  });

  it('takes new rules for later commands', () => {
    const { engine } = newEngine(create);
    engine.setRules({ ...DEFAULT_RULES, maxQuantityLots: 2 });
    expect(engine.apply(commandAt(limit('b1', A, 'buy', 99, 3), 1))).toMatchObject({
      status: 'rejected',
      reason: 'quantity_above_maximum',
    });
    expect(() => engine.setRules({ ...DEFAULT_RULES, minQuantityLots: 0 })).toThrow();
  });

  it('needs an empty book to start from', () => {
    const book = create();
    book.place({
      orderId: 'x',
      accountId: A,
      side: 'buy',
      type: 'limit',
      priceTicks: 99,
      quantityLots: 1,
      timeInForce: 'GTC',
      postOnly: false,
      timestampMs: 1,
      sequence: 1,
    });
    expect(() => new MarketEngine(book, DEFAULT_RULES)).toThrow(/empty book/);
  });
});
