import type { Candle } from '@platform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { applyCandleTick, candleBucketStart, LiveCandles } from './candles.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 24, 8, 0, 0);

function candle(time: number, open: string, high: string, low: string, close: string, volume: string): Candle {
  return { time, open, high, low, close, volume };
}

describe('candle boundaries', () => {
  it('starts a candle at the interval boundary', () => {
    expect(candleBucketStart(T0 + 59_999, '1m')).toBe(T0);
    expect(candleBucketStart(T0 + 60_000, '1m')).toBe(T0 + MINUTE);
    expect(candleBucketStart(T0 + 14 * MINUTE, '15m')).toBe(T0);
    expect(candleBucketStart(T0 + 3 * 3_600_000, '4h')).toBe(T0);
  });

  it('starts weeks on Monday 00:00 UTC, as the server does', () => {
    // 2026-11-24 is a Tuesday; its week began on Monday the 23rd.
    expect(candleBucketStart(T0, '1w')).toBe(Date.UTC(2026, 10, 23));
    expect(new Date(candleBucketStart(T0, '1w')).getUTCDay()).toBe(1);
  });
});

describe('live candles from trades', () => {
  const history = [
    candle(T0 - MINUTE, '100.00', '101.00', '99.00', '100.50', '2.5'),
    candle(T0, '100.50', '100.80', '100.20', '100.60', '1.1'),
  ];

  it('widens the last candle exactly: high, low, close and summed volume', () => {
    const higher = applyCandleTick(history, { price: '100.90', quantity: '0.1', timeMs: T0 + 10_000 }, '1m');
    expect(higher.kind).toBe('updated');
    expect(higher.candles.at(-1)).toEqual(candle(T0, '100.50', '100.90', '100.20', '100.90', '1.2'));
    const lower = applyCandleTick(higher.candles, { price: '100.10', quantity: '0.2', timeMs: T0 + 20_000 }, '1m');
    expect(lower.candles.at(-1)).toEqual(candle(T0, '100.50', '100.90', '100.10', '100.10', '1.4'));
    // Not 1.4000000000000001: the volume is a decimal sum.
    expect(history.at(-1)?.volume).toBe('1.1');
  });

  it('opens a new candle when a trade passes the boundary', () => {
    const next = applyCandleTick(history, { price: '100.70', quantity: '0.3', timeMs: T0 + MINUTE }, '1m');
    expect(next.kind).toBe('appended');
    expect(next.candles).toHaveLength(3);
    expect(next.candles.at(-1)).toEqual(candle(T0 + MINUTE, '100.70', '100.70', '100.70', '100.70', '0.3'));
  });

  it('moves the price but not the volume on a price update', () => {
    const moved = applyCandleTick(history, { price: '99.95', quantity: null, timeMs: T0 + 30_000 }, '1m');
    expect(moved.candles.at(-1)).toEqual(candle(T0, '100.50', '100.80', '99.95', '99.95', '1.1'));
  });

  it('opens a candle only on a trade: a price update past the boundary changes nothing', () => {
    const later = applyCandleTick(history, { price: '99.95', quantity: null, timeMs: T0 + 60_000 }, '1m');
    expect(later.kind).toBe('ignored');
    expect(later.candles).toBe(history);
    const traded = applyCandleTick(history, { price: '99.95', quantity: '0.2', timeMs: T0 + 60_000 }, '1m');
    expect(traded.kind).toBe('appended');
  });

  it('ignores a tick older than the last candle, and an unreadable one', () => {
    expect(applyCandleTick(history, { price: '1', quantity: '1', timeMs: T0 - 1 }, '1m').kind).toBe('ignored');
    expect(applyCandleTick(history, { price: 'NaN', quantity: '1', timeMs: T0 + 1 }, '1m').kind).toBe('ignored');
  });

  it('tells its listeners about each change', () => {
    const live = new LiveCandles(history, '1m');
    const listener = vi.fn();
    live.subscribe(listener);
    live.applyTrade({ price: '100.65', quantity: '0.05', timestamp: T0 + 1_000 });
    live.applyTrade({ price: '100.66', quantity: '0.05', timestamp: T0 + MINUTE });
    expect(listener.mock.calls.map(([changed, kind]) => [kind, (changed as Candle).volume])).toEqual([
      ['updated', '1.15'],
      ['appended', '0.05'],
    ]);
    expect(live.getCandles()).toHaveLength(3);
  });
});
