import { z } from 'zod';
import { POSITION_SIDES } from './futures.ts';
import { decimalString } from './markets.ts';

/**
 * The portfolio summary (issue 17, GET /v1/portfolio): what the signed-in account owns, valued in
 * USD at the live reference prices, from the ledger's balances and the futures exchange's memory.
 * Every amount is an exact decimal string. USD values are exact products (amount x price, never
 * rounded); percentages are the only rounded figures, to PORTFOLIO_PERCENT_SCALE decimals
 * (docs/portfolio.md, "Portfolio summary").
 */

/** Percentages (shares, 24 h changes, distance to liquidation) are given to 2 decimals. */
export const PORTFOLIO_PERCENT_SCALE = 2;

/**
 * Where a holding's USD price came from: `unit` for USD itself (1), `reference` for the price
 * sources' live reference price of its USD pair, `catalogue` for the catalogue's static reference
 * price when no live price is known (its 24 h change is then 0).
 */
export const PORTFOLIO_PRICE_SOURCES = ['unit', 'reference', 'catalogue'] as const;
export type PortfolioPriceSource = (typeof PORTFOLIO_PRICE_SOURCES)[number];

/** The lot methods: which open lot a disposal consumes first (docs/portfolio.md "Methods"). */
export const LOT_METHOD_NAMES = ['fifo', 'lifo', 'hifo'] as const;
export type LotMethodName = (typeof LOT_METHOD_NAMES)[number];

/** The two products a balance can sit in. */
export const PORTFOLIO_PRODUCTS = ['spot', 'futures'] as const;

export const portfolioHoldingSchema = z.object({
  asset: z.string(),
  /** available + locked, in the asset. */
  amount: decimalString,
  available: decimalString,
  /** Held by open orders (and transfers in flight): part of amount, shown apart. */
  locked: decimalString,
  /** USD per unit now; null when no price is known (the holding is then left out of every total). */
  price: decimalString.nullable(),
  price_source: z.enum(PORTFOLIO_PRICE_SOURCES).nullable(),
  /** amount x price, exact; null without a price. */
  value: decimalString.nullable(),
  /** The USD price 24 h ago (the reference track's open). */
  price_24h_ago: decimalString.nullable(),
  /** (price - price 24 h ago) / price 24 h ago x 100. */
  change_24h_percent: decimalString.nullable(),
  /** value / total value x 100. */
  share_percent: decimalString,
  /**
   * Cost basis under the summary's lot `method` (docs/portfolio.md "Cost basis on the holdings"),
   * the figures of GET /v1/portfolio/lots, exact to 10^-8 USD: the open lots' cost per whole unit,
   * rounded down; null for USD (the numeraire has no lots) or when no lot is open.
   */
  average_cost: decimalString.nullable(),
  /** What the open lots cost (USD); null for USD or when no lot is open. */
  cost_basis: decimalString.nullable(),
  /** The open lots' value at the live price (rounded down to 10^-8 USD) minus their cost; null without a price or lots. */
  unrealised_pnl: decimalString.nullable(),
  /** unrealised_pnl / cost_basis x 100 (half to even); null when the cost basis is 0 or unknown. */
  unrealised_pnl_percent: decimalString.nullable(),
});
export type PortfolioHolding = z.infer<typeof portfolioHoldingSchema>;

export const portfolioPositionSchema = z.object({
  market: z.string(),
  side: z.enum(POSITION_SIDES),
  size: decimalString,
  entry_price: decimalString,
  mark_price: decimalString,
  liquidation_price: decimalString.nullable(),
  /** Maintenance margin / margin balance (liquidation at 1). */
  margin_ratio: decimalString,
  /** How far the mark may move against the position before liquidation, in % of the mark; null without a liquidation price. */
  distance_to_liquidation_percent: decimalString.nullable(),
  unrealised_pnl: decimalString,
});
export type PortfolioPosition = z.infer<typeof portfolioPositionSchema>;

export const portfolioFuturesSchema = z.object({
  /** The futures wallet's ledger balance outside isolated margins (USD). */
  available: decimalString,
  /** Margin posted to isolated positions (the wallet's locked bucket). */
  isolated_margin: decimalString,
  /** available + isolated margin. */
  wallet_balance: decimalString,
  /** Of every open position, at the mark. */
  unrealised_pnl: decimalString,
  /** wallet balance + unrealised P&L: what the futures product adds to the total value. */
  equity: decimalString,
  share_percent: decimalString,
  positions: z.array(portfolioPositionSchema),
});

export const portfolioAllocationSchema = z.object({
  key: z.string(),
  value: decimalString,
  share_percent: decimalString,
});

