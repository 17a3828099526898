/**
 * The market engine's command and event contract: what the server's sequencer journals and applies,
 * and what it turns into ledger postings, order rows, trades and socket messages.
 *
 * A MarketEngine wraps one OrderBook (reference or fast) and adds what the book itself does not
 * know: stop orders that wait for the last trade price, OCO pairs, take-profit orders, modify
 * rules, self-trade prevention choice, and the trading pair's rules (amount limits and a price
 * band around the reference price). Everything is integer ticks and lots, as in the book.
 *
 * Determinism: a command carries everything the engine needs (sequence, time, the reference price
 * at the moment the sequencer took it), so applying the same journal to a fresh engine gives the
 * same events and the same state hash.
 */
import type { SelfTradePreventionMode, Side, TimeInForce } from './types.ts';

export type MarketOrderType =
  | 'market'
  | 'limit'
  /** Stop market: waits until the last trade price reaches the stop (falls for a sell, rises for a buy), then trades as a market order. */
  | 'stop_loss'
  /** As stop_loss, then rests or trades as a limit order at priceTicks. */
  | 'stop_limit'
  /** Waits until the last trade price reaches the stop in the favourable direction (rises for a sell, falls for a buy), then trades as a market order. */
  | 'take_profit'
  /** As take_profit, then a limit order at priceTicks. */
  | 'take_profit_limit'
  /**
   * One cancels the other: a limit leg at priceTicks that rests at once, and a stop leg with its
   * trigger at stopPriceTicks (a stop market, or a stop limit at stopLimitPriceTicks). Any fill of
   * the limit leg cancels the stop leg; the stop triggering cancels the limit leg. Both legs share
   * the order id and the quantity.
   */
  | 'oco';

/** The pair's rules in ticks and lots. */
export interface MarketRules {
  /** Smallest and largest order quantity in lots (from min_trade_amount and max_trade_amount). */
  minQuantityLots: number;
  maxQuantityLots: number;
  /**
   * Limit prices, stop prices and market protection must lie within this many basis points of the
   * reference price carried by the command (1000 = 10 %). No band when the command has no reference price.
   */
  priceBandBps: number;
  /** Default self-trade prevention; an order may choose another. */
  selfTradePrevention: SelfTradePreventionMode;
}

interface CommandBase {
  /** Strictly increasing per market; assigned by the sequencer. */
  sequence: number;
  timestampMs: number;
}

export interface PlaceOrderCommand extends CommandBase {
  kind: 'place';
  orderId: string;
  accountId: string;
  side: Side;
  type: MarketOrderType;
  /** Base quantity in lots. For a market order by quote amount, the most lots it may take (the server's cap). */
  quantityLots: number;
  /**
   * Market orders (and stop_loss / take_profit once triggered) by quote amount: the most to spend
   * (buy) or to receive (sell), in notional units of ticks x lots. null: by base quantity.
   */
  quoteAmount: bigint | null;
  /** Limit price: limit, stop_limit, take_profit_limit, and the limit leg of an oco. null otherwise. */
  priceTicks: number | null;
  /** Trigger price: stop_loss, stop_limit, take_profit, take_profit_limit, and the stop leg of an oco. */
  stopPriceTicks: number | null;
  /** The oco's stop leg trades as a limit at this price once triggered; null makes it a stop market. */
  stopLimitPriceTicks: number | null;
  /** Limit orders: GTC, IOC or FOK. Market orders: IOC or FOK. Stop and oco orders: GTC (the default). */
  timeInForce: TimeInForce;
  postOnly: boolean;
  selfTradePrevention: SelfTradePreventionMode | null;
  /** The pair's reference price (F2 feed) when the sequencer took the command, for the price band; null when unknown. */
  referencePriceTicks: number | null;
}

export interface CancelOrderCommand extends CommandBase {
  kind: 'cancel';
  orderId: string;
  /** Must own the order, or the engine answers unknown_order. */
  accountId: string;
}

/**
 * Changes an open order. Lowering only the quantity of a resting order keeps its place in the queue;
 * any other change (a higher quantity, a new price or stop price) cancels it and places it again
 * under the same id with the new values and a new place in time (which may trade at once).
 */
export interface ModifyOrderCommand extends CommandBase {
  kind: 'modify';
  orderId: string;
  accountId: string;
  /** The new total quantity in lots (filled lots included); it must exceed what has already filled. null: unchanged. */
  quantityLots: number | null;
  priceTicks: number | null;
  stopPriceTicks: number | null;
  referencePriceTicks: number | null;
}

