import { candleIntervalMs } from '@platform/contracts';
import { type Amount, add, decimal, formatDecimal, gt, lt } from '@platform/money';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { type DecimalCandle, type StoredInterval, storedIntervals } from './candles.ts';
import { insertCandleRows } from './seed.ts';

/**
 * The whole candles of one pair and stored interval from `liveFrom` on: the database rows with
 * every trade not yet written. Windows before liveFrom are final in the database (written and
 * committed); from liveFrom on this is the truth, and a window without an entry has no candle.
 */
export type LiveSeries = {
  readonly interval: StoredInterval;
  liveFrom: number;
  /** Changes with every trade (unique across reloads), so a body built from it knows it is current. */
  version: number;
  readonly windows: Map<number, DecimalCandle>;
};

type CandleRow = { open_time: Date; open: string; high: string; low: string; close: string; volume: string };
type PendingRow = [string, string, string, string, string, string, string, string];

const seriesKey = (pairId: string, interval: string) => `${pairId}|${interval}`;

/** A trade into a candle: a new candle, or the given one widened, closed at the price, its volume added. */
function withTrade(candle: DecimalCandle | undefined, time: number, price: Amount, quantity: Amount): DecimalCandle {
  if (!candle) return { time, open: price, high: price, low: price, close: price, volume: quantity };
  if (gt(price, candle.high)) candle.high = price;
  if (lt(price, candle.low)) candle.low = price;
  candle.close = price;
  candle.volume = add(candle.volume, quantity);
  return candle;
}

/**
 * A written candle with the trades after it (`later`, a delta): what the upsert of a flush does
 * (the open stays, highs and lows widen, the close moves, volumes add up).
 */
function merged(earlier: DecimalCandle | undefined, later: DecimalCandle): DecimalCandle {
  if (!earlier) return { ...later };
  return {
    time: later.time,
    open: earlier.open,
    high: gt(later.high, earlier.high) ? later.high : earlier.high,
    low: lt(later.low, earlier.low) ? later.low : earlier.low,
    close: later.close,
    volume: add(earlier.volume, later.volume),
  };
}

/**
 * The candles in the making of every pair. Trades add to deltas per (pair, interval, window), which
 * flush() writes every few seconds (few writes, as before), and to the whole candles of the windows
 * that reads need (the current and the previous, and any not yet written), so a read answers from
 * memory what the database does not hold yet. Loads and flushes run one at a time: a load then
 * sees the database and the unwritten deltas as one consistent state.
 */
