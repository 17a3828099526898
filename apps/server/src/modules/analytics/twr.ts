import { ANALYTICS_PERCENT_SCALE, type AnalyticsEquityPoint } from '@platform/contracts';
import { type Amount, div, formatDecimal, sub } from '@platform/money';
import { usdText } from './figures.ts';

/**
 * Time-weighted return and maximum drawdown from daily snapshots (docs/analytics.md). Each day is a
 * sub-period: r = (V_i − net_flow_i) / V_{i−1} − 1, the day's flows counted at its end, so money
 * paid in or out is never a gain or a loss. The index chains (1 + r) as an exact fraction of
 * bigints; only the shown percentages round (half to even). A day after a zero value is skipped
 * (no return can be measured on nothing).
 */

export type Snapshot = { atMs: number; totalValue: Amount; netFlow: Amount };

/** A fraction num / den with den > 0. */
type Ratio = { num: bigint; den: bigint };

/** An amount as integer units at a common scale, so two amounts divide as plain bigints. */
function unitsAt(value: Amount, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

function percentText(ratio: Ratio): string {
  const shown = div(
    { units: (ratio.num - ratio.den) * 100n, scale: 0 },
    { units: ratio.den, scale: 0 },
    ANALYTICS_PERCENT_SCALE,
    'half_even',
  );
  return formatDecimal(shown, { trimZeros: true });
}

/** (peak − index) / peak as a ratio, both positive-denominator fractions. */
function drawdownOf(index: Ratio, peak: Ratio): Ratio {
  // 1 − (index / peak) = (peak.num·index.den − index.num·peak.den) / (peak.num·index.den)
  const base = peak.num * index.den;
  if (base === 0n) return { num: 0n, den: 1n };
  const num = base - index.num * peak.den;
  return base > 0n ? { num, den: base } : { num: -num, den: -base };
}

const greater = (a: Ratio, b: Ratio) => a.num * b.den > b.num * a.den;

export type TwrResult = {
  twrPercent: string | null;
  maxDrawdownPercent: string | null;
  points: AnalyticsEquityPoint[];
};

/**
 * `base` is the last snapshot before the period (null if none): the period's first day is measured
 * from it. `rows` are the period's daily snapshots, oldest first. Without any snapshot: nulls.
 */
export function timeWeightedReturn(base: Snapshot | null, rows: readonly Snapshot[]): TwrResult {
  if (rows.length === 0) return { twrPercent: null, maxDrawdownPercent: null, points: [] };
  const scale = Math.max(
    0,
    ...[base, ...rows].flatMap((row) => (row ? [row.totalValue.scale, row.netFlow.scale] : [])),
  );
  let index: Ratio = { num: 1n, den: 1n };
  let peak: Ratio = index;
  let worst: Ratio = { num: 0n, den: 1n };
  let previous = base;
  const points: AnalyticsEquityPoint[] = [];
  for (const row of rows) {
    const before = previous === null ? 0n : unitsAt(previous.totalValue, scale);
    if (before !== 0n) {
      // (V_i − F_i) / V_{i−1}: the day's growth factor.
      const grown = unitsAt(sub(row.totalValue, row.netFlow), scale);
      const factor = before > 0n ? { num: grown, den: before } : { num: -grown, den: -before };
      index = { num: index.num * factor.num, den: index.den * factor.den };
    }
    if (greater(index, peak)) peak = index;
    const drawdown = drawdownOf(index, peak);
    if (greater(drawdown, worst)) worst = drawdown;
    points.push({
      at: new Date(row.atMs).toISOString(),
      total_value: usdText(row.totalValue),
      twr_percent: percentText(index),
      drawdown_percent: percentText({ num: drawdown.num + drawdown.den, den: drawdown.den }),
    });
    previous = row;
  }
  return {
    twrPercent: percentText(index),
    maxDrawdownPercent: percentText({ num: worst.num + worst.den, den: worst.den }),
    points,
  };
}
