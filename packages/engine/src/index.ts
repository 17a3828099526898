/**
 * The matching engine: pure and deterministic. Time, ids and sequence numbers arrive with each command;
 * nothing in here reads a clock, draws a random number, performs I/O or awaits.
 */
export { FastOrderBook } from './fast-order-book.ts';
export * as lots from './lots/index.ts';
export { MarketEngine } from './market-engine.ts';
export type {
  CancelOrderCommand,
  EngineOrder,
  EngineOrderState,
  MarketCommand,
  MarketCommandResult,
  MarketEvent,
  MarketOrderType,
  MarketRejectReason,
  MarketRules,
  MarketSnapshot,
  ModifyOrderCommand,
  OrderEndReason,
  PlaceOrderCommand,
} from './market-types.ts';
export type { OrderBook } from './order-book.ts';
export * as perp from './perp/index.ts';
export { stopTriggered, withinPriceBand } from './price-rules.ts';
export type { OrderBookOptions } from './reference-order-book.ts';
export { ReferenceOrderBook } from './reference-order-book.ts';
export { fnv1a64, serialiseSnapshot, snapshotHash } from './state-hash.ts';
export type {
  BookDepth,
  BookSnapshot,
  CancelResult,
  DepthLevel,
  Fill,
  OrderType,
  PlaceCommand,
  PlaceResult,
  ReduceResult,
  RejectReason,
  RemainderCancelReason,
  RestingOrder,
  SelfTradePreventionMode,
  Side,
  TimeInForce,
} from './types.ts';
export { ENGINE_RESULT_CODES } from './types.ts';
