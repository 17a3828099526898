import { z } from 'zod';
import { type ChartRange, chartRanges } from './constants.ts';

/**
 * Market data on the wire. Prices, amounts and percentages are decimal strings (never JSON
 * numbers): a client parses them with @platform/money.
 */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, { error: 'must be a decimal string' });

/** Spec §2.6 / §9 chart ranges. Each maps to a candle interval (see chartRangeIntervals). */
export const chartRangeSchema = z.enum(chartRanges);

/** Candle intervals the server keeps or aggregates. */
export const candleIntervals = ['1m', '5m', '15m', '1h', '4h', '1d', '1w'] as const;
export const candleIntervalSchema = z.enum(candleIntervals);
export type CandleInterval = z.infer<typeof candleIntervalSchema>;
export const candleIntervalMs: Record<CandleInterval, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
};

/**
 * What a chart range shows: the span of time and the candle interval that draws it in a
 * readable number of candles (60 to 400).
 */
export const chartRangeIntervals: Record<ChartRange, { interval: CandleInterval; spanMs: number | null }> = {
  '1m': { interval: '1m', spanMs: 60 * 60_000 },
  '5m': { interval: '5m', spanMs: 6 * 3_600_000 },
  '15m': { interval: '15m', spanMs: 24 * 3_600_000 },
  '1h': { interval: '1h', spanMs: 7 * 86_400_000 },
  '4h': { interval: '4h', spanMs: 30 * 86_400_000 },
  '1d': { interval: '1d', spanMs: 180 * 86_400_000 },
  '1w': { interval: '1w', spanMs: 3 * 365 * 86_400_000 },
  '1M': { interval: '4h', spanMs: 30 * 86_400_000 },
  '3M': { interval: '1d', spanMs: 90 * 86_400_000 },
  '1Y': { interval: '1d', spanMs: 365 * 86_400_000 },
  all: { interval: '1w', spanMs: null },
};

/** Pair id as stored and routed: BASE_QUOTE, upper case. The display symbol is BASE/QUOTE. */
export const pairIdSchema = z.string().regex(/^[A-Z0-9]{2,12}_[A-Z0-9]{2,12}$/, { error: 'Trading pair not found' });

/** BTC_USD, BTC/USD, BTC-USD, btc_usd -> BTC_USD; anything else -> null. */
export function normalizePairId(symbol: string): string | null {
  const match = /^([A-Za-z0-9]{2,12})[_/-]([A-Za-z0-9]{2,12})$/.exec(symbol.trim());
  if (!match) return null;
  return `${match[1]?.toUpperCase()}_${match[2]?.toUpperCase()}`;
}

/** Spec §3.6 trading pair, every field. Fees are percentages as decimal strings ('0.1' = 0.1 %). */
export const tradingPairSchema = z.object({
  id: z.string(),
  base_currency: z.string(),
  quote_currency: z.string(),
  symbol: z.string().describe('BASE/QUOTE'),
  min_trade_amount: decimalString,
  max_trade_amount: decimalString,
  price_precision: z.number().int(),
  quantity_precision: z.number().int(),
  trading_fee: decimalString,
  maker_fee: decimalString,
  taker_fee: decimalString,
  is_active: z.boolean(),
  is_enabled_by_admin: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  supported_by_provider: z.boolean(),
  current_price: decimalString.nullable(),
  volume_24h: decimalString.nullable(),
  change_24h: decimalString.nullable().describe('Percent change over 24 h'),
});
export type TradingPair = z.infer<typeof tradingPairSchema>;

/** Spec §3.6 live price update (also the ticker). */
export const priceUpdateSchema = z.object({
  symbol: z.string().describe('BASE/QUOTE'),
  price: decimalString,
  change24h: decimalString.describe('Absolute change over 24 h, in the quote currency'),
  changePercent24h: decimalString,
  volume24h: decimalString.describe('Base-currency volume over 24 h'),
  high24h: decimalString,
  low24h: decimalString,
  timestamp: z.number().int().describe('Unix milliseconds'),
});
export type PriceUpdate = z.infer<typeof priceUpdateSchema>;

