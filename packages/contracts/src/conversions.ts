import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from './wallet.ts';

/**
 * Conversions between currencies and quick trades (spec §3.5, §7.3). The house desk prices a
 * conversion from the reference price (the price feed's, which no user moves; never from users'
 * orders) and adds a disclosed spread; an estimate is a stored quote that can be executed once,
 * before it expires, and is re-checked against the current reference when it is executed.
 * Amounts and prices are decimal strings; a JSON number is accepted on input and read by its text.
 * Currency codes may come in any case and are answered upper-case.
 */

/** How long a quote can be executed after it was given. */
export const CONVERSION_QUOTE_VALID_SECONDS = 15;

/** The house's disclosed spread on every conversion and quick trade, in basis points (0.5 %). */
export const CONVERSION_SPREAD_BPS = 50;

/** The smallest conversion, worth about this many USD at the reference price (before the spread). */
export const CONVERSION_MIN_USD = '1';

/**
 * At execution a quote is priced again at the current reference. When the quote pays more than
 * this above the current price (the market moved against the house), it is refused (PRICE_MOVED):
 * 0.1 %, below the spread, so waiting out a quote's life for a favourable move never pays for a
 * round trip, while the ordinary drift of 15 seconds passes.
 */
export const CONVERSION_PRICE_TOLERANCE_BPS = 10;

/**
 * A reference price older than this is not quoted from (PRICE_STALE): the real market may have
 * moved away from it. Above the feed's 30 s polling interval, so one missed poll does not stop
 * conversions. Default of the server's CONVERSION_REFERENCE_MAX_AGE_SECONDS.
 */
export const CONVERSION_REFERENCE_MAX_AGE_SECONDS = 120;

/** The exposure limits below count the conversions of the last this many seconds (a sliding window). */
export const CONVERSION_LIMIT_WINDOW_SECONDS = 60;

/**
 * What one account can convert per minute, valued in USD at the reference price: bounds what a
 * single account can take from the house in a minute if a price is ever wrong (a lagging feed).
 * Larger amounts belong on the order book. Default of CONVERSION_ACCOUNT_LIMIT_USD.
 */
export const CONVERSION_ACCOUNT_LIMIT_USD = '100000';

/**
 * What all accounts together can convert per minute, in USD: bounds the house's position change
 * per minute, whatever the number of accounts (many accounts of one person included). Default of
 * CONVERSION_HOUSE_LIMIT_USD.
 */
export const CONVERSION_HOUSE_LIMIT_USD = '1000000';

/**
 * Where the price came from. New conversions are always priced at the 'reference' price;
 * 'order_book' remains for conversions made before (when the desk walked the live books).
 */
export const CONVERSION_PRICE_SOURCES = ['order_book', 'reference'] as const;
export type ConversionPriceSource = (typeof CONVERSION_PRICE_SOURCES)[number];

/** A conversion made from a quote (POST /conversions) or a quick trade (POST /trade/execute). */
export const CONVERSION_KINDS = ['conversion', 'trade'] as const;
export type ConversionKind = (typeof CONVERSION_KINDS)[number];

/** Quick trade types: 'market' executes at the current price (target_amount is the least accepted). */
export const QUICK_TRADE_TYPES = ['market'] as const;
export type QuickTradeType = (typeof QUICK_TRADE_TYPES)[number];

const amountInput = z.union([z.string().max(64), z.number()]);
const currencyInput = z.string().max(20);

export const conversionEstimateQuerySchema = z.object({
  from_currency: currencyInput,
  to_currency: currencyInput,
  from_amount: z.string().max(64),
});
export type ConversionEstimateQuery = z.infer<typeof conversionEstimateQuerySchema>;

/** The spread the house keeps: a percentage of the gross result and the same as an amount of to_currency. */
export const conversionSpreadSchema = z.object({
  /** e.g. "0.5" for 0.5 %. */
  percent: z.string(),
  /** What the caller gives up to the spread, in to_currency. */
  amount: z.string(),
  currency: z.string(),
});
export type ConversionSpread = z.infer<typeof conversionSpreadSchema>;

/** What a quote offers and the conversion made from it keeps: the amounts and how they were priced. */
const pricedConversionShape = {
  from_currency: z.string(),
  to_currency: z.string(),
  from_amount: z.string(),
  /** What the caller receives (after the spread), rounded down to to_currency's decimals. */
  to_amount: z.string(),
  /** to_amount per one from_currency, as received (after the spread). */
  rate: z.string(),
  spread: conversionSpreadSchema,
  price_source: z.enum(CONVERSION_PRICE_SOURCES),
  /** The currencies the conversion goes through, e.g. ["BTC", "USD", "ETH"] for a cross via USD. */
  route: z.array(z.string()),
};