export class LiveCandles {
  /** Unwritten trades per `pair|interval|windowStart`, as deltas the upsert adds to the row. */
  private readonly pending = new Map<string, DecimalCandle>();
  private readonly series = new Map<string, LiveSeries>();
  private readonly loads = new Map<string, Promise<void>>();
  /** Flushes and loads, one after the other; never rejects. */
  private chain: Promise<void> = Promise.resolve();
  private changes = 0;
  /** Moves when written history changed under the reads (history generated after start, a late trade). */
  generation = 0;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly clock: () => Date,
  ) {}

  /** A trade on our book at timeMs. */
  record(pairId: string, price: Amount, quantity: Amount, timeMs: number): void {
    for (const interval of storedIntervals) {
      const size = candleIntervalMs[interval];
      const start = Math.floor(timeMs / size) * size;
      const pendingKey = `${pairId}|${interval}|${start}`;
      this.pending.set(pendingKey, withTrade(this.pending.get(pendingKey), start, price, quantity));
      const key = seriesKey(pairId, interval);
      const live = this.series.get(key);
      if (!live) continue;
      if (start < live.liveFrom) {
        // A trade in a window the reads take as final: reload the series, drop what was read.
        this.series.delete(key);
        this.generation++;
        continue;
      }
      live.windows.set(start, withTrade(live.windows.get(start), start, price, quantity));
      live.version = ++this.changes;
    }
  }

  /** The series from memory, if loaded. */
  get(pairId: string, interval: StoredInterval): LiveSeries | undefined {
    return this.series.get(seriesKey(pairId, interval));
  }

  /** Loads the series not in memory yet; nothing to wait for when all are (the common case). */
  ensure(pairIds: readonly string[], interval: StoredInterval): Promise<unknown> | undefined {
    const missing = pairIds.filter((id) => !this.series.has(seriesKey(id, interval)));
    if (missing.length === 0) return undefined;
    return Promise.all(missing.map((id) => this.load(id, interval)));
  }

  /** Forgets every series (written history changed): the next reads load them again. */
  reset(): void {
    this.series.clear();
    this.generation++;
  }

  /** Writes the deltas: highs and lows widen, the close moves, volumes add up. Then windows retire. */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  private async write(): Promise<void> {
    if (this.pending.size > 0) {
      const entries = [...this.pending.entries()];
      this.pending.clear();
      try {
        await this.db.transaction((tx) =>
          insertCandleRows(
            tx,
            entries.map(([key, candle]) => pendingRow(key, candle)),
            `DO UPDATE SET high = GREATEST(candles.high, EXCLUDED.high), low = LEAST(candles.low, EXCLUDED.low),
               close = EXCLUDED.close, volume = candles.volume + EXCLUDED.volume`,
          ),
        );
      } catch (error) {
        this.log.warn({ err: error }, 'could not write candles');
        // Nothing was written (one transaction): the deltas go back before the trades since.
        for (const [key, candle] of entries) {
          const later = this.pending.get(key);
          this.pending.set(key, later ? merged(candle, later) : candle);
        }
        return;
      }
    }
    this.retire();
  }

  /**
   * Moves each series' liveFrom up to its previous window, below which everything is now written
   * and committed, and drops the windows before it: reads take those from the database.
   */
  private retire(): void {
    const nowMs = this.clock().getTime();
    const earliestPending = this.earliestPending();
    for (const [key, live] of this.series) {
      const size = candleIntervalMs[live.interval];
      const previous = Math.floor(nowMs / size) * size - size;
      const target = Math.min(previous, earliestPending.get(key) ?? Number.POSITIVE_INFINITY);
      if (target <= live.liveFrom) continue;
      live.liveFrom = target;
      for (const start of live.windows.keys()) if (start < target) live.windows.delete(start);
    }
  }

  private earliestPending(): Map<string, number> {
    const earliest = new Map<string, number>();
    for (const [key, candle] of this.pending) {
      const series = key.slice(0, key.lastIndexOf('|'));
      earliest.set(series, Math.min(earliest.get(series) ?? Number.POSITIVE_INFINITY, candle.time));
    }
    return earliest;
  }

  private load(pairId: string, interval: StoredInterval): Promise<void> {
    const key = seriesKey(pairId, interval);
    const running = this.loads.get(key);
    if (running) return running;
    const run = this.chain.then(() => this.read(pairId, interval));
    this.chain = run.catch(() => undefined);
    const done = run.finally(() => this.loads.delete(key));
    this.loads.set(key, done);
    return done;
  }

  /** Reads the windows from the previous one on, and adds the unwritten trades (no flush runs meanwhile). */
  private async read(pairId: string, interval: StoredInterval): Promise<void> {
    const key = seriesKey(pairId, interval);
    if (this.series.has(key)) return;
    const generation = this.generation;
    const size = candleIntervalMs[interval];
    const previous = Math.floor(this.clock().getTime() / size) * size - size;
    const liveFrom = Math.min(previous, this.earliestPending().get(key) ?? Number.POSITIVE_INFINITY);
    const result = await this.db.query<CandleRow>(
      `SELECT open_time, open::text, high::text, low::text, close::text, volume::text FROM candles
       WHERE pair_id = $1 AND interval = $2 AND open_time >= $3`,
      [pairId, interval, new Date(liveFrom).toISOString()],
    );
    // History written meanwhile, or a trade older than the windows read: the next read loads again.
    if (generation !== this.generation) return;
    if ((this.earliestPending().get(key) ?? Number.POSITIVE_INFINITY) < liveFrom) return;
    const windows = new Map<number, DecimalCandle>();
    for (const row of result.rows) {
      const time = new Date(row.open_time).getTime();
      const candle = { time, open: decimal(row.open), high: decimal(row.high), low: decimal(row.low) };
      windows.set(time, { ...candle, close: decimal(row.close), volume: decimal(row.volume) });
    }
    for (const [pendingKey, delta] of this.pending) {
      if (!pendingKey.startsWith(`${key}|`)) continue;
      windows.set(delta.time, merged(windows.get(delta.time), delta));
    }
    this.series.set(key, { interval, liveFrom, version: ++this.changes, windows });
  }
}

function pendingRow(key: string, candle: DecimalCandle): PendingRow {
  const [pairId = '', interval = ''] = key.split('|');
  const text = (value: Amount) => formatDecimal(value);
  return [
    pairId,
    interval,
    new Date(candle.time).toISOString(),
    text(candle.open),
    text(candle.high),
    text(candle.low),
    text(candle.close),
    text(candle.volume),
  ];
}
