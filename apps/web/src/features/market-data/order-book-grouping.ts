import {
  type Amount,
  add,
  ceilToStep,
  compare,
  div,
  eq,
  floorToStep,
  formatDecimal,
  isZero,
  mul,
  sub,
  toScale,
} from '@platform/money';
import type { BookLevel, BookSide } from './order-book.ts';

/**
 * Price grouping of the order book (the "0.01 / 0.1 / 1 / 10" selector of exchange trade pages):
 * levels are aggregated by flooring bids and ceiling asks to the group step, so a grouped bid never
 * claims a better price than its orders offer, and likewise for asks. Exact decimals throughout.
 */

/** The tick, and ten, a hundred and a thousand ticks. */
export const GROUPING_MULTIPLIER_EXPONENTS = [0, 1, 2, 3] as const;

/** 10^(exponent - pricePrecision) at its natural scale: 0.01 at 2, 1 at 0, 10 at 0. */
export function groupingStep(pricePrecision: number, exponent: number): Amount {
  const shift = exponent - pricePrecision;
  return shift >= 0 ? { units: 10n ** BigInt(shift), scale: 0 } : { units: 1n, scale: -shift };
}

export function groupingSteps(pricePrecision: number): Amount[] {
  return GROUPING_MULTIPLIER_EXPONENTS.map((exponent) => groupingStep(pricePrecision, exponent));
}

/** One row of the grouped book. `total` is the cumulative quantity from the best price to this row. */
export interface GroupedLevel {
  /** The group's price at the step's scale: '67202.73' at 0.01, '67200' at 10. */
  price: string;
  priceAmount: Amount;
  quantity: Amount;
  total: Amount;
}

/**
 * Aggregates `levels` (best first, as OrderBookState.levels gives them) into at most `limit` rows.
 * Sorted levels fall into groups in order, so neighbours are merged in one pass.
 */
export function groupLevels(levels: readonly BookLevel[], side: BookSide, step: Amount, limit: number): GroupedLevel[] {
  const rows: GroupedLevel[] = [];
  let total: Amount = { units: 0n, scale: 0 };
  for (const level of levels) {
    const grouped = side === 'bid' ? floorToStep(level.priceAmount, step) : ceilToStep(level.priceAmount, step);
    const last = rows[rows.length - 1];
    total = add(total, level.quantityAmount);
    if (last && eq(last.priceAmount, grouped)) {
      last.quantity = add(last.quantity, level.quantityAmount);
      last.total = total;
      continue;
    }
    if (rows.length === limit) break;
    // Exact: the grouped price is a multiple of the step, so its scale can be the step's.
    const priceAmount = toScale(grouped, step.scale, 'down');
    rows.push({ price: formatDecimal(priceAmount), priceAmount, quantity: level.quantityAmount, total });
  }
  return rows;
}

export interface Spread {
  absolute: Amount;
  /** Of the mid price, in percent, to 3 decimals. */
  percent: Amount;
}

/** Best ask minus best bid, and that as a percentage of the mid; null when a side is empty. */
export function bookSpread(bestBid: Amount | undefined, bestAsk: Amount | undefined): Spread | null {
  if (!bestBid || !bestAsk) return null;
  const absolute = sub(bestAsk, bestBid);
  const doubleMid = add(bestAsk, bestBid);
  if (isZero(doubleMid)) return null;
  // spread / ((bid + ask) / 2) * 100 = spread * 200 / (bid + ask)
  const percent = div(mul(absolute, { units: 200n, scale: 0 }), doubleMid, 3, 'half_up');
  return { absolute, percent };
}

/** value / max as a number in [0, 1], for drawing only (bar widths, chart heights). */
export function depthFraction(value: Amount, max: Amount): number {
  if (isZero(max) || compare(value, max) >= 0) return isZero(max) ? 0 : 1;
  return Number(formatDecimal(div(value, max, 4, 'down')));
}
