import { decimal, formatDecimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { TradeWindow } from './windows.ts';

const MINUTE = 60_000;
const T0 = 1_700_000_040_000 - (1_700_000_040_000 % MINUTE);
const text = (window: TradeWindow, nowMs: number) => {
  const stats = window.stats(nowMs);
  return (
    stats && { high: formatDecimal(stats.high), low: formatDecimal(stats.low), volume: formatDecimal(stats.volume) }
  );
};

describe('a pair trade window', () => {
  it('keeps the last price, and the high, low and volume of the trades of the last 24 h', () => {
    const window = new TradeWindow(4);
    expect(window.stats(T0)).toBeNull();
    window.add(decimal('100.5'), decimal('0.25'), T0);
    window.add(decimal('101.25'), decimal('0.5'), T0 + 10_000);
    window.add(decimal('99.75'), decimal('1'), T0 + 3 * MINUTE);
    expect(formatDecimal(window.last!)).toBe('99.75');
    expect(text(window, T0 + 4 * MINUTE)).toEqual({ high: '101.25', low: '99.75', volume: '1.7500' });
    // A day later the first minute has left the window; the last price stays the last trade.
    expect(text(window, T0 + 24 * 60 * MINUTE + 30_000)).toEqual({ high: '99.75', low: '99.75', volume: '1.0000' });
    expect(text(window, T0 + 27 * 60 * MINUTE)).toBeNull();
    expect(formatDecimal(window.last!)).toBe('99.75');
  });

  it('counts a trade older than the last (a reload) without making it the last price', () => {
    const window = new TradeWindow(4);
    window.add(decimal('100'), decimal('1'), T0 + 5 * MINUTE);
    window.add(decimal('90'), decimal('2'), T0 + MINUTE);
    expect(formatDecimal(window.last!)).toBe('100');
    expect(text(window, T0 + 6 * MINUTE)).toEqual({ high: '100', low: '90', volume: '3.0000' });
  });
});
