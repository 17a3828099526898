/**
 * Commands, results and fills of the matching engine. Prices are integer ticks and quantities integer
 * lots (bigint), so no floating-point value ever reaches the book. Time and sequence numbers arrive with
 * each command because the engine reads no clock.
 */

export type Side = 'buy' | 'sell';
export type OrderType = 'limit' | 'market';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';

/** Only 'cancel_newest' exists yet: the incoming order's remainder is cancelled, the resting order stays. */
export type SelfTradePreventionMode = 'cancel_newest';

export interface PlaceCommand {
  orderId: string;
  accountId: string;
  side: Side;
  type: OrderType;
  /** Limit price in ticks; ignored for market orders, which take any price. */
  priceTicks: bigint;
  /** Base quantity in lots. */
  quantityLots: bigint;
  timeInForce: TimeInForce;
  postOnly: boolean;
  timestampMs: number;
  sequence: number;
}

export interface RestingOrder {
  orderId: string;
  accountId: string;
  side: Side;
  priceTicks: bigint;
  /** The quantity still open in the book. */
  remainingLots: bigint;
  /** The quantity the order was placed with; reductions do not change it. */
  originalLots: bigint;
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
  priceTicks: bigint;
  quantityLots: bigint;
  /** The sequence of the command that caused the fill. */
  sequence: number;
}

export type RejectReason =
  | 'invalid_quantity'
  | 'invalid_price'
  | 'invalid_time_in_force'
  | 'invalid_order_type'
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
  post_only_would_cross: 1101,
  fok_not_fillable: 1102,
  unknown_order: 1201,
} as const satisfies Record<RejectReason | 'accepted', number>;

export type PlaceResult =
  | {
      status: 'accepted';
      orderId: string;
      fills: Fill[];
      filledLots: bigint;
      restingLots: bigint;
      cancelledLots: bigint;
      remainderCancelReason: RemainderCancelReason | null;
    }
  | { status: 'rejected'; orderId: string; reason: RejectReason; fills: [] };

export type CancelResult =
  | { status: 'cancelled'; orderId: string; cancelledLots: bigint }
  | { status: 'rejected'; orderId: string; reason: 'unknown_order' };

export type ReduceResult =
  | { status: 'reduced'; orderId: string; restingLots: bigint; cancelledLots: bigint }
  | { status: 'rejected'; orderId: string; reason: 'unknown_order' | 'invalid_quantity' };

export interface DepthLevel {
  priceTicks: bigint;
  quantityLots: bigint;
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
  lastTradePriceTicks: bigint | null;
}
