import type { PortfolioHistoryPoint } from '@platform/contracts';
import { type Amount, add, div, formatDecimal, isPositive, mul, parseDecimal, sub, zero } from '@platform/money';

/**
 * The value-over-time card's arithmetic, pure (docs/portfolio.md "Snapshots and value over time").
 * Figures shown as text are the API's exact decimals and exact sums of them; numbers exist only to
 * draw the line.
 */

export type ChartPoint = { time: number; value: number };

/** A history with only the live point: nothing recorded yet (the first snapshot comes at the next hour). */
export const isEmptyHistory = (points: readonly PortfolioHistoryPoint[]) => points.filter((p) => !p.live).length === 0;

/**
 * The line's points, seconds since the epoch, strictly increasing as the chart needs: a point in
 * the same second as the one before it replaces it (the live point just after a snapshot).
 */
export function chartPoints(points: readonly PortfolioHistoryPoint[]): ChartPoint[] {
  const result: ChartPoint[] = [];
  for (const point of points) {
    const time = Math.floor(Date.parse(point.at) / 1000);
    const value = Number(point.total_value);
    if (!Number.isFinite(time) || !Number.isFinite(value)) continue;
    const last = result.at(-1);
    if (last && last.time >= time) result.pop();
    result.push({ time, value });
  }
  return result;
}

/** The API's decimals (products of amounts and prices: up to 72 decimals), exact; anything else counts 0. */
function amountOf(text: string): Amount {
  const parsed = parseDecimal(text, { allowNegative: true, maxScale: 72, maxIntegerDigits: 60 });
  return parsed.ok ? parsed.value : zero();
}
const HUNDRED: Amount = { units: 100n, scale: 0 };

export type RangeChange = {
  /** Last value - first value - the flows after the first point: what the holdings made. */
  gain: string;
  /** gain / first value x 100, 2 decimals half to even; null when the first value is not positive. */
  percent: string | null;
  /** Deposits, withdrawals and transfers with other users over the range, net. */
  flows: string;
  first: PortfolioHistoryPoint;
  last: PortfolioHistoryPoint;
};

/**
 * The change over the range, deposits and withdrawals left out: a deposit is not a gain. Each
 * point's net_flow is what came in since the point before it, so the flows between the first and
 * the last point are the net_flow of every point after the first.
 */
export function rangeChange(points: readonly PortfolioHistoryPoint[]): RangeChange | null {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last || points.length < 2) return null;
  let flows = zero();
  for (const point of points.slice(1)) flows = add(flows, amountOf(point.net_flow));
  const start = amountOf(first.total_value);
  const gain = sub(sub(amountOf(last.total_value), start), flows);
  const percent = isPositive(start) ? div(mul(gain, HUNDRED), start, 2, 'half_even') : null;
  return {
    gain: formatDecimal(gain, { trimZeros: true }),
    percent: percent && formatDecimal(percent),
    flows: formatDecimal(flows, { trimZeros: true }),
    first,
    last,
  };
}

/** The point drawn at a chart time (seconds), for the crosshair's figure: the API's own decimal. */
export function pointAt(points: readonly PortfolioHistoryPoint[], timeSeconds: number): PortfolioHistoryPoint | null {
  let found: PortfolioHistoryPoint | null = null;
  for (const point of points) {
    if (Math.floor(Date.parse(point.at) / 1000) === timeSeconds) found = point;
  }
  return found;
}
