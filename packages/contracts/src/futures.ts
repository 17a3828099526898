import { z } from 'zod';
import { decimalString } from './markets.ts';
import { bookLevelSchema, pageInfoSchema } from './trading.ts';

/**
 * USD-margined linear perpetual futures (spec §1, §9: up to 100x, 0.02 % maker, 0.04 % taker).
 * The spec shows no shapes; these follow what Binance USDⓈ-M and Bybit traders know, in the
 * snake_case of the rest of the API. Every call is under /v1/futures/ (the client keeps a session
 * alive on a 401 from those paths, §7.8). Amounts and prices are decimal strings; rates are
 * decimal fractions ('0.0004' is 0.04 %).
 */

/** Market ids are `{BASE}_USD_PERP`. */
export const FUTURES_MARKET_ID_PATTERN = /^[A-Z0-9]{2,12}_USD_PERP$/;
/** The collateral of every perpetual: the futures wallet holds it, transfers move it from and to spot. */
export const FUTURES_COLLATERAL = 'USD';
/** Spec §9. */
export const FUTURES_MAKER_FEE_RATE = '0.0002';
export const FUTURES_TAKER_FEE_RATE = '0.0004';
export const FUTURES_MAX_LEVERAGE = 100;
/** The screen asks the trader to confirm the risk once before the first order above this leverage. */
export const FUTURES_HIGH_LEVERAGE_WARNING = 20;
/** Default funding interval (FUNDING_INTERVAL_MS overrides it on the server). */
export const FUTURES_DEFAULT_FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;

export const FUTURES_ORDER_TYPES = [
  'market',
  'limit',
  /** Waits for the last trade price to reach stop_price (against the position), then trades at market. */
  'stop_market',
  'stop_limit',
  /** Waits for the last price to reach stop_price in the profitable direction, then market. */
  'take_profit_market',
  'take_profit_limit',
] as const;
export type FuturesOrderType = (typeof FUTURES_ORDER_TYPES)[number];
export const FUTURES_ORDER_SIDES = ['buy', 'sell'] as const;
export const FUTURES_TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
export const MARGIN_MODES = ['cross', 'isolated'] as const;
export type MarginMode = (typeof MARGIN_MODES)[number];
export const POSITION_SIDES = ['long', 'short'] as const;
export type PositionSide = (typeof POSITION_SIDES)[number];
export const FUTURES_ORDER_STATUSES = [
  'pending',
  'partial',
  'filled',
  'completed',
  'cancelled',
  'expired',
  'rejected',
] as const;

const amountInput = z.union([z.string().max(64), z.number()]);
export const futuresMarketParamsSchema = z.object({ market: z.string().min(1).max(32) });

/** One risk-limit tier (Binance's leverage bracket). maintenance_amount is the "cum" deduction. */
export const futuresTierSchema = z.object({
  tier: z.number().int(),
  notional_floor: decimalString,
  /** The last tier's cap is the largest position the market takes. */
  notional_cap: decimalString,
  max_leverage: z.number().int(),
  maintenance_margin_rate: decimalString,
  maintenance_amount: decimalString,
});
export type FuturesTier = z.infer<typeof futuresTierSchema>;

export const futuresMarketSchema = z.object({
  id: z.string(),
  symbol: z.string().describe('BTCUSD-PERP style display symbol'),
  base_currency: z.string(),
  quote_currency: z.string(),
  tick_size: decimalString,
  lot_size: decimalString,
  min_quantity: decimalString,
  max_quantity: decimalString,
  min_notional: decimalString,
  max_leverage: z.number().int(),
  maker_fee_rate: decimalString,
  taker_fee_rate: decimalString,
  status: z.enum(['trading', 'halted']),
  mark_price: decimalString.nullable(),
  index_price: decimalString.nullable(),
  last_price: decimalString.nullable(),
  /** The rate the next funding round would apply if it happened now. */
  funding_rate: decimalString,
  funding_rate_cap: decimalString,
  funding_interval_ms: z.number().int(),
  next_funding_time: z.number().int(),
  open_interest: decimalString.describe('Total long size (equal to total short size), base units'),
  volume_24h: decimalString,
  price_change_percent_24h: decimalString,
});
export type FuturesMarket = z.infer<typeof futuresMarketSchema>;
export const futuresMarketListSchema = z.object({ markets: z.array(futuresMarketSchema) });
export const futuresTierListSchema = z.object({ market: z.string(), tiers: z.array(futuresTierSchema) });

