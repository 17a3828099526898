import {
  type Candle,
  type CandleInterval,
  type ChartRange,
  candleIntervalMs,
  candlesResponseSchema,
} from '@platform/contracts';
import { add, formatDecimal, gt, lt, parseDecimal } from '@platform/money';
import { apiClient } from '../../api/http.ts';

/**
 * Candles of a chart range: the history over HTTP, then the last candle kept live from the
 * market's trades (price, volume) and price updates (price only), the way the server builds them,
 * so the chart moves between reloads. Prices and volumes stay decimal strings, updated exactly.
 */

/** GET /v1/market/{pair}/candles?range=…: the server picks the interval and span of the range. */
export function fetchRangeCandles(pairId: string, range: ChartRange) {
  const path = `/v1/market/${encodeURIComponent(pairId)}/candles?range=${encodeURIComponent(range)}`;
  return apiClient.request(path, { schema: candlesResponseSchema });
}

/**
 * Where a chart's candles come from when they are not a spot pair's: a perpetual's own series
 * (GET /v1/futures/markets/{market}/candles, the same answer). Live, its last candle moves with the
 * trades of `trades.{id}` only: the spot pairs' price updates have no counterpart there.
 */
export interface CandleFeed {
  fetchRange(range: ChartRange): Promise<{ candles: Candle[] }>;
}

/** Weeks start on Monday 00:00 UTC, as on the server; 1970-01-01 was a Thursday. */
const WEEK_OFFSET_MS = 4 * 86_400_000;

/** The open time of the `interval` candle that holds `timeMs` (the server's bucketStart). */
export function candleBucketStart(timeMs: number, interval: CandleInterval): number {
  const size = candleIntervalMs[interval];
  const offset = interval === '1w' ? WEEK_OFFSET_MS : 0;
  return Math.floor((timeMs - offset) / size) * size + offset;
}

/** One market event that moves a candle: a trade (with its quantity) or a price (without). */
export interface CandleTick {
  price: string;
  /** Base quantity traded; null for a price update, which adds no volume. */
  quantity: string | null;
  timeMs: number;
}

const PARSE_OPTIONS = { maxScale: 18, maxIntegerDigits: 20 } as const;

export type CandleTickResult =
  | { kind: 'updated' | 'appended'; candles: Candle[]; candle: Candle }
  | { kind: 'ignored'; candles: readonly Candle[] };

/**
 * The candles (oldest first) after `tick`: the last one widened and closed at the price, or a new
 * one when a trade's time passes the interval's boundary. A price update (the last trade's price)
 * only moves the candle in the making; a tick older than the last candle, or unreadable, changes
 * nothing.
 */
export function applyCandleTick(
  candles: readonly Candle[],
  tick: CandleTick,
  interval: CandleInterval,
): CandleTickResult {
  const price = parseDecimal(tick.price, PARSE_OPTIONS);
  const quantity = tick.quantity === null ? null : parseDecimal(tick.quantity, PARSE_OPTIONS);
  if (!price.ok || (quantity !== null && !quantity.ok)) return { kind: 'ignored', candles };
  const time = candleBucketStart(tick.timeMs, interval);
  const last = candles[candles.length - 1];
  if (last && time < last.time) return { kind: 'ignored', candles };
  if (!last || time > last.time) {
    // Only a trade opens a candle, as on the server: a minute without trades has none.
    if (quantity === null) return { kind: 'ignored', candles };
    const candle: Candle = {
      time,
      open: tick.price,
      high: tick.price,
      low: tick.price,
      close: tick.price,
      volume: quantity?.ok ? (tick.quantity ?? '0') : '0',
    };
    return { kind: 'appended', candles: [...candles, candle], candle };
  }
  const high = parseDecimal(last.high, PARSE_OPTIONS);
  const low = parseDecimal(last.low, PARSE_OPTIONS);
  const volume = parseDecimal(last.volume, PARSE_OPTIONS);
  if (!high.ok || !low.ok || !volume.ok) return { kind: 'ignored', candles };
  const candle: Candle = {
    time: last.time,
    open: last.open,
    high: gt(price.value, high.value) ? tick.price : last.high,
    low: lt(price.value, low.value) ? tick.price : last.low,
    close: tick.price,
    volume: quantity?.ok ? formatDecimal(add(volume.value, quantity.value)) : last.volume,
  };
  const next = candles.slice(0, -1);
  next.push(candle);
  return { kind: 'updated', candles: next, candle };
}

type CandleListener = (candle: Candle, kind: 'updated' | 'appended') => void;

/** The candles of one range, kept live; the chart draws the history once and then each change. */
export class LiveCandles {
  private candles: readonly Candle[];
  private readonly listeners = new Set<CandleListener>();

  constructor(
    history: readonly Candle[],
    readonly interval: CandleInterval,
  ) {
    this.candles = history;
  }

  getCandles(): readonly Candle[] {
    return this.candles;
  }

  subscribe(listener: CandleListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  applyTrade(trade: { price: string; quantity: string; timestamp: number }): void {
    this.apply({ price: trade.price, quantity: trade.quantity, timeMs: trade.timestamp });
  }

  applyPrice(price: string, timeMs: number): void {
    this.apply({ price, quantity: null, timeMs });
  }

  private apply(tick: CandleTick): void {
    const result = applyCandleTick(this.candles, tick, this.interval);
    if (result.kind === 'ignored') return;
    this.candles = result.candles;
    for (const listener of this.listeners) listener(result.candle, result.kind);
  }
}
