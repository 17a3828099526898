import { type Candle, type CandleInterval, candleIntervalMs } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { type EncodedBody, encodeBody } from '../../http/encoded-body.ts';
import { ok, type Result } from '../../lib/errors.ts';
import { type CandleSpan, type CandlesQuery, candleSpan } from '../markets/index.ts';
import type { Batch } from './batch.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { storedUnits, unitsText } from './units.ts';

/**
 * A perpetual's last-price candles, built from its own trades. Each engine trade is two rows of
 * `futures_fills` (maker and taker): the taker's row counts it once. ADL closes are internal
 * transfers between two accounts at the bankruptcy price, not trades on the book: only fill ids of
 * the engine's form `{MARKET}:{sequence}:{n}` count (the same rule as the start's last trade
 * price, load.ts). As on the spot pairs, an interval without a trade has no candle (no filling
 * with the previous close).
 */

/** Encoded answers kept: one per market, interval and span that clients poll, with room for odd ones. */
const MAX_CACHED_ANSWERS = 1_000;

/** Weeks start on Monday 00:00 UTC, as the spot candles' (markets/candles.ts); 1970-01-01 was a Thursday. */
const WEEK_OFFSET_MS = 4 * 86_400_000;

export type PerpCandlePlan = CandleSpan & { market: FuturesMarketSpec; limit: number };

type CandleRow = { time: string; open: string; high: string; low: string; close: string; volume: string };

/**
 * The candles of a plan, newest `limit` of them, oldest first. One indexed range read of the
 * market's fills (futures_fills_market: market_id, executed_at), grouped into buckets in SQL: the
 * same bucket rule as bucketStart, in exact numeric milliseconds. Open and close follow the trade
 * order: time, then the engine's sequence and trade number (trades of one command share a time).
 */
export async function perpCandlesFromDatabase(db: Queryable, plan: PerpCandlePlan): Promise<Candle[]> {
  const size = candleIntervalMs[plan.interval];
  const offset = plan.interval === '1w' ? WEEK_OFFSET_MS : 0;
  const result = await db.query<CandleRow>(
    `WITH trades AS (
       SELECT price, quantity, executed_at,
              split_part(id, ':', 2)::bigint AS sequence, split_part(id, ':', 3)::int AS number,
              floor((extract(epoch FROM executed_at) * 1000 - $4::bigint) / $5::bigint) * $5::bigint + $4::bigint AS bucket
       FROM futures_fills
       WHERE market_id = $1 AND role = 'taker' AND id ~ '^[A-Z0-9_]+:[0-9]+:[0-9]+$'
         AND executed_at >= $2 AND executed_at < $3
     )
     SELECT bucket::bigint::text AS time,
            (array_agg(price ORDER BY executed_at, sequence, number))[1]::text AS open,
            max(price)::text AS high,
            min(price)::text AS low,
            (array_agg(price ORDER BY executed_at DESC, sequence DESC, number DESC))[1]::text AS close,
            sum(quantity)::text AS volume
     FROM trades GROUP BY bucket ORDER BY bucket DESC LIMIT $6`,
    [
      plan.market.id,
      new Date(plan.startMs).toISOString(),
      new Date(plan.endMs).toISOString(),
      offset,
      size,
      plan.limit,
    ],
  );
  const { priceDecimals, quantityDecimals } = plan.market;
  const price = (text: string) => unitsText(storedUnits(text, priceDecimals), priceDecimals);
  return result.rows.reverse().map((row) => ({
    time: Number(row.time),
    open: price(row.open),
    high: price(row.high),
    low: price(row.low),
    close: price(row.close),
    volume: unitsText(storedUnits(row.volume, quantityDecimals), quantityDecimals),
  }));
}

type CachedAnswer = { marketId: string; body: Promise<EncodedBody> };

/**
 * Candle reads of the perpetuals, each answer read once and kept (encoded, with its ETag) until a
 * committed batch trades in its market: pollers between two trades share one read and one body.
 * The key is the query reduced to its buckets, so every read in the same buckets shares it.
 */
export class PerpCandles {
  private readonly answers = new Map<string, CachedAnswer>();

  constructor(private readonly db: Queryable) {}

  /** Drops the answers of every market a committed batch traded in (FuturesCore.onCommitted). */
  committed(batch: Pick<Batch, 'trades'>): void {
    if (batch.trades.length === 0) return;
    const markets = new Set(batch.trades.map((trade) => trade.marketId));
    for (const [key, answer] of this.answers) if (markets.has(answer.marketId)) this.answers.delete(key);
  }

  read(market: FuturesMarketSpec, query: CandlesQuery, nowMs: number): Result<Promise<EncodedBody>> {
    const span = candleSpan(query, nowMs);
    if (!span.ok) return span;
    const plan: PerpCandlePlan = { ...span.value, market, limit: query.limit };
    const key = `${market.id}|${plan.interval}|${plan.startMs}|${plan.endMs}|${plan.limit}`;
    const cached = this.answers.get(key);
    if (cached) return ok(cached.body);
    const body = perpCandlesFromDatabase(this.db, plan).then((candles) =>
      encodeBody(perpCandlesAnswer(market.id, plan.interval, candles)),
    );
    this.remember(key, { marketId: market.id, body });
    return ok(body);
  }

  private remember(key: string, answer: CachedAnswer): void {
    if (this.answers.size >= MAX_CACHED_ANSWERS) {
      const oldest = this.answers.keys().next();
      if (!oldest.done) this.answers.delete(oldest.value);
    }
    this.answers.set(key, answer);
    // A failed read is not kept: the next one tries again.
    answer.body.catch(() => {
      if (this.answers.get(key) === answer) this.answers.delete(key);
    });
  }
}

/** The spot candles' response shape (candlesResponseSchema), the market id in `pair_id`. */
export function perpCandlesAnswer(marketId: string, interval: CandleInterval, candles: Candle[]) {
  return { pair_id: marketId, interval, candles };
}