export const marketStatisticsSchema = priceUpdateSchema.extend({
  pair_id: z.string(),
  open24h: decimalString,
  quote_volume24h: decimalString,
  market_cap: decimalString.nullable().describe('USD market cap of the base coin when known'),
  source: z.string().describe('Which price source produced the last price'),
});
export type MarketStatistics = z.infer<typeof marketStatisticsSchema>;

export const candleSchema = z.object({
  time: z.number().int().describe('Open time, unix milliseconds'),
  open: decimalString,
  high: decimalString,
  low: decimalString,
  close: decimalString,
  volume: decimalString,
});
export type Candle = z.infer<typeof candleSchema>;

/** Candle query: a range picks interval and span; or interval with from/to; limit caps the count. */
export const candlesQuerySchema = z.object({
  range: chartRangeSchema.optional(),
  interval: candleIntervalSchema.optional(),
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
export const candlesResponseSchema = z.object({
  pair_id: z.string(),
  interval: candleIntervalSchema,
  candles: z.array(candleSchema),
});

/** Spec §3.6 provider price quote (payment-provider facade /prices and /price/{base}/{quote}). */
export const providerPriceQuoteSchema = z.object({
  base_currency: z.string(),
  quote_currency: z.string(),
  price: decimalString,
  timestamp: z.string(),
  volume_24h: decimalString,
  change_24h: decimalString,
  change_percent_24h: decimalString,
});
export type ProviderPriceQuote = z.infer<typeof providerPriceQuoteSchema>;

/** Spec §3.5 supported currency (facade /currencies/supported). */
export const supportedCurrencySchema = z.object({
  currency_code: z.string(),
  currency_name: z.string(),
  currency_type: z.enum(['crypto', 'fiat']),
  network: z.string().nullable(),
  min_amount: decimalString,
  max_amount: decimalString,
  processing_fee: decimalString,
  is_active: z.boolean(),
  logo_url: z.string().nullable(),
});
export type SupportedCurrency = z.infer<typeof supportedCurrencySchema>;

/** Watchlist: the user's favourite pairs, in the user's order. */
export const watchlistSchema = z.object({ pair_ids: z.array(z.string()).max(200) });
export type Watchlist = z.infer<typeof watchlistSchema>;
export const WATCHLIST_MAX_PAIRS = 200;

/** PUT /v1/accounts/{id}/watchlist: the whole list, in the user's order; duplicates are dropped. */
export const updateWatchlistRequestSchema = z.object({
  pair_ids: z
    .array(z.string().min(1).max(32), { error: 'pair_ids must be a list of trading pair ids' })
    .max(WATCHLIST_MAX_PAIRS, { error: `A watchlist holds at most ${WATCHLIST_MAX_PAIRS} pairs` }),
});
export type UpdateWatchlistRequest = z.infer<typeof updateWatchlistRequestSchema>;

/**
 * PATCH /v1/admin/trading-pairs/{id} (admin): open or close a pair. A pair is tradable while it is
 * both active and enabled by an admin; the change shows in the public pair lists at once.
 */
export const updateTradingPairRequestSchema = z.object({
  is_enabled_by_admin: z.boolean(),
  is_active: z.boolean().optional(),
});
export type UpdateTradingPairRequest = z.infer<typeof updateTradingPairRequestSchema>;

/**
 * POST /v1/admin/simulator/shock (admin, simulator-only venues): moves a coin's simulated USD price
 * at once by move_percent (a stress test: a crash or a squeeze), from -90 % to +900 %.
 */
export const simulatorShockRequestSchema = z.object({
  symbol: z.string().regex(/^[A-Z0-9]{2,12}$/),
  move_percent: z.string().regex(/^-?\d{1,3}(\.\d{1,2})?$/, { error: 'must be a percentage with at most 2 decimals' }),
});
export const simulatorShockResponseSchema = z.object({ symbol: z.string(), price_usd: decimalString });