/** GET /api/v1/conversions/estimate: a stored quote. */
export const conversionQuoteSchema = z.object({
  quote_id: z.string(),
  ...pricedConversionShape,
  expires_at: z.string(),
  valid_for_seconds: z.number(),
});
export type ConversionQuote = z.infer<typeof conversionQuoteSchema>;

export const conversionPairSchema = z.object({
  from_currency: z.string(),
  to_currency: z.string(),
  /** ["BTC", "USD"] for a direct market, ["BTC", "USD", "ETH"] through USD. */
  route: z.array(z.string()),
});
export type ConversionPair = z.infer<typeof conversionPairSchema>;

/** GET /api/v1/conversions/pairs: every currency that can be converted, and every ordered pair. */
export const conversionPairsResponseSchema = z.object({
  currencies: z.array(z.string()),
  pairs: z.array(conversionPairSchema),
});
export type ConversionPairsResponse = z.infer<typeof conversionPairsResponseSchema>;

/** GET /api/v1/conversions/supported: both optional and free-form, so anything unknown answers false. */
export const conversionSupportedQuerySchema = z.object({
  from_currency: z.string().max(64).optional(),
  to_currency: z.string().max(64).optional(),
});
export const conversionSupportedResponseSchema = z.object({ supported: z.boolean() });
export type ConversionSupportedResponse = z.infer<typeof conversionSupportedResponseSchema>;

/** POST /api/v1/conversions. */
export const createConversionRequestSchema = z.object({
  from_currency: currencyInput,
  to_currency: currencyInput,
  from_amount: amountInput,
  /** The quote to execute; without it the caller's latest unexpired quote for exactly this from/to/amount. */
  quote_id: z.string().max(64).optional(),
  /** Same effect as the Idempotency-Key header: a retry with the same key returns the first conversion. */
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional(),
});
export type CreateConversionRequest = z.infer<typeof createConversionRequestSchema>;

/** A settled conversion or quick trade (settlement is immediate, so it is always completed). */
export const conversionSchema = z.object({
  id: z.string(),
  kind: z.enum(CONVERSION_KINDS),
  status: z.literal('completed'),
  quote_id: z.string().nullable(),
  ...pricedConversionShape,
  created_at: z.string(),
});
export type Conversion = z.infer<typeof conversionSchema>;

export const conversionHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const conversionHistoryResponseSchema = z.object({ conversions: z.array(conversionSchema) });
export type ConversionHistoryResponse = z.infer<typeof conversionHistoryResponseSchema>;

/** POST /api/v1/trade/execute (§3.5 Trade). */
export const executeQuickTradeRequestSchema = z.object({
  sell_currency: currencyInput,
  buy_currency: currencyInput,
  sell_amount: amountInput,
  /** The least buy_currency the caller accepts to receive; below it the trade is refused (SLIPPAGE_EXCEEDED). */
  target_amount: amountInput.nullable().optional(),
  /** Defaults to 'market'. */
  trade_type: z.string().max(20).nullable().optional(),
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional(),
});
export type ExecuteQuickTradeRequest = z.infer<typeof executeQuickTradeRequestSchema>;

/** §8 success text of a quick trade. */
export const QUICK_TRADE_EXECUTED_MESSAGE = 'trade executed';

export const quickTradeSchema = z.object({
  id: z.string(),
  status: z.literal('completed'),
  trade_type: z.string(),
  sell_currency: z.string(),
  buy_currency: z.string(),
  sell_amount: z.string(),
  /** What was received. */
  buy_amount: z.string(),
  target_amount: z.string().nullable(),
  rate: z.string(),
  spread: conversionSpreadSchema,
  price_source: z.enum(CONVERSION_PRICE_SOURCES),
  route: z.array(z.string()),
  created_at: z.string(),
});
export type QuickTrade = z.infer<typeof quickTradeSchema>;

export const executeQuickTradeResponseSchema = z.object({
  message: z.string(),
  trade: quickTradeSchema,
});
export type ExecuteQuickTradeResponse = z.infer<typeof executeQuickTradeResponseSchema>;

export const quickTradeHistoryQuerySchema = conversionHistoryQuerySchema;
export const quickTradeHistoryResponseSchema = z.object({ trades: z.array(quickTradeSchema) });
export type QuickTradeHistoryResponse = z.infer<typeof quickTradeHistoryResponseSchema>;
