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
import {
  aggregateCandles,
  bucketStart,
  type DecimalCandle,
  deriveCrossCandles,
  type StoredInterval,
  sourceInterval,
} from './candles.ts';
import type { PairCatalogue } from './catalogue.ts';

export type CandlesQuery = { range?: ChartRange; interval?: CandleInterval; from?: number; to?: number; limit: number };
export type CandlesResponse = { pair_id: string; interval: CandleInterval; candles: Candle[] };

/** What a candle read needs of a pair. */
export type CandlePair = {
  id: string;
  base: string;
  quote: string;
  pricePrecision: number;
  quantityPrecision: number;
};

/** The pair behind a symbol, from the in-memory catalogue: a candle read never queries for it. */
export function lookupCandlePair(pairs: PairCatalogue, symbol: string): Result<CandlePair> {
  const found = pairs.find(symbol);
  if (!found.ok) return found;
  const pair = found.value;
  return ok({
    id: pair.id,
    base: pair.base_currency,
    quote: pair.quote_currency,
    pricePrecision: pair.price_precision,
    quantityPrecision: pair.quantity_precision,
  });
}

/**
 * A candle query reduced to what its answer depends on. Candles open on bucket boundaries, so
 * "time + size > from and time <= to" keeps exactly the buckets from bucketStart(from) to
 * bucketStart(to): two reads in the same buckets get the same candles, whatever their instants.
 */
export type CandlePlan = {
  pair: CandlePair;
  interval: CandleInterval;
  stored: StoredInterval;
  /** Open time of the first bucket shown. */
  startMs: number;
  /** End (exclusive) of the last bucket shown. */
  endMs: number;
  limit: number;
  /** The stored series the answer is built from: BASE_USD, and for another quote QUOTE_USD and the pair's own. */
  sources: string[];
  /** Same key, same answer for the same data. */
  key: string;
};

/** Most time a read may span: five years (a week of minutes is the common worst case). */
const MAX_SPAN_MS = 5 * 365 * 86_400_000;

/** The buckets a candle query asks for: its interval, the first bucket's open, the last one's end. */
export type CandleSpan = { interval: CandleInterval; startMs: number; endMs: number };

/**
 * A range picks its interval and span (spec chart ranges); otherwise the interval (default 1h)
 * with from/to, or the last `limit` candles up to now. Shared by every candle series (the
 * perpetuals' too), so that the same query means the same buckets everywhere.
 */
export function candleSpan(query: CandlesQuery, nowMs: number): Result<CandleSpan> {
  const range = query.range ? chartRangeIntervals[query.range] : undefined;
  const interval = range?.interval ?? query.interval ?? '1h';
  const size = candleIntervalMs[interval];
  const toMs = query.to ?? nowMs;
  let fromMs = query.from ?? (range?.spanMs != null ? toMs - range.spanMs : toMs - size * query.limit);
  if (range && range.spanMs === null && query.from === undefined) fromMs = toMs - MAX_SPAN_MS;
  if (fromMs > toMs) return fail('VALIDATION_ERROR', { message: 'from must not be after to' });
  if (toMs - fromMs > MAX_SPAN_MS) fromMs = toMs - MAX_SPAN_MS;
  return ok({ interval, startMs: bucketStart(fromMs, interval), endMs: bucketStart(toMs, interval) + size });
}

export function planCandles(pair: CandlePair, query: CandlesQuery, nowMs: number): Result<CandlePlan> {
  const span = candleSpan(query, nowMs);
  if (!span.ok) return span;
  const { interval, startMs, endMs } = span.value;
  const sources = pair.quote === 'USD' ? [`${pair.base}_USD`] : [`${pair.base}_USD`, `${pair.quote}_USD`, pair.id];
  return ok({
    pair,
    interval,
    stored: sourceInterval[interval],
    startMs,
    endMs,
    limit: query.limit,
    sources,
    key: `${pair.id}|${interval}|${startMs}|${endMs}|${query.limit}`,
  });
}

/**
 * The answer from the stored series of plan.sources (oldest first, within startMs..endMs).
 * Generated history is stored for the USD pairs only; another quote's history is derived from the
 * two USD series, up to the first candle of its own trades.
 */
export function buildCandles(plan: CandlePlan, series: readonly (readonly DecimalCandle[])[]): CandlesResponse {
  const { pair, interval } = plan;
  const [base = [], quote = [], own = []] = series;
  let candles: readonly DecimalCandle[] = base;
  if (plan.sources.length > 1) {
    // Once the pair trades, its own candles (from its trades) take over from the derived history.
    const firstOwn = own[0]?.time ?? Number.POSITIVE_INFINITY;
    const derived = deriveCrossCandles(base, quote, pair.pricePrecision).filter((candle) => candle.time < firstOwn);
    candles = [...derived, ...own];
  }
  const aggregated = interval === plan.stored ? candles : aggregateCandles(candles, interval);
  const shown = (value: Amount, scale: number) => formatDecimal(toScale(value, scale, 'half_even'));
  return {
    pair_id: pair.id,
    interval,
    candles: aggregated
      .filter((candle) => candle.time >= plan.startMs && candle.time < plan.endMs)
      .slice(-plan.limit)
      .map((candle) => ({
        time: candle.time,
        open: shown(candle.open, pair.pricePrecision),
        high: shown(candle.high, pair.pricePrecision),
        low: shown(candle.low, pair.pricePrecision),
        close: shown(candle.close, pair.pricePrecision),
        volume: shown(candle.volume, pair.quantityPrecision),
      })),
  };
}

type CandleRow = { open_time: Date; open: string; high: string; low: string; close: string; volume: string };

/** Stored candles of a series opening in [fromMs, toMs), oldest first. */
export async function storedCandles(
  db: Queryable,
  pairId: string,
  interval: StoredInterval,
  fromMs: number,
  toMs: number,
): Promise<DecimalCandle[]> {
  const result = await db.query<CandleRow>(
    `SELECT open_time, open::text, high::text, low::text, close::text, volume::text FROM candles
     WHERE pair_id = $1 AND interval = $2 AND open_time >= $3 AND open_time < $4 ORDER BY open_time`,
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

/**
 * The answer computed from the database alone, as every read did before the live candles: right
 * once the candles in the making are written (a flush). Tests compare the cached reads with it.
 */
export async function candlesFromDatabase(db: Queryable, plan: CandlePlan): Promise<CandlesResponse> {
  const series = await Promise.all(
    plan.sources.map((id) => storedCandles(db, id, plan.stored, plan.startMs, plan.endMs)),
  );
  return buildCandles(plan, series);
}