export const portfolioSummarySchema = z.object({
  currency: z.literal('USD'),
  /** Spot holdings' values + futures equity, exact. */
  total_value: decimalString,
  /** The same holdings at the prices of 24 h ago (no snapshots yet: holdings now, yesterday's prices). */
  total_value_24h_ago: decimalString,
  change_24h: decimalString,
  /** change_24h / total_value_24h_ago x 100; null when that is zero. */
  change_24h_percent: decimalString.nullable(),
  /** Value held by open orders (spot locked balances), included in total_value. */
  locked_value: decimalString,
  allocation: z.object({
    /** By asset: each spot asset, with the futures equity counted as USD (its collateral). */
    by_asset: z.array(portfolioAllocationSchema),
    /** By product: spot (every spot holding) and futures (its equity). */
    by_product: z.array(portfolioAllocationSchema),
  }),
  /** Spot holdings with a balance, largest value first. */
  holdings: z.array(portfolioHoldingSchema),
  futures: portfolioFuturesSchema,
  /** The lot method of the holdings' cost basis: the account's stored preference (fifo until set). */
  method: z.enum(LOT_METHOD_NAMES),
  /** When the summary was computed (ms on the server clock). */
  timestamp: z.number().int(),
});
export type PortfolioSummary = z.infer<typeof portfolioSummarySchema>;

/**
 * Cost basis from the ledger (issue 17 item 2 and the tax report of item 4; docs/portfolio.md
 * "Lots from the ledger"): the account's lots per asset under the method the user picks, the
 * realised gains of a tax year, and their CSV. USD values are exact to 10^-8 USD (the lot engine's
 * unit), amounts exact at the ledger's 18 decimals; both as decimal strings, trailing zeros trimmed.
 */
export const lotMethodSchema = z.enum(LOT_METHOD_NAMES).default('fifo');
/** A lot method in a query: absent means the account's stored preference (GET /v1/portfolio/settings). */
const queryLotMethodSchema = z.enum(LOT_METHOD_NAMES).optional();
export const LOT_ACQUISITION_KINDS = ['buy', 'conversion_in', 'deposit', 'transfer_in', 'other'] as const;
export const LOT_DISPOSAL_KINDS = ['sell', 'conversion_out', 'withdrawal', 'transfer_out', 'fee', 'other'] as const;
/** Tax years the reports accept (the lot engine's times: 1970..9999). */
export const TAX_YEAR_MIN = 1970;
export const TAX_YEAR_MAX = 9998;

export const portfolioLotsQuerySchema = z.object({
  asset: z.string().regex(/^[A-Z0-9]{1,20}$/, { error: 'must be a currency code such as BTC' }),
  method: queryLotMethodSchema,
});

export const portfolioLotSchema = z.object({
  lot_id: z.string(),
  kind: z.enum(LOT_ACQUISITION_KINDS),
  acquired_at: z.string(),
  /** What the acquisition received, and what of it is still open. */
  original_amount: decimalString,
  amount: decimalString,
  /** The open part's cost basis (USD), and per whole unit (rounded down). */
  cost: decimalString,
  cost_per_unit: decimalString,
  /** At the live price; null without one. */
  value: decimalString.nullable(),
  unrealised_pnl: decimalString.nullable(),
});

export const portfolioLotsSchema = z.object({
  asset: z.string(),
  method: z.enum(LOT_METHOD_NAMES),
  /** USD per unit now (the summary's price chain); null when no price is known. */
  price: decimalString.nullable(),
  lots: z.array(portfolioLotSchema),
  totals: z.object({
    amount: decimalString,
    cost: decimalString,
    /** Open cost per whole unit, rounded down; null when nothing is open. */
    average_cost: decimalString.nullable(),
    value: decimalString.nullable(),
    unrealised_pnl: decimalString.nullable(),
    /** Realised gain of every disposal so far (transfers out excluded: they realise nothing). */
    realised_pnl: decimalString,
    /** Disposed amount no recorded acquisition covered (counted at a zero cost basis). */
    uncovered_amount: decimalString,
  }),
});
export type PortfolioLots = z.infer<typeof portfolioLotsSchema>;

export const portfolioTaxYearQuerySchema = z.object({
  year: z.coerce.number().int().min(TAX_YEAR_MIN).max(TAX_YEAR_MAX),
  method: queryLotMethodSchema,
});

