/**
 * Commands, results and fills of the matching engine. Prices are integer ticks and quantities integer
 * lots (number), so no floating-point value ever reaches the book. Time and sequence numbers arrive with
 * each command because the engine reads no clock.
 */

export type Side = 'buy' | 'sell';
export type OrderType = 'limit' | 'market';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';

/**
 * What happens when an order would trade with a resting order of the same account:
 * - cancel_newest: the incoming order's remainder is cancelled, the resting order stays (the default);
 * - cancel_oldest: the resting order is cancelled and matching goes on;
 * - cancel_both: both the resting order and the incoming order's remainder are cancelled.
 */
export type SelfTradePreventionMode = 'cancel_newest' | 'cancel_oldest' | 'cancel_both';

/** Ticks and lots are safe integers: at most 2^53 - 1, so no precision is ever lost. */
export const MAX_UNITS = Number.MAX_SAFE_INTEGER;

export interface PlaceCommand {
  orderId: string;
  accountId: string;
  side: Side;
  type: OrderType;
  /**
   * Limit price in ticks. For a market order it is a protection price (the worst price it may
   * trade at), or 0 for none.
   */
  priceTicks: number;
  /** Base quantity in lots; for a market order with a quote budget, the most lots it may take. */
  quantityLots: number;
  /**
   * Market orders by quote amount: the most the order may spend (buy) or receive (sell), in notional
   * units of ticks x lots (bigint, because that product can pass 2^53). Only whole lots trade.
   */
  quoteBudget?: bigint;
  /** Overrides the book's self-trade prevention mode for this order. */
  selfTradePrevention?: SelfTradePreventionMode;
  timeInForce: TimeInForce;
  postOnly: boolean;
  timestampMs: number;
  sequence: number;
}

export interface RestingOrder {
  orderId: string;
  accountId: string;
  side: Side;
  priceTicks: number;
  /** The quantity still open in the book. */
  remainingLots: number;
  /** The quantity the order was placed with; reductions do not change it. */
  originalLots: number;
  timestampMs: number;
  sequence: number;
}

export interface Fill {
  makerOrderId: string;
  takerOrderId: string;
  makerAccountId: string;
  takerAccountId: string;
  takerSide: Side;
  /** Always the maker's price. */
  priceTicks: number;
  quantityLots: number;
  /** The sequence of the command that caused the fill. */
  sequence: number;
}

export type RejectReason =
  | 'invalid_quantity'
  | 'invalid_price'
  | 'invalid_time_in_force'
  | 'invalid_order_type'
  | 'invalid_quote_budget'
  | 'duplicate_order_id'
  | 'post_only_would_cross'
  | 'fok_not_fillable'
  | 'unknown_order';

/** Why the unfilled part of an accepted order did not rest in the book. */
export type RemainderCancelReason = 'ioc_remainder' | 'market_remainder' | 'self_trade_prevented';

/**
 * Numeric result codes, banded per subsystem in the manner of exchange-core: the engine owns 1000-1999,
 * 0 is success. The names are the stable contract; the numbers exist for compact journals and metrics.
 */
export const ENGINE_RESULT_CODES = {
  accepted: 0,
  invalid_quantity: 1001,
  invalid_price: 1002,
  invalid_time_in_force: 1003,
  invalid_order_type: 1004,
  duplicate_order_id: 1005,
  invalid_quote_budget: 1006,
  post_only_would_cross: 1101,
  fok_not_fillable: 1102,
  unknown_order: 1201,
} as const satisfies Record<RejectReason | 'accepted', number>;

/** A resting order removed by self-trade prevention (modes cancel_oldest and cancel_both). */
export interface CancelledMaker {
  orderId: string;
  accountId: string;
  side: Side;
  priceTicks: number;
  cancelledLots: number;
}

export type PlaceResult =
  | {
      status: 'accepted';
      orderId: string;
      fills: Fill[];
      /** Resting orders of the same account cancelled by self-trade prevention, in the order met. */
      cancelledMakers: CancelledMaker[];
      filledLots: number;
      restingLots: number;
      cancelledLots: number;
      remainderCancelReason: RemainderCancelReason | null;
    }
  | { status: 'rejected'; orderId: string; reason: RejectReason; fills: []; cancelledMakers: [] };

export type CancelResult =
  | { status: 'cancelled'; orderId: string; cancelledLots: number }
  | { status: 'rejected'; orderId: string; reason: 'unknown_order' };

export type ReduceResult =
  | { status: 'reduced'; orderId: string; restingLots: number; cancelledLots: number }
  | { status: 'rejected'; orderId: string; reason: 'unknown_order' | 'invalid_quantity' };

export interface DepthLevel {
  priceTicks: number;
  quantityLots: number;
  orderCount: number;
}

export interface BookDepth {
  bids: DepthLevel[];
  asks: DepthLevel[];
}

export interface BookSnapshot {
  version: 1;
  /** Best price first, then arrival order within a price. */
  bids: RestingOrder[];
  asks: RestingOrder[];
  lastTradePriceTicks: number | null;
}
