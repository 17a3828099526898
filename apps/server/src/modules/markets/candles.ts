import { type CandleInterval, candleIntervalMs } from '@platform/contracts';
import { type Amount, add, div, gt, lt, zero } from '@platform/money';

/** A candle in exact decimals. Time is the open time in unix milliseconds. */
export type DecimalCandle = { time: number; open: Amount; high: Amount; low: Amount; close: Amount; volume: Amount };

/** The intervals kept in the database; the others are aggregated from these on read. */
export const storedIntervals = ['1m', '1h', '1d'] as const;
export type StoredInterval = (typeof storedIntervals)[number];

/** Which stored interval an interval is built from. */
export const sourceInterval: Record<CandleInterval, StoredInterval> = {
  '1m': '1m',
  '5m': '1m',
  '15m': '1m',
  '1h': '1h',
  '4h': '1h',
  '1d': '1d',
  '1w': '1d',
};

/** Weeks start on Monday 00:00 UTC, as on the exchanges; 1970-01-01 was a Thursday. */
const WEEK_OFFSET_MS = 4 * 86_400_000;

/** The open time of the interval's candle that contains timeMs. */
export function bucketStart(timeMs: number, interval: CandleInterval): number {
  const size = candleIntervalMs[interval];
  const offset = interval === '1w' ? WEEK_OFFSET_MS : 0;
  return Math.floor((timeMs - offset) / size) * size + offset;
}

/**
 * Candles of a finer interval (oldest first) rolled up into `interval`: first open, last close,
 * highest high, lowest low, summed volume. Exact, so rolling up in steps equals rolling up at once.
 */
export function aggregateCandles(candles: readonly DecimalCandle[], interval: CandleInterval): DecimalCandle[] {
  const result: DecimalCandle[] = [];
  let current: DecimalCandle | undefined;
  for (const candle of candles) {
    const time = bucketStart(candle.time, interval);
    if (current && current.time === time) {
      if (gt(candle.high, current.high)) current.high = candle.high;
      if (lt(candle.low, current.low)) current.low = candle.low;
      current.close = candle.close;
      current.volume = add(current.volume, candle.volume);
      continue;
    }
    current = { ...candle, time };
    result.push(current);
  }
  return result;
}

const maxOf = (...values: Amount[]): Amount => values.reduce((best, value) => (gt(value, best) ? value : best));
const minOf = (...values: Amount[]): Amount => values.reduce((best, value) => (lt(value, best) ? value : best));

/**
 * A BASE/QUOTE candle from the BASE/USD and QUOTE/USD candles of the same time: open and close are
 * exact ratios at `scale` (half-even); the wicks take the ratio of the highs and of the lows, and
 * always enclose the body. The volume is the base coin's. Times without both candles are skipped.
 */
export function deriveCrossCandles(
  base: readonly DecimalCandle[],
  quote: readonly DecimalCandle[],
  scale: number,
): DecimalCandle[] {
  const quoteByTime = new Map(quote.map((candle) => [candle.time, candle]));
  const result: DecimalCandle[] = [];
  for (const candle of base) {
    const other = quoteByTime.get(candle.time);
    if (!other) continue;
    const ratio = (a: Amount, b: Amount) => div(a, b, scale, 'half_even');
    const open = ratio(candle.open, other.open);
    const close = ratio(candle.close, other.close);
    result.push({
      time: candle.time,
      open,
      close,
      high: maxOf(open, close, ratio(candle.high, other.high)),
      low: minOf(open, close, ratio(candle.low, other.low)),
      volume: candle.volume,
    });
  }
  return result;
}

export const zeroVolume = zero();
