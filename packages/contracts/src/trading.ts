import { z } from 'zod';
import { decimalString } from './markets.ts';

/**
 * Spot trading (spec §1, §3.6, §4, §7.2): orders, trades, order books. The spec shows no shapes, so
 * these follow what traders know from the large exchanges, in the snake_case of the spec's pair fields.
 * Amounts and prices are decimal strings; a JSON number is accepted on input and read by its text.
 */

export const ORDER_SIDES = ['buy', 'sell'] as const;
export const ORDER_TYPES = [
  'market',
  'limit',
  'stop_loss',
  'stop_limit',
  'take_profit',
  'take_profit_limit',
  'oco',
] as const;
export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
export const SELF_TRADE_PREVENTION_MODES = ['cancel_newest', 'cancel_oldest', 'cancel_both'] as const;

/**
 * §4's statuses plus rejected and expired:
 * - pending: open, nothing filled yet (resting, or a stop waiting for its trigger);
 * - partial: open, partly filled;
 * - filled: completely filled;
 * - completed: closed partly filled without a cancel by the user (an IOC or market remainder that
 *   found no more liquidity, or self-trade prevention);
 * - cancelled: cancelled by the user (filled_quantity tells whether anything traded before);
 * - expired: closed with nothing filled because it could not trade (IOC, market, FOK);
 * - rejected: refused by the engine; nothing was ever open.
 */
export const ORDER_STATUSES = [
  'pending',
  'partial',
  'filled',
  'completed',
  'cancelled',
  'expired',
  'rejected',
] as const;
export const OPEN_ORDER_STATUSES = ['pending', 'partial'] as const;

export type OrderSide = (typeof ORDER_SIDES)[number];
export type OrderType = (typeof ORDER_TYPES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An amount or price on input: a decimal string, or a JSON number read by its shortest text. */
const amountInput = z.union([z.string().max(64), z.number()]);

export const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9_:.-]{1,64}$/;

export const placeOrderRequestSchema = z.object({
  /** Pair id (BTC_USD) or symbol (BTC/USD), any case. `symbol` is accepted as an alias. */
  trading_pair: z.string().min(1).max(32).optional(),
  symbol: z.string().min(1).max(32).optional(),
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES),
  /** Base quantity. Required except for a market order given by quote_amount. */
  quantity: amountInput.optional(),
  /** Market orders only: spend (buy) or receive (sell) this much of the quote currency. */
  quote_amount: amountInput.optional(),
  /** Limit price: limit, stop_limit, take_profit_limit, and the limit leg of oco. */
  price: amountInput.optional(),
  /** Trigger price: stop_loss, stop_limit, take_profit, take_profit_limit, and the stop leg of oco. */
  stop_price: amountInput.optional(),
  /** oco only: the stop leg becomes a limit at this price when triggered; without it, a market. */
  stop_limit_price: amountInput.optional(),
  time_in_force: z.enum(TIME_IN_FORCE).optional(),
  post_only: z.boolean().optional(),
  self_trade_prevention: z.enum(SELF_TRADE_PREVENTION_MODES).optional(),
  /** Makes placement idempotent: a retry with the same id returns the first order. */
  client_order_id: z.string().regex(CLIENT_ORDER_ID_PATTERN).optional(),
});
export type PlaceOrderRequest = z.infer<typeof placeOrderRequestSchema>;

export const modifyOrderRequestSchema = z.object({
  /** New total quantity (what has filled included). */
  quantity: amountInput.optional(),
  price: amountInput.optional(),
  stop_price: amountInput.optional(),
});
export type ModifyOrderRequest = z.infer<typeof modifyOrderRequestSchema>;

