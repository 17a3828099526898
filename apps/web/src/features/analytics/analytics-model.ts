import { ANALYTICS_MAX_PERIOD_DAYS, type Analytics, analyticsDateMs } from '@platform/contracts';
import { formatDecimal, toScale } from '@platform/money';
import { MISSING_VALUE, toAmount } from '../../lib/format.ts';
import { localizedNumber } from '../../state/preferences-store.ts';
import { formatUsdValue } from '../portfolio/portfolio-model.ts';

/**
 * The analytics screen's logic without React: periods, the heat map's weeks, the bars' lengths and
 * the figures' formats. Figures stay the API's exact decimals; a P&L becomes a number only for a
 * colour's intensity or a bar's length, never for a figure that is shown.
 */

export const PERIOD_PRESETS = ['7d', '30d', '90d', '1y'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export type PeriodChoice = PeriodPreset | 'custom';
export const DEFAULT_PRESET: PeriodPreset = '30d';
const PRESET_DAYS: Record<PeriodPreset, number> = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 };
const DAY_MS = 86_400_000;

export type PeriodRange = { from: string; to: string };

export const utcDateText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A preset's days, today (UTC) the last of them. */
export function presetRange(preset: PeriodPreset, now: Date): PeriodRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: utcDateText(today - (PRESET_DAYS[preset] - 1) * DAY_MS), to: utcDateText(today) };
}

/** A custom period the server would take: real dates, from on or before to, at most the maximum span. */
export function isValidRange(range: PeriodRange): boolean {
  const from = analyticsDateMs(range.from);
  const to = analyticsDateMs(range.to);
  return from !== null && to !== null && from <= to && (to - from) / DAY_MS + 1 <= ANALYTICS_MAX_PERIOD_DAYS;
}

/** Never traded in the period, nothing to chart: the empty state. */
export function isEmptyAnalytics(analytics: Analytics): boolean {
  return analytics.trades === 0 && analytics.pnl_by_day.length === 0 && analytics.equity.length === 0;
}

/** '$1,234.50'; with `signed`, '+$12.00' for a gain. USD precision (2 decimals). */
export const formatUsd = (value: string | null | undefined, signed = false) =>
  value === null || value === undefined ? MISSING_VALUE : formatUsdValue(value, { signed });

/** '66.67' -> '66.67%' (2 decimals, the user's separators); null -> '—'. */
export function formatPercentFigure(value: string | null | undefined, signed = false): string {
  const amount = toAmount(value);
  if (!amount) return MISSING_VALUE;
  const text = localizedNumber(formatDecimal(toScale(amount, 2, 'half_even')));
  return `${signed && amount.units > 0n ? '+' : ''}${text}%`;
}

/** A ratio such as the profit factor: '2.5' -> '2.50'; null -> '—'. */
export function formatRatio(value: string | null | undefined): string {
  const amount = toAmount(value);
  return amount ? localizedNumber(formatDecimal(toScale(amount, 2, 'half_even'))) : MISSING_VALUE;
}

export function toneOfFigure(value: string | null | undefined): 'up' | 'down' | undefined {
  const amount = toAmount(value);
  if (!amount || amount.units === 0n) return undefined;
  return amount.units > 0n ? 'up' : 'down';
}

/** Intensity steps of the heat map's colours (1 = faint, 4 = the strongest day). */
export const HEAT_LEVELS = 4;

export interface CalendarCell {
  date: string;
  /** The day's P&L (exact), or null without realised P&L. */
  pnl: string | null;
  closedTrades: number;
  /** −HEAT_LEVELS..HEAT_LEVELS: the sign is the colour, the size the intensity; 0 for none. */
  level: number;
  /** Outside the period (the first and last weeks are padded to whole weeks). */
  outside: boolean;
}

/** The magnitude of a decimal as a number, for drawing only. */
const drawn = (value: string) => Math.abs(Number(value));

function levelOf(pnl: string | null, largest: number): number {
  if (pnl === null || largest === 0) return 0;
  const size = drawn(pnl);
  if (size === 0) return 0;
  const level = Math.max(1, Math.ceil((size / largest) * HEAT_LEVELS));
  return pnl.startsWith('-') ? -level : level;
}

/**
 * The period's days in weeks (columns) of seven days, Monday first, for the heat map: every day of
 * the period once, in order, with its P&L and intensity; the first and last weeks padded.
 */
export function calendarWeeks(range: PeriodRange, days: Analytics['pnl_by_day']): CalendarCell[][] {
  const from = analyticsDateMs(range.from);
  const to = analyticsDateMs(range.to);
  if (from === null || to === null || from > to) return [];
  const byDate = new Map(days.map((day) => [day.date, day]));
  const largest = Math.max(0, ...days.map((day) => drawn(day.pnl)));
  const weekday = (new Date(from).getUTCDay() + 6) % 7;
  const weeks: CalendarCell[][] = [];
  for (let ms = from - weekday * DAY_MS; ms <= to; ms += 7 * DAY_MS) {
    const week: CalendarCell[] = [];
    for (let index = 0; index < 7; index++) {
      const dayMs = ms + index * DAY_MS;
      const date = utcDateText(dayMs);
      const day = byDate.get(date);
      const outside = dayMs < from || dayMs > to;
      const pnl = outside ? null : (day?.pnl ?? null);
      week.push({ date, pnl, closedTrades: day?.closed_trades ?? 0, level: levelOf(pnl, largest), outside });
    }
    weeks.push(week);
  }
  return weeks;
}

export interface AssetBar {
  key: string;
  product: 'spot' | 'futures';
  asset: string;
  pnl: string;
  /** The bar's length, percent of the largest magnitude (drawing only). */
  widthPercent: number;
  tone: 'up' | 'down' | undefined;
}

/** P&L by asset as bars, in the server's order (largest gain first). */
export function assetBars(rows: Analytics['pnl_by_asset']): AssetBar[] {
  const largest = Math.max(0, ...rows.map((row) => drawn(row.pnl)));
  return rows.map((row) => ({
    key: `${row.product}:${row.asset}`,
    product: row.product,
    asset: row.asset,
    pnl: row.pnl,
    widthPercent: largest === 0 ? 0 : Math.max(1, (drawn(row.pnl) / largest) * 100),
    tone: toneOfFigure(row.pnl),
  }));
}

/** A market id or asset as people read it: BTC_USD_PERP -> BTC-PERP. */
export function assetLabel(product: 'spot' | 'futures', asset: string): string {
  return product === 'futures' ? asset.replace(/_USD_PERP$/, '-PERP') : asset;
}