export type MarketCommand = PlaceOrderCommand | CancelOrderCommand | ModifyOrderCommand;

export type MarketRejectReason =
  | 'invalid_quantity'
  | 'invalid_price'
  | 'invalid_stop_price'
  | 'invalid_time_in_force'
  | 'invalid_order_type'
  | 'invalid_quote_budget'
  | 'quantity_below_minimum'
  | 'quantity_above_maximum'
  | 'price_outside_band'
  /** A stop whose condition already holds against the last trade price. */
  | 'stop_would_trigger_immediately'
  | 'duplicate_order_id'
  | 'post_only_would_cross'
  | 'fok_not_fillable'
  | 'unknown_order'
  /** Modify: the new quantity is not above the filled quantity, or nothing changes. */
  | 'invalid_modification';

/** Why an order left the engine without filling completely. */
export type OrderEndReason =
  | 'cancelled'
  /** IOC remainder, or a market order the book could not fill (book empty, protection price, budget). */
  | 'expired'
  | 'self_trade_prevented'
  /** The other leg of its oco filled or triggered. */
  | 'oco_cancelled';

/** How an order stands after an event. */
export type EngineOrderState =
  /** A stop, take-profit or the stop leg of an untriggered oco, waiting for its trigger (an oco's limit leg may rest meanwhile). */
  'waiting_trigger' | 'resting' | 'filled' | 'ended';

export type MarketEvent =
  /** The order was accepted; emitted first for every accepted place command. */
  | { type: 'accepted'; orderId: string; accountId: string }
  | {
      type: 'trade';
      /** `${sequence}:${index}` with index counting trades within the command: unique and replayable. */
      tradeId: string;
      makerOrderId: string;
      makerAccountId: string;
      takerOrderId: string;
      takerAccountId: string;
      takerSide: Side;
      priceTicks: number;
      quantityLots: number;
      /** Lots still open on each order after this trade. */
      makerRemainingLots: number;
      takerRemainingLots: number;
    }
  /** A waiting stop or take-profit order (or an oco's stop leg) triggered at this last trade price. */
  | { type: 'triggered'; orderId: string; accountId: string; lastTradePriceTicks: number }
  /** The order now rests in the book with this open quantity at this price (after placement, a trigger or a modify). */
  | { type: 'rested'; orderId: string; accountId: string; priceTicks: number; remainingLots: number }
  /** A modify took effect; keptPriority when it only lowered the quantity of a resting order. */
  | {
      type: 'modified';
      orderId: string;
      accountId: string;
      quantityLots: number;
      priceTicks: number | null;
      stopPriceTicks: number | null;
      keptPriority: boolean;
    }
  /** The order is completely filled. */
  | { type: 'filled'; orderId: string; accountId: string }
  /** The order ended with unfilledLots never traded (cancel, expiry, self-trade prevention, oco). */
  | { type: 'ended'; orderId: string; accountId: string; reason: OrderEndReason; unfilledLots: number };

export type MarketCommandResult =
  | { status: 'accepted'; sequence: number; events: MarketEvent[] }
  /** Nothing changed in the engine. */
  | { status: 'rejected'; sequence: number; reason: MarketRejectReason; events: [] };

/** An open order as the engine holds it (resting, waiting for its trigger, or both for an oco). */
export interface EngineOrder {
  orderId: string;
  accountId: string;
  side: Side;
  type: MarketOrderType;
  quantityLots: number;
  filledLots: number;
  /** Lots still open: quantityLots - filledLots. */
  remainingLots: number;
  quoteAmount: bigint | null;
  priceTicks: number | null;
  stopPriceTicks: number | null;
  stopLimitPriceTicks: number | null;
  timeInForce: TimeInForce;
  postOnly: boolean;
  selfTradePrevention: SelfTradePreventionMode | null;
  state: 'waiting_trigger' | 'resting';
  /** For an oco: whether the limit leg rests (it does until the stop triggers). */
  limitLegResting: boolean;
  sequence: number;
  timestampMs: number;
}

export interface MarketSnapshot {
  version: 1;
  book: import('./types.ts').BookSnapshot;
  /** Every open order the engine tracks (resting and waiting), in sequence order. */
  orders: EngineOrder[];
  /** Waiting stop orders, in trigger priority (sequence) order. */
  waitingOrderIds: string[];
  lastSequence: number;
}
