import type { PortfolioHolding, PortfolioSummary } from '@platform/contracts';
import { type Amount, abs, add, compare, formatDecimal, isZero, lt, toScale } from '@platform/money';
import { formatUsdPrice, MISSING_VALUE, toAmount } from '../../lib/format.ts';
import { formatMoney } from '../../lib/number-format.ts';
import { localizedNumber } from '../../state/preferences-store.ts';

/**
 * The portfolio screen's logic without React: sorting and hiding holdings, the donut's slices and
 * the figures at their precision. Every amount stays an exact decimal (@platform/money); a share is
 * turned into a number only for the donut's geometry, never for a figure that is shown.
 */

export const HOLDING_SORT_KEYS = ['asset', 'amount', 'price', 'value', 'avgCost', 'pnl', 'change', 'share'] as const;
export type HoldingSortKey = (typeof HOLDING_SORT_KEYS)[number];
export type SortDirection = 'ascending' | 'descending';

export interface HoldingSort {
  key: HoldingSortKey;
  direction: SortDirection;
}

/** The server's order (largest value first) is the screen's first order too. */
export const DEFAULT_HOLDING_SORT: HoldingSort = { key: 'value', direction: 'descending' };

/** A click on a column: the other direction on the same column, else its natural first direction. */
export function nextSort(current: HoldingSort, key: HoldingSortKey): HoldingSort {
  if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: key === 'asset' ? 'ascending' : 'descending' };
}

function figureOf(holding: PortfolioHolding, key: Exclude<HoldingSortKey, 'asset'>): Amount | null {
  const text = {
    amount: holding.amount,
    price: holding.price,
    value: holding.value,
    avgCost: holding.average_cost,
    pnl: holding.unrealised_pnl,
    change: holding.change_24h_percent,
    share: holding.share_percent,
  }[key];
  return toAmount(text);
}

function compareHoldings(a: PortfolioHolding, b: PortfolioHolding, key: HoldingSortKey): number | null {
  if (key === 'asset') return a.asset.localeCompare(b.asset);
  const left = figureOf(a, key);
  const right = figureOf(b, key);
  if (left && right) return compare(left, right);
  if (!left && !right) return 0;
  return null;
}

/**
 * Sorted by the column, exactly (decimal comparison). A holding without the figure (no price, no
 * cost basis: USD, or nothing bought) goes last in either direction; equals keep the asset's alphabetical order, so the order is stable.
 */
export function sortHoldings(holdings: readonly PortfolioHolding[], sort: HoldingSort): PortfolioHolding[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...holdings].sort((a, b) => {
    const order = compareHoldings(a, b, sort.key);
    if (order === null) return figureOf(a, sort.key as 'value') ? -1 : 1;
    return order * sign || a.asset.localeCompare(b.asset);
  });
}

/**
 * Holdings worth less than the threshold in USD left out. A holding without a price is kept: its
 * worth is not known, so it is not known to be small.
 */
export function hideSmallHoldings(holdings: readonly PortfolioHolding[], thresholdUsd: string): PortfolioHolding[] {
  const threshold = toAmount(thresholdUsd);
  if (!threshold) return [...holdings];
  return holdings.filter((holding) => {
    const value = toAmount(holding.value);
    return value === null || !lt(value, threshold);
  });
}

/** A new account: nothing held in either wallet. */
export function isEmptyPortfolio(summary: PortfolioSummary): boolean {
  const equity = toAmount(summary.futures.equity);
  return summary.holdings.length === 0 && summary.futures.positions.length === 0 && (!equity || isZero(equity));
}

export interface DonutSlice {
  key: string;
  value: string;
  sharePercent: string;
  /** Where the slice starts and how long it is, in percent of the ring (geometry only). */
  startPercent: number;
  lengthPercent: number;
}

/** Slices drawn and listed before the rest is merged into one "other" slice. */
export const DONUT_MAX_SLICES = 7;
export const OTHER_SLICE_KEY = 'other';

