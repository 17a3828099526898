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
  /** When the summary was computed (ms on the server clock). */
  timestamp: z.number().int(),
});
export type PortfolioSummary = z.infer<typeof portfolioSummarySchema>;