export const orderSchema = z.object({
  id: z.string().uuid(),
  client_order_id: z.string().nullable(),
  account_id: z.string().uuid(),
  trading_pair: z.string(),
  symbol: z.string(),
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES),
  status: z.enum(ORDER_STATUSES),
  time_in_force: z.enum(TIME_IN_FORCE),
  post_only: z.boolean(),
  price: decimalString.nullable(),
  stop_price: decimalString.nullable(),
  stop_limit_price: decimalString.nullable(),
  quantity: decimalString.nullable().describe('Base quantity ordered; null for a market order by quote amount'),
  quote_amount: decimalString.nullable(),
  filled_quantity: decimalString,
  remaining_quantity: decimalString.nullable(),
  average_price: decimalString.nullable(),
  total: decimalString.describe('Quote value of the fills, fees not included'),
  fee: decimalString,
  fee_currency: z.string(),
  triggered: z.boolean().describe('Stop orders: whether the trigger has fired'),
  reject_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderIdParamsSchema = z.object({ id: z.string().uuid() });

export const ordersQuerySchema = z.object({
  status: z.enum([...ORDER_STATUSES, 'open', 'closed']).optional(),
  trading_pair: z.string().max(32).optional(),
  symbol: z.string().max(32).optional(),
  side: z.enum(ORDER_SIDES).optional(),
  type: z.enum(ORDER_TYPES).optional(),
  from: z.coerce.number().int().nonnegative().optional().describe('Created at or after, unix ms'),
  to: z.coerce.number().int().nonnegative().optional().describe('Created before, unix ms'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type OrdersQuery = z.infer<typeof ordersQuerySchema>;

export const pageInfoSchema = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() });

export const orderListSchema = z.object({ orders: z.array(orderSchema), pagination: pageInfoSchema });

export const orderStatisticsSchema = z.object({
  total: z.number().int(),
  open: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
  by_side: z.object({ buy: z.number().int(), sell: z.number().int() }),
  by_type: z.record(z.string(), z.number().int()),
});

export const tradeSchema = z.object({
  id: z.string(),
  trading_pair: z.string(),
  symbol: z.string(),
  price: decimalString,
  quantity: decimalString,
  total: decimalString,
  /** The taker's side: a buy trade lifted an ask. */
  side: z.enum(ORDER_SIDES),
  timestamp: z.number().int(),
});
export type Trade = z.infer<typeof tradeSchema>;

/** A trade seen from one of its two accounts. */
export const accountTradeSchema = tradeSchema.extend({
  order_id: z.string().uuid(),
  /** This account's side, which may differ from the taker's. */
  side: z.enum(ORDER_SIDES),
  role: z.enum(['maker', 'taker']),
  fee: decimalString,
  fee_currency: z.string(),
});
export type AccountTrade = z.infer<typeof accountTradeSchema>;

export const tradesQuerySchema = z.object({
  trading_pair: z.string().max(32).optional(),
  symbol: z.string().max(32).optional(),
  side: z.enum(ORDER_SIDES).optional(),
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const accountTradeListSchema = z.object({ trades: z.array(accountTradeSchema), pagination: pageInfoSchema });

/** Most recent trades one market-trades read returns: the server keeps this many per market in memory. */
export const MARKET_TRADES_MAX_LIMIT = 500;
export const marketTradesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MARKET_TRADES_MAX_LIMIT).default(50),
});

/** [price, quantity] */
export const bookLevelSchema = z.tuple([decimalString, decimalString]);

export const orderBookSchema = z.object({
  trading_pair: z.string(),
  symbol: z.string(),
  /** The market's command sequence this picture reflects; deltas continue from it. */
  sequence: z.number().int(),
  bids: z.array(bookLevelSchema),
  asks: z.array(bookLevelSchema),
  // The server encodes the book once per sequence: two reads of an unchanged book carry the same time.
  timestamp: z.number().int().describe('When this picture of the book was taken (unix ms), not the time of the read'),
});
export type OrderBookView = z.infer<typeof orderBookSchema>;

export const orderBookQuerySchema = z.object({ depth: z.coerce.number().int().min(1).max(500).default(50) });

export const orderBookStatsSchema = z.object({
  trading_pair: z.string(),
  best_bid: decimalString.nullable(),
  best_ask: decimalString.nullable(),
  spread: decimalString.nullable(),
  mid_price: decimalString.nullable(),
  last_price: decimalString.nullable(),
  bid_levels: z.number().int(),
  ask_levels: z.number().int(),
  bid_quantity: decimalString,
  ask_quantity: decimalString,
  bid_orders: z.number().int(),
  ask_orders: z.number().int(),
  sequence: z.number().int(),
});

export const tradingStatisticsSchema = z.object({
  total_trades: z.number().int(),
  buy_trades: z.number().int(),
  sell_trades: z.number().int(),
  maker_trades: z.number().int(),
  taker_trades: z.number().int(),
  /** Per quote currency: traded value and fees paid. */
  volume_by_quote: z.record(z.string(), decimalString),
  fees_by_currency: z.record(z.string(), decimalString),
  pairs_traded: z.number().int(),
  first_trade_at: z.number().int().nullable(),
  last_trade_at: z.number().int().nullable(),
});

export const accountBalanceSchema = z.object({
  account_id: z.string().uuid(),
  balances: z.array(
    z.object({ currency: z.string(), available: decimalString, locked: decimalString, total: decimalString }),
  ),
});

// --- socket payloads (spec §7.6) ---------------------------------------------------------------

/** orderbook.{PAIR}: a snapshot first (snapshot: true on the message), then deltas. */
export const orderBookUpdateSchema = z.object({
  trading_pair: z.string(),
  kind: z.enum(['snapshot', 'delta']),
  /** Market sequence after this update; a delta applies to the picture at prev_sequence. */
  sequence: z.number().int(),
  prev_sequence: z.number().int(),
  /** Levels whose total changed: [price, new total quantity]; '0' removes the level. */
  bids: z.array(bookLevelSchema),
  asks: z.array(bookLevelSchema),
  timestamp: z.number().int(),
});
export type OrderBookUpdate = z.infer<typeof orderBookUpdateSchema>;

export const tradeUpdateSchema = tradeSchema;

export const orderUpdateSchema = orderSchema;

export const balanceUpdateSchema = z.object({
  currency: z.string(),
  available: decimalString,
  locked: decimalString,
  timestamp: z.number().int(),
});
export type BalanceUpdate = z.infer<typeof balanceUpdateSchema>;