/** Published on `mark.{MARKET}` and returned by GET /v1/futures/markets/{market}/mark. */
export const markPriceSchema = z.object({
  market: z.string(),
  mark_price: decimalString,
  index_price: decimalString,
  funding_rate: decimalString,
  next_funding_time: z.number().int(),
  /**
   * True when no price source has confirmed the index within FUTURES_INDEX_STALE_MS: the mark is the
   * last one and nobody is liquidated in the market until the sources answer again.
   */
  index_stale: z.boolean().optional(),
  timestamp: z.number().int(),
});
export type MarkPriceView = z.infer<typeof markPriceSchema>;

export const futuresOrderBookSchema = z.object({
  market: z.string(),
  sequence: z.number().int(),
  bids: z.array(bookLevelSchema),
  asks: z.array(bookLevelSchema),
  timestamp: z.number().int(),
});

export const futuresMarketTradeSchema = z.object({
  id: z.string(),
  market: z.string(),
  price: decimalString,
  quantity: decimalString,
  side: z.enum(FUTURES_ORDER_SIDES).describe("The taker's side"),
  timestamp: z.number().int(),
});

export const placeFuturesOrderRequestSchema = z.object({
  market: z.string().min(1).max(32),
  side: z.enum(FUTURES_ORDER_SIDES),
  type: z.enum(FUTURES_ORDER_TYPES),
  /** Base quantity; omitted with close_position. */
  quantity: amountInput.optional(),
  price: amountInput.optional(),
  stop_price: amountInput.optional(),
  time_in_force: z.enum(FUTURES_TIME_IN_FORCE).optional(),
  post_only: z.boolean().optional(),
  reduce_only: z.boolean().optional(),
  /** Closes the whole position (quantity follows it); implies reduce_only. For market and stop/take-profit market orders. */
  close_position: z.boolean().optional(),
  /** Attached take-profit and stop-loss triggers, set on the position once the order fills. */
  take_profit_price: amountInput.optional(),
  stop_loss_price: amountInput.optional(),
  client_order_id: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]{1,64}$/)
    .optional(),
});
export type PlaceFuturesOrderRequest = z.infer<typeof placeFuturesOrderRequestSchema>;

export const modifyFuturesOrderRequestSchema = z.object({
  quantity: amountInput.optional(),
  price: amountInput.optional(),
  stop_price: amountInput.optional(),
});

