import { z } from 'zod';
import { decimalString } from './markets.ts';
import { LOT_METHOD_NAMES } from './portfolio.ts';

/**
 * Trading analytics of one account over a period (issue 17, GET /v1/analytics and
 * GET /v1/accounts/{id}/analytics; docs/analytics.md has every definition). USD figures are exact
 * decimal strings; percentages and ratios are computed exactly, then rounded half to even to
 * ANALYTICS_PERCENT_SCALE decimals, and null when they would divide by zero.
 */

/** Percentages and ratios (win rate, profit factor, TWR, drawdown) are given to 2 decimals. */
export const ANALYTICS_PERCENT_SCALE = 2;
/** The period when none is given: the last 30 days, today (UTC) included. */
export const ANALYTICS_DEFAULT_PERIOD_DAYS = 30;
/**
 * The longest period one request may cover, both ends included: a year and a leap day. Each
 * request reads the period's fills and snapshots, so the span bounds its cost.
 */
export const ANALYTICS_MAX_PERIOD_DAYS = 366;
/** Dates a period may name: four-digit years the lot engine accepts. */
export const ANALYTICS_MIN_YEAR = 1970;
export const ANALYTICS_MAX_YEAR = 9999;

/**
 * Where a trade came from. Only `manual` exists today; strategies and copy trading will add their
 * own sources here (the hook: `by_source` and the `source` filter take them without a new shape).
 */
export const ANALYTICS_SOURCES = ['manual'] as const;
export const ANALYTICS_SOURCE_FILTERS = ['all', ...ANALYTICS_SOURCES] as const;
export const ANALYTICS_PRODUCTS = ['spot', 'futures'] as const;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch ms of midnight UTC of a YYYY-MM-DD date, or null when it is not a real calendar date in range. */
export function analyticsDateMs(text: string): number | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < ANALYTICS_MIN_YEAR || year > ANALYTICS_MAX_YEAR) return null;
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day ? ms : null;
}

/** A UTC calendar date, YYYY-MM-DD. */
export const analyticsDateSchema = z
  .string()
  .max(10)
  .refine((text) => analyticsDateMs(text) !== null, {
    error: `must be a date YYYY-MM-DD between ${ANALYTICS_MIN_YEAR} and ${ANALYTICS_MAX_YEAR}`,
  });

/**
 * An optional period of whole UTC days, both ends included. The checks that need both ends (from
 * after to, a span over the maximum) are made by the server once a missing end is filled in.
 */
export const periodQuerySchema = z.object({
  from: analyticsDateSchema.optional(),
  to: analyticsDateSchema.optional(),
});
export type PeriodQuery = z.infer<typeof periodQuerySchema>;

export const analyticsQuerySchema = periodQuerySchema.extend({
  /** Lot method of the spot P&L (the portfolio's lots). */
  method: z.enum(LOT_METHOD_NAMES).default('fifo'),
  /** Which trades: `all` or one source. Only `manual` exists today (the strategies' hook). */
  source: z.enum(ANALYTICS_SOURCE_FILTERS).default('all'),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

export const analyticsTradeSchema = z.object({
  product: z.enum(ANALYTICS_PRODUCTS),
  /** The spot asset (BTC) or the futures market (BTC_USD_PERP). */
  asset: z.string(),
  /** When the trade closed, ISO 8601 UTC. */
  time: z.string(),
  pnl: decimalString,
});
export type AnalyticsTrade = z.infer<typeof analyticsTradeSchema>;

export const analyticsAssetPnlSchema = z.object({
  product: z.enum(ANALYTICS_PRODUCTS),
  asset: z.string(),
  pnl: decimalString,
});

export const analyticsDayPnlSchema = z.object({
  /** UTC date, YYYY-MM-DD; days without realised P&L are left out. */
  date: z.string(),
  pnl: decimalString,
  closed_trades: z.number().int(),
});

export const analyticsEquityPointSchema = z.object({
  /** The snapshot's time, ISO 8601 UTC. */
  at: z.string(),
  total_value: decimalString,
  /** The time-weighted return from the period's start to this snapshot, percent. */
  twr_percent: decimalString,
  /** How far the TWR index is below its running peak, percent (0 at a peak). */
  drawdown_percent: decimalString,
});
export type AnalyticsEquityPoint = z.infer<typeof analyticsEquityPointSchema>;

const sourceFiguresSchema = z.object({
  source: z.enum(ANALYTICS_SOURCES),
  trades: z.number().int(),
  closed_trades: z.number().int(),
  volume: decimalString,
  realised_pnl: decimalString,
});

export const analyticsSchema = z.object({
  period: z.object({ from: z.string(), to: z.string(), days: z.number().int() }),
  method: z.enum(LOT_METHOD_NAMES),
  source: z.enum(ANALYTICS_SOURCE_FILTERS),
  /** USD: spot fills' value + futures fills' notional. */
  volume: decimalString,
  /** Fills, spot and futures. */
  trades: z.number().int(),
  closed_trades: z.number().int(),
  winning_trades: z.number().int(),
  losing_trades: z.number().int(),
  win_rate_percent: decimalString.nullable(),
  /** Gross wins / number of wins, USD to 8 decimals (half to even). */
  average_win: decimalString.nullable(),
  /** Gross losses / number of losses, negative, USD to 8 decimals (half to even). */
  average_loss: decimalString.nullable(),
  /** Gross wins / gross losses; null without a loss. */
  profit_factor: decimalString.nullable(),
  gross_wins: decimalString,
  gross_losses: decimalString,
  fees_paid: decimalString,
  funding_paid: decimalString,
  funding_received: decimalString,
  /**
   * Futures liquidation fees paid (income `liquidation_fee`, the fee and any surplus a liquidation
   * took for the insurance fund), a positive amount; shown apart from `fees_paid`, in the P&L.
   */
  liquidation_fees: decimalString,
  /**
   * What the insurance fund paid in to bring the futures wallet back to zero (income
   * `insurance_clear`: a loss or funding beyond the collateral), positive; in the P&L.
   */
  insurance_cleared: decimalString,
  /** Spot realised gains + futures realised P&L − futures fees + funding − liquidation fees + insurance cleared. */
  realised_pnl: decimalString,
  best_trade: analyticsTradeSchema.nullable(),
  worst_trade: analyticsTradeSchema.nullable(),
  pnl_by_asset: z.array(analyticsAssetPnlSchema),
  pnl_by_day: z.array(analyticsDayPnlSchema),
  /** From the daily snapshots; null without any. */
  time_weighted_return_percent: decimalString.nullable(),
  max_drawdown_percent: decimalString.nullable(),
  equity: z.array(analyticsEquityPointSchema),
  /** The same figures per source of trades (only `manual` today). */
  by_source: z.array(sourceFiguresSchema),
});
export type Analytics = z.infer<typeof analyticsSchema>;
