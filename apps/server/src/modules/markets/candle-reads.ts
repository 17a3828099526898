import {
  type Candle,
  type CandleInterval,
  type ChartRange,
  candleIntervalMs,
  chartRangeIntervals,
} from '@platform/contracts';
import { type Amount, decimal, formatDecimal, toScale } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { aggregateCandles, type DecimalCandle, deriveCrossCandles, sourceInterval } from './candles.ts';
import type { PairCatalogue } from './catalogue.ts';
import { findTradingPair } from './service.ts';

const WEEK_MS = 7 * 86_400_000;

export type CandlesQuery = { range?: ChartRange; interval?: CandleInterval; from?: number; to?: number; limit: number };

type CandleRow = { open_time: Date; open: string; high: string; low: string; close: string; volume: string };

async function storedCandles(
  db: Queryable,
  pairId: string,
  interval: string,
  fromMs: number,
  toMs: number,
): Promise<DecimalCandle[]> {
  const result = await db.query<CandleRow>(
    `SELECT open_time, open::text, high::text, low::text, close::text, volume::text FROM candles
     WHERE pair_id = $1 AND interval = $2 AND open_time >= $3 AND open_time <= $4 ORDER BY open_time`,
    [pairId, interval, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
  );
  return result.rows.map((row) => ({
    time: new Date(row.open_time).getTime(),
    open: decimal(row.open),
    high: decimal(row.high),
    low: decimal(row.low),
    close: decimal(row.close),
    volume: decimal(row.volume),
  }));
}

/** Most candles a span may cover before aggregation: a week of minutes is the worst case. */
const MAX_SPAN_MS = 5 * 365 * 86_400_000;

/**
 * Candles of a pair. A range picks its interval and span (spec chart ranges); otherwise the
 * interval (default 1h) with from/to, or the last `limit` candles up to now. Generated history is
 * stored for the USD pairs only; another quote's history is derived from the two USD series, up to
 * the first candle of its own trades. Live candles of every pair come from its trades (feed.ts).
 */
export async function candles(
  db: Queryable,
  pairs: PairCatalogue,
  symbol: string,
  query: CandlesQuery,
  nowMs: number,
): Promise<Result<{ pair_id: string; interval: CandleInterval; candles: Candle[] }>> {
  const pairResult = findTradingPair(pairs, undefined, symbol);
  if (!pairResult.ok) return pairResult;
  const pair = pairResult.value;
  const range = query.range ? chartRangeIntervals[query.range] : undefined;
  const interval = range?.interval ?? query.interval ?? '1h';
  const size = candleIntervalMs[interval];
  const toMs = query.to ?? nowMs;
  let fromMs = query.from ?? (range?.spanMs != null ? toMs - range.spanMs : toMs - size * query.limit);
  if (range && range.spanMs === null && query.from === undefined) fromMs = toMs - MAX_SPAN_MS;
  if (fromMs > toMs) return fail('VALIDATION_ERROR', { message: 'from must not be after to' });
  if (toMs - fromMs > MAX_SPAN_MS) fromMs = toMs - MAX_SPAN_MS;

  const stored = sourceInterval[interval];
  // A week's candle is built from days: reach back one more week so the first one is whole.
  const alignedFrom = fromMs - (fromMs % size) - (interval === '1w' ? WEEK_MS : 0);
  const base = await storedCandles(db, `${pair.base_currency}_USD`, stored, alignedFrom, toMs);
  let series: DecimalCandle[] = base;
  if (pair.quote_currency !== 'USD') {
    const quote = await storedCandles(db, `${pair.quote_currency}_USD`, stored, alignedFrom, toMs);
    // Once the pair trades, its own candles (from its trades) take over from the derived history.
    const own = await storedCandles(db, pair.id, stored, alignedFrom, toMs);
    const firstOwn = own[0]?.time ?? Number.POSITIVE_INFINITY;
    const derived = deriveCrossCandles(base, quote, pair.price_precision).filter((candle) => candle.time < firstOwn);
    series = [...derived, ...own];
  }
  const aggregated = (interval === stored ? series : aggregateCandles(series, interval)).filter(
    (candle) => candle.time + size > fromMs && candle.time <= toMs,
  );
  const shown = (value: Amount, scale: number) => formatDecimal(toScale(value, scale, 'half_even'));
  return ok({
    pair_id: pair.id,
    interval,
    candles: aggregated.slice(-query.limit).map((candle) => ({
      time: candle.time,
      open: shown(candle.open, pair.price_precision),
      high: shown(candle.high, pair.price_precision),
      low: shown(candle.low, pair.price_precision),
      close: shown(candle.close, pair.price_precision),
      volume: shown(candle.volume, pair.quantity_precision),
    })),
  });
}