export const portfolioRealisedRowSchema = z.object({
  asset: z.string(),
  disposal_id: z.string(),
  disposal_kind: z.enum(LOT_DISPOSAL_KINDS),
  /** null: the part of a disposal that no recorded acquisition covered (zero cost basis). */
  lot_id: z.string().nullable(),
  acquisition_kind: z.enum(LOT_ACQUISITION_KINDS).nullable(),
  acquired_at: z.string().nullable(),
  sold_at: z.string(),
  amount: decimalString,
  /** Gross proceeds, cost basis, fee and gain = proceeds - cost - fee (USD). */
  proceeds: decimalString,
  cost: decimalString,
  fee: decimalString,
  gain: decimalString,
});

export const portfolioRealisedSchema = z.object({
  year: z.number().int(),
  method: z.enum(LOT_METHOD_NAMES),
  rows: z.array(portfolioRealisedRowSchema),
  totals: z.object({
    rows: z.number().int(),
    proceeds: decimalString,
    cost: decimalString,
    fee: decimalString,
    gain: decimalString,
  }),
});
export type PortfolioRealised = z.infer<typeof portfolioRealisedSchema>;

/**
 * The account's portfolio settings (GET and PUT /v1/portfolio/settings), stored on the server: the
 * lot method of the summary's cost basis and of the lots, realised and tax-report reads when they
 * are asked without one. fifo until set.
 */
export const portfolioSettingsSchema = z.object({ lot_method: z.enum(LOT_METHOD_NAMES) });
export type PortfolioSettings = z.infer<typeof portfolioSettingsSchema>;
export const portfolioSettingsUpdateSchema = z.strictObject({ lot_method: z.enum(LOT_METHOD_NAMES) });

/**
 * Value over time (GET /v1/portfolio/history; docs/portfolio.md "Snapshots and value over time"):
 * the account's recorded snapshots over a range, oldest first, then the live value now as the
 * last point. 1D and 1W read the hourly snapshots, the longer ranges the daily ones (00:00 UTC).
 */
export const PORTFOLIO_HISTORY_RANGES = ['1D', '1W', '1M', '3M', '1Y', 'all'] as const;
export type PortfolioHistoryRange = (typeof PORTFOLIO_HISTORY_RANGES)[number];
/** How far back each range reaches (ms); `all` has no bound. */
export const PORTFOLIO_HISTORY_RANGE_MS: Readonly<Record<PortfolioHistoryRange, number | null>> = {
  '1D': 24 * 3_600_000,
  '1W': 7 * 24 * 3_600_000,
  '1M': 30 * 24 * 3_600_000,
  '3M': 90 * 24 * 3_600_000,
  '1Y': 365 * 24 * 3_600_000,
  all: null,
};
/** The snapshots each range reads. */
export const PORTFOLIO_HISTORY_GRANULARITY: Readonly<Record<PortfolioHistoryRange, 'hour' | 'day'>> = {
  '1D': 'hour',
  '1W': 'hour',
  '1M': 'day',
  '3M': 'day',
  '1Y': 'day',
  all: 'day',
};
/** At most this many stored points per answer (the newest; 20 years of daily points), plus the live one. */
export const PORTFOLIO_HISTORY_MAX_POINTS = 7_400;

export const portfolioHistoryQuerySchema = z.object({
  range: z.enum(PORTFOLIO_HISTORY_RANGES, { error: `range must be one of ${PORTFOLIO_HISTORY_RANGES.join(', ')}` }),
});

export const portfolioHistoryPointSchema = z.object({
  /** The moment valued (ISO 8601, UTC): a snapshot's bucket, or now for the live point. */
  at: z.string(),
  /** USD, exact: spot_value + futures_equity. */
  total_value: decimalString,
  spot_value: decimalString,
  /** Futures wallet balance + unrealised P&L at the mark (may be negative). */
  futures_equity: decimalString,
  /**
   * USD value of what came in minus what went out (deposits, withdrawals, transfers with other
   * users) since the point before, each at its recorded price; trades, conversions, fees and
   * spot <-> futures moves are not flows. The change between two points less the flows after the
   * first is what the holdings made.
   */
  net_flow: decimalString,
  /** false for the stored snapshots, true for the last point (the live value now). */
  live: z.boolean(),
});
export type PortfolioHistoryPoint = z.infer<typeof portfolioHistoryPointSchema>;

export const portfolioHistorySchema = z.object({
  currency: z.literal('USD'),
  range: z.enum(PORTFOLIO_HISTORY_RANGES),
  granularity: z.enum(['hour', 'day']),
  /** Oldest first; the last one is the live value now (so a new account has exactly one point). */
  points: z.array(portfolioHistoryPointSchema),
});
export type PortfolioHistory = z.infer<typeof portfolioHistorySchema>;