export const futuresOrderSchema = z.object({
  id: z.string().uuid(),
  client_order_id: z.string().nullable(),
  market: z.string(),
  side: z.enum(FUTURES_ORDER_SIDES),
  type: z.enum(FUTURES_ORDER_TYPES),
  status: z.enum(FUTURES_ORDER_STATUSES),
  time_in_force: z.enum(FUTURES_TIME_IN_FORCE),
  post_only: z.boolean(),
  reduce_only: z.boolean(),
  close_position: z.boolean(),
  price: decimalString.nullable(),
  stop_price: decimalString.nullable(),
  quantity: decimalString,
  filled_quantity: decimalString,
  average_price: decimalString.nullable(),
  fee: decimalString,
  realised_pnl: decimalString,
  triggered: z.boolean(),
  /** Set on orders the liquidation engine placed, and on ADL closes. */
  origin: z.enum(['user', 'liquidation', 'adl', 'tpsl']),
  reject_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FuturesOrder = z.infer<typeof futuresOrderSchema>;
export const futuresOrdersQuerySchema = z.object({
  status: z.enum(['open', 'closed', ...FUTURES_ORDER_STATUSES]).optional(),
  market: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const futuresOrderListSchema = z.object({ orders: z.array(futuresOrderSchema), pagination: pageInfoSchema });

export const futuresFillSchema = z.object({
  id: z.string(),
  order_id: z.string().uuid(),
  market: z.string(),
  side: z.enum(FUTURES_ORDER_SIDES),
  role: z.enum(['maker', 'taker']),
  price: decimalString,
  quantity: decimalString,
  fee: decimalString,
  realised_pnl: decimalString,
  timestamp: z.number().int(),
});
export const futuresFillListSchema = z.object({ fills: z.array(futuresFillSchema), pagination: pageInfoSchema });

export const futuresPositionSchema = z.object({
  market: z.string(),
  side: z.enum(POSITION_SIDES),
  size: decimalString.describe('Base units, always positive'),
  entry_price: decimalString,
  mark_price: decimalString,
  /** null when the mark cannot reach it (a long whose collateral exceeds its cost). */
  liquidation_price: decimalString.nullable(),
  bankruptcy_price: decimalString.nullable(),
  margin_mode: z.enum(MARGIN_MODES),
  leverage: z.number().int(),
  notional: decimalString.describe('size × mark'),
  /** Isolated: the margin posted to the position; cross: its initial margin at mark. */
  margin: decimalString,
  maintenance_margin: decimalString,
  /** Maintenance margin / margin balance (Binance's convention): liquidation at 1. */
  margin_ratio: decimalString,
  unrealised_pnl: decimalString,
  /** Unrealised P&L / initial margin at entry (size × entry / leverage). */
  roe: decimalString,
  realised_pnl: decimalString,
  /** ADL queue indicator, 1 (last) to 5 (first to be deleveraged). */
  adl_rank: z.number().int().min(0).max(5),
  take_profit_price: decimalString.nullable(),
  stop_loss_price: decimalString.nullable(),
  updated_at: z.string(),
});
export type FuturesPosition = z.infer<typeof futuresPositionSchema>;
export const futuresPositionListSchema = z.object({ positions: z.array(futuresPositionSchema) });

export const futuresAccountSchema = z.object({
  currency: z.literal('USD'),
  /** Deposited, realised, paid: the ledger balance of the futures wallet (available + isolated margin). */
  wallet_balance: decimalString,
  unrealised_pnl: decimalString,
  /** wallet_balance + unrealised P&L. */
  margin_balance: decimalString,
  cross_initial_margin: decimalString,
  cross_maintenance_margin: decimalString,
  isolated_margin: decimalString,
  order_margin: decimalString,
  /** What a new order can still use. */
  available_balance: decimalString,
  /** What may leave for the spot wallet now. */
  transferable: decimalString,
  /** Cross: maintenance / margin balance (liquidation at 1). */
  margin_ratio: decimalString,
});
export type FuturesAccount = z.infer<typeof futuresAccountSchema>;

export const futuresSettingsSchema = z.object({
  market: z.string(),
  leverage: z.number().int(),
  margin_mode: z.enum(MARGIN_MODES),
  /** The highest leverage the current position (and open orders) allow. */
  max_leverage: z.number().int(),
});
export const futuresSettingsListSchema = z.object({ settings: z.array(futuresSettingsSchema) });
export const setLeverageRequestSchema = z.object({ leverage: z.number().int().min(1).max(FUTURES_MAX_LEVERAGE) });
export const setMarginModeRequestSchema = z.object({ margin_mode: z.enum(MARGIN_MODES) });
export const isolatedMarginRequestSchema = z.object({
  action: z.enum(['add', 'remove']),
  amount: amountInput,
});
export const positionTpslRequestSchema = z.object({
  /** null removes it. */
  take_profit_price: amountInput.nullable().optional(),
  stop_loss_price: amountInput.nullable().optional(),
});

/** What an order would leave, before it is sent: the trading screen shows it under the form. */
export const futuresOrderPreviewSchema = z.object({
  market: z.string(),
  /** The price the preview assumes (limit price, or the book's price for a market order). */
  price: decimalString,
  notional: decimalString,
  initial_margin: decimalString,
  fee: decimalString,
  /** Margin + fee taken from available balance (0 when the order only reduces). */
  cost: decimalString,
  available_balance: decimalString,
  resulting_side: z.enum(POSITION_SIDES).nullable(),
  resulting_size: decimalString,
  resulting_entry_price: decimalString.nullable(),
  liquidation_price: decimalString.nullable(),
  max_leverage: z.number().int(),
  /** null when the order would be accepted; else the error code and text it would get. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type FuturesOrderPreview = z.infer<typeof futuresOrderPreviewSchema>;

export const FUTURES_TRANSFER_DIRECTIONS = ['to_futures', 'to_spot'] as const;
export const futuresTransferRequestSchema = z.object({
  direction: z.enum(FUTURES_TRANSFER_DIRECTIONS),
  amount: amountInput,
  /** Idempotency: the same id returns the first transfer. */
  client_transfer_id: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]{1,64}$/)
    .optional(),
});
export const futuresTransferSchema = z.object({
  id: z.string(),
  direction: z.enum(FUTURES_TRANSFER_DIRECTIONS),
  currency: z.literal('USD'),
  amount: decimalString,
  created_at: z.string(),
});
export const futuresTransferListSchema = z.object({
  transfers: z.array(futuresTransferSchema),
  pagination: pageInfoSchema,
});

export const FUTURES_INCOME_TYPES = [
  'transfer',
  'realised_pnl',
  'fee',
  'funding',
  'liquidation_fee',
  'insurance_clear',
  'adl',
] as const;
export const futuresIncomeSchema = z.object({
  id: z.string(),
  type: z.enum(FUTURES_INCOME_TYPES),
  market: z.string().nullable(),
  /** Signed: positive received, negative paid. */
  amount: decimalString,
  currency: z.literal('USD'),
  timestamp: z.number().int(),
});
export const futuresIncomeQuerySchema = z.object({
  type: z.enum(FUTURES_INCOME_TYPES).optional(),
  market: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const futuresIncomeListSchema = z.object({ income: z.array(futuresIncomeSchema), pagination: pageInfoSchema });

export const fundingRoundSchema = z.object({
  market: z.string(),
  funding_rate: decimalString,
  mark_price: decimalString,
  funding_time: z.number().int(),
  /** Total paid by the paying side (= received by the other side + the rounding residual to the insurance fund). */
  total_paid: decimalString,
});
export const fundingHistorySchema = z.object({ rounds: z.array(fundingRoundSchema), pagination: pageInfoSchema });

export const insuranceFundSchema = z.object({ currency: z.literal('USD'), balance: decimalString });

/** GET /v1/admin/futures/state-check: the exchange's memory, its rows and a replay of its journal compared. */
export const futuresStateCheckSchema = z.object({
  equal: z.boolean(),
  /** SHA-256 of the state in memory, of what a restart would load, of a clean replay of the journal. */
  memory: z.string(),
  stored: z.string(),
  replayed: z.string(),
  /** The first lines that differ (- stored, + replayed). */
  differences: z.array(z.string()),
});
export type FuturesStateCheck = z.infer<typeof futuresStateCheckSchema>;

/** `positions` user channel: a position changed (size 0 with side null when it closed). */
export const positionUpdateSchema = z.object({
  market: z.string(),
  position: futuresPositionSchema.nullable(),
  account: futuresAccountSchema,
  reason: z.enum(['fill', 'funding', 'liquidation', 'adl', 'margin', 'leverage', 'mark']),
});