interface AllocationItem {
  key: string;
  value: string;
  share_percent: string;
}

function mergeTail(items: readonly AllocationItem[]): AllocationItem[] {
  if (items.length <= DONUT_MAX_SLICES) return [...items];
  const head = items.slice(0, DONUT_MAX_SLICES - 1);
  let value: Amount = { units: 0n, scale: 0 };
  let share: Amount = { units: 0n, scale: 0 };
  for (const item of items.slice(DONUT_MAX_SLICES - 1)) {
    value = add(value, toAmount(item.value) ?? value);
    share = add(share, toAmount(item.share_percent) ?? share);
  }
  return [...head, { key: OTHER_SLICE_KEY, value: formatDecimal(value), share_percent: formatDecimal(share) }];
}

/**
 * The donut's slices from the API's allocation (largest first, shares summing to exactly 100), the
 * tail merged into "other" by exact addition. Slices of a zero share are listed but not drawn.
 */
export function donutSlices(items: readonly AllocationItem[]): DonutSlice[] {
  // The start is summed exactly and only then made a number, so slices meet without float drift.
  let start: Amount = { units: 0n, scale: 0 };
  return mergeTail(items).map((item) => {
    const share = toAmount(item.share_percent) ?? { units: 0n, scale: 0 };
    const slice = {
      key: item.key,
      value: item.value,
      sharePercent: item.share_percent,
      startPercent: Number(formatDecimal(start)),
      lengthPercent: Number(formatDecimal(share)),
    };
    start = add(start, share);
    return slice;
  });
}

/** '12.5' -> '12.50%' (shares come at 2 decimals; shown as they are, with the user's separators). */
export function formatShare(value: string | null | undefined): string {
  const amount = toAmount(value);
  if (!amount) return MISSING_VALUE;
  return `${localizedNumber(formatDecimal(toScale(amount, 2, 'half_even')))}%`;
}

/** '$1,234.50', '-$12.00', '+$12.00' with `signed` for a change. */
export function formatUsdValue(value: string | null | undefined, options: { signed?: boolean } = {}): string {
  const text = formatMoney(value ?? null, 'USD');
  if (!options.signed || text === MISSING_VALUE || text.startsWith('-')) return text;
  return /^\$0(\.0+)?$/.test(text) ? text : `+${text}`;
}

/** 'up', 'down' or undefined for a signed figure (the colour of a change). */
export function toneOf(value: string | null | undefined): 'up' | 'down' | undefined {
  const amount = toAmount(value);
  if (!amount || isZero(amount)) return undefined;
  return amount.units > 0n ? 'up' : 'down';
}

/** The spot pair's trade address for an asset, or null for the dollar itself. */
export function tradeHref(asset: string): string | null {
  return asset === 'USD' ? null : `/trade?pair=${encodeURIComponent(`${asset}/USD`)}`;
}

export const depositHref = (asset: string) => `/wallet?action=deposit&currency=${encodeURIComponent(asset)}`;
export const withdrawHref = (asset: string) => `/wallet?action=withdraw&currency=${encodeURIComponent(asset)}`;
export const futuresHref = (market: string) => `/trade/futures/${encodeURIComponent(market)}`;

const ONE_DOLLAR: Amount = { units: 1n, scale: 0 };

/**
 * An average cost per unit: from a dollar up, to the cent like the price beside it (the lot
 * engine's exact figure, to 10^-8 USD, is the cell's title); below a dollar, as prices are shown.
 */
export function formatCostPerUnit(value: string | null | undefined): string {
  const amount = toAmount(value);
  if (!amount) return MISSING_VALUE;
  if (compare(abs(amount), ONE_DOLLAR) < 0) return formatUsdPrice(value);
  return formatUsdPrice(formatDecimal(toScale(amount, 2, 'half_up')));
}
