import type { Queryable } from '../../db/database.ts';
import { type EncodedBody, EncodedCache, encodeBody } from '../../http/encoded-body.ts';
import { ok, type Result } from '../../lib/errors.ts';
import {
  buildCandles,
  type CandlePlan,
  type CandlesQuery,
  candlesFromDatabase,
  lookupCandlePair,
  planCandles,
  storedCandles,
} from './candle-reads.ts';
import type { DecimalCandle, StoredInterval } from './candles.ts';
import type { PairCatalogue } from './catalogue.ts';
import type { LiveCandles, LiveSeries } from './live-candles.ts';

/** Encoded answers kept: one per pair, interval and span that clients poll, with room for odd ones. */
const MAX_BODIES = 2_000;
/** Written candles kept in memory across all cached spans (a candle is a few hundred bytes). */
const MAX_CLOSED_CANDLES = 200_000;
/** A span longer than this is read each time instead (a client asking minutes over years). */
const MAX_CLOSED_CANDLES_PER_SPAN = 20_000;
/** A read starts over when a flush moved the windows under it; more than this means something is wrong. */
const MAX_ATTEMPTS = 5;

type ClosedEntry = { candles: Promise<DecimalCandle[]>; count: number };

/**
 * Candle reads at memory speed. An answer is the written candles of the windows before the live
 * ones (final: they change only when history is regenerated), read once per span and kept, and
 * the live windows from memory (LiveCandles). The encoded answer is kept per normalised query and
 * rebuilt only when a trade changed a series it uses or the buckets moved on, so polling readers
 * between two trades share one body and its ETag.
 */
export class CandleReads {
  private readonly bodies = new EncodedCache<string>(MAX_BODIES);
  /** Written candles per `series|interval|from|to`, oldest span first (dropped first). */
  private readonly closed = new Map<string, ClosedEntry>();
  private closedCount = 0;
  private closedGeneration = 0;

  constructor(
    private readonly db: Queryable,
    private readonly pairs: PairCatalogue,
    private readonly live: LiveCandles,
  ) {}

  async read(symbol: string, query: CandlesQuery, nowMs: number): Promise<Result<EncodedBody>> {
    const pair = lookupCandlePair(this.pairs, symbol);
    if (!pair.ok) return pair;
    const plan = planCandles(pair.value, query, nowMs);
    if (!plan.ok) return plan;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const body = await this.attempt(plan.value);
      if (body) return ok(body);
    }
    // History kept changing under the reads: write what is pending and answer from the database.
    await this.live.flush();
    return ok(encodeBody(await candlesFromDatabase(this.db, plan.value)));
  }

  /** The answer, or undefined when the live windows moved while the written ones were read. */
  private async attempt(plan: CandlePlan): Promise<EncodedBody | undefined> {
    await this.live.ensure(plan.sources, plan.stored);
    const generation = this.live.generation;
    const before = plan.sources.map((id) => this.live.get(id, plan.stored));
    if (before.some((series) => !series)) return undefined;
    const ends = before.map((series) => Math.min(series!.liveFrom, plan.endMs));
    const closed = await Promise.all(
      plan.sources.map((id, index) => this.closedCandles(id, plan.stored, plan.startMs, ends[index]!, generation)),
    );
    if (generation !== this.live.generation) return undefined;
    const series = plan.sources.map((id) => this.live.get(id, plan.stored));
    // A window that left memory after its span was read would be missing from both.
    const gap = series.some((one, index) => !one || (ends[index]! < plan.endMs && one.liveFrom > ends[index]!));
    if (gap) return undefined;
    const live = series as LiveSeries[];
    const written = ends.every((end) => end >= plan.endMs);
    const version = written ? `g${generation}` : `g${generation}|${live.map((one) => one.version).join('|')}`;
    return this.bodies.get(plan.key, version, () =>
      buildCandles(
        plan,
        closed.map((candles, index) => withLive(candles, written ? undefined : live[index], plan)),
      ),
    );
  }

  /** Written candles opening in [fromMs, toMs): read once and kept, bounded. */
  private closedCandles(
    pairId: string,
    interval: StoredInterval,
    fromMs: number,
    toMs: number,
    generation: number,
  ): Promise<DecimalCandle[]> {
    if (toMs <= fromMs) return Promise.resolve([]);
    if (generation !== this.closedGeneration) this.clearClosed(generation);
    const key = `${pairId}|${interval}|${fromMs}|${toMs}`;
    const cached = this.closed.get(key);
    if (cached) {
      // Most recently used goes last, so the spans nobody reads are dropped first.
      this.closed.delete(key);
      this.closed.set(key, cached);
      return cached.candles;
    }
    const entry: ClosedEntry = { candles: storedCandles(this.db, pairId, interval, fromMs, toMs), count: 0 };
    this.closed.set(key, entry);
    entry.candles.then(
      (candles) => this.counted(key, entry, candles.length),
      () => this.forget(key, entry),
    );
    return entry.candles;
  }

  private counted(key: string, entry: ClosedEntry, count: number): void {
    if (this.closed.get(key) !== entry) return;
    if (count > MAX_CLOSED_CANDLES_PER_SPAN) {
      this.closed.delete(key);
      return;
    }
    entry.count = count;
    this.closedCount += count;
    for (const [oldKey, old] of this.closed) {
      if (this.closedCount <= MAX_CLOSED_CANDLES) break;
      this.forget(oldKey, old);
    }
  }

  private forget(key: string, entry: ClosedEntry): void {
    if (this.closed.get(key) !== entry) return;
    this.closed.delete(key);
    this.closedCount -= entry.count;
  }

  private clearClosed(generation: number): void {
    this.closed.clear();
    this.closedCount = 0;
    this.closedGeneration = generation;
    this.bodies.clear();
  }
}

/** Written candles with the live windows of the span over them (memory is the truth where it has a window). */
function withLive(
  written: readonly DecimalCandle[],
  live: LiveSeries | undefined,
  plan: CandlePlan,
): readonly DecimalCandle[] {
  if (!live) return written;
  const byTime = new Map(written.map((candle) => [candle.time, candle]));
  for (const [time, candle] of live.windows) {
    if (time >= plan.startMs && time < plan.endMs) byTime.set(time, candle);
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}
