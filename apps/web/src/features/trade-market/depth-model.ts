import { type Amount, add, compare, div, formatDecimal, max, min, sub } from '@platform/money';
import type { BookLevel } from '../market-data/index.ts';

/**
 * The depth chart's data: cumulative quantities from the best price outwards, exact, and the price
 * window centred on the mid. Numbers appear only in `toNumber`, for coordinates.
 */
export interface DepthPoint {
  price: Amount;
  total: Amount;
}

export interface DepthModel {
  bids: DepthPoint[];
  asks: DepthPoint[];
  /** The window of prices drawn: mid minus and plus the farther side's reach. */
  low: Amount;
  mid: Amount;
  high: Amount;
  maxTotal: Amount;
}

const ZERO: Amount = { units: 0n, scale: 0 };
const TWO: Amount = { units: 2n, scale: 0 };

export function cumulative(levels: readonly BookLevel[]): DepthPoint[] {
  let total = ZERO;
  return levels.map((level) => {
    total = add(total, level.quantityAmount);
    return { price: level.priceAmount, total };
  });
}

/**
 * Null when both sides are empty. Levels come best first, as the order book gives them. The window
 * reaches as far from the mid as the nearer side's deepest level, so one far-off order does not
 * squash the book near the mid into a sliver; levels beyond the window are left out.
 */
export function buildDepthModel(bids: readonly BookLevel[], asks: readonly BookLevel[]): DepthModel | null {
  const bestBid = bids[0]?.priceAmount;
  const bestAsk = asks[0]?.priceAmount;
  if (!bestBid && !bestAsk) return null;
  const scale = Math.max(bestBid?.scale ?? 0, bestAsk?.scale ?? 0) + 1;
  const mid = bestBid && bestAsk ? div(add(bestBid, bestAsk), TWO, scale, 'half_up') : (bestBid ?? bestAsk ?? ZERO);
  const lowestBid = bids[bids.length - 1]?.priceAmount;
  const highestAsk = asks[asks.length - 1]?.priceAmount;
  const reachDown = lowestBid ? sub(mid, lowestBid) : null;
  const reachUp = highestAsk ? sub(highestAsk, mid) : null;
  let half = reachDown && reachUp ? min(reachDown, reachUp) : (reachDown ?? reachUp ?? ZERO);
  // A single level a side still needs a window to draw in.
  if (compare(half, ZERO) <= 0) half = div(mid, { units: 100n, scale: 0 }, scale, 'half_up');
  const low = sub(mid, half);
  const high = add(mid, half);
  const bidPoints = cumulative(bids.filter((level) => compare(level.priceAmount, low) >= 0));
  const askPoints = cumulative(asks.filter((level) => compare(level.priceAmount, high) <= 0));
  const lastBid = bidPoints[bidPoints.length - 1]?.total ?? ZERO;
  const lastAsk = askPoints[askPoints.length - 1]?.total ?? ZERO;
  return { bids: bidPoints, asks: askPoints, low, mid, high, maxTotal: max(lastBid, lastAsk) };
}

/** For coordinates only. */
export function toNumber(value: Amount): number {
  return Number(formatDecimal(value));
}
