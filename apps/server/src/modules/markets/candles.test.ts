import { type CandleInterval, candleIntervalMs } from '@platform/contracts';
import { type Amount, add, decimal, eq, formatDecimal, gte, lte, sum } from '@platform/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateCandles, bucketStart, type DecimalCandle, deriveCrossCandles } from './candles.ts';

const units = (value: bigint, scale = 4): Amount => ({ units: value, scale });

/** A chain of 1m candles: positive prices, each open the previous close, wicks around the body. */
const minuteCandles = fc
  .record({
    start: fc.integer({ min: 0, max: 100_000 }).map((minute) => minute * 60_000),
    first: fc.bigInt({ min: 1n, max: 10n ** 9n }),
    moves: fc.array(
      fc.record({
        close: fc.bigInt({ min: 1n, max: 10n ** 9n }),
        up: fc.bigInt({ min: 0n, max: 10n ** 6n }),
        down: fc.bigInt({ min: 0n, max: 10n ** 6n }),
        volume: fc.bigInt({ min: 0n, max: 10n ** 12n }),
        gapMinutes: fc.integer({ min: 1, max: 90 }),
      }),
      { minLength: 1, maxLength: 300 },
    ),
  })
  .map(({ start, first, moves }) => {
    const candles: DecimalCandle[] = [];
    let open = first;
    let time = start;
    for (const move of moves) {
      const top = open > move.close ? open : move.close;
      const bottom = open < move.close ? open : move.close;
      const low = bottom - move.down > 0n ? bottom - move.down : 1n;
      candles.push({
        time,
        open: units(open),
        high: units(top + move.up),
        low: units(low),
        close: units(move.close),
        volume: units(move.volume, 6),
      });
      open = move.close;
      time += move.gapMinutes * 60_000;
    }
    return candles;
  });

const text = (candles: DecimalCandle[]) =>
  candles.map((c) => [c.time, ...[c.open, c.high, c.low, c.close, c.volume].map((v) => formatDecimal(v))].join(' '));

function wellFormed(candle: DecimalCandle): boolean {
  return (
    gte(candle.high, candle.open) &&
    gte(candle.high, candle.close) &&
    gte(candle.high, candle.low) &&
    lte(candle.low, candle.open) &&
    lte(candle.low, candle.close)
  );
}

const coarse: CandleInterval[] = ['5m', '15m', '1h', '4h', '1d', '1w'];

describe('candle aggregation', () => {
  it('keeps every aggregated candle well formed (high >= open, close, low; low <= open, close)', () => {
    fc.assert(
      fc.property(minuteCandles, fc.constantFrom(...coarse), (candles, interval) => {
        for (const candle of aggregateCandles(candles, interval)) expect(wellFormed(candle)).toBe(true);
      }),
    );
  });

  it('adds volumes up across intervals', () => {
    fc.assert(
      fc.property(minuteCandles, fc.constantFrom(...coarse), (candles, interval) => {
        const total = sum(candles.map((candle) => candle.volume));
        const aggregated = aggregateCandles(candles, interval);
        expect(eq(sum(aggregated.map((candle) => candle.volume)), total)).toBe(true);
      }),
    );
  });

  it('gives the same candles through an intermediate interval as directly', () => {
    const chains: [CandleInterval, CandleInterval][] = [
      ['5m', '15m'],
      ['5m', '1h'],
      ['15m', '1h'],
      ['1h', '4h'],
      ['1h', '1d'],
      ['4h', '1d'],
      ['1d', '1w'],
      ['1h', '1w'],
    ];
    fc.assert(
      fc.property(minuteCandles, fc.constantFrom(...chains), (candles, [middle, top]) => {
        expect(text(aggregateCandles(aggregateCandles(candles, middle), top))).toEqual(
          text(aggregateCandles(candles, top)),
        );
      }),
    );
  });

  it('aligns buckets to the interval, and weeks to Monday', () => {
    expect(bucketStart(Date.UTC(2024, 5, 5, 13, 7, 31), '15m')).toBe(Date.UTC(2024, 5, 5, 13, 0));
    expect(bucketStart(Date.UTC(2024, 5, 5, 13, 7), '4h')).toBe(Date.UTC(2024, 5, 5, 12, 0));
    // 2024-06-05 was a Wednesday; its week opened on Monday 2024-06-03.
    expect(bucketStart(Date.UTC(2024, 5, 5, 13, 7), '1w')).toBe(Date.UTC(2024, 5, 3));
    expect(candleIntervalMs['1w'] % candleIntervalMs['1d']).toBe(0);
  });

  it('derives cross candles that stay well formed', () => {
    fc.assert(
      fc.property(minuteCandles, minuteCandles, (base, quote) => {
        const aligned = quote
          .slice(0, base.length)
          .map((candle, index) => ({ ...candle, time: base[index]?.time ?? 0 }));
        for (const candle of deriveCrossCandles(base, aligned, 8)) expect(wellFormed(candle)).toBe(true);
      }),
    );
    const [candle] = deriveCrossCandles(
      [
        {
          time: 0,
          open: decimal('3000'),
          high: decimal('3300'),
          low: decimal('2900'),
          close: decimal('3200'),
          volume: decimal('5'),
        },
      ],
      [
        {
          time: 0,
          open: decimal('60000'),
          high: decimal('61000'),
          low: decimal('59000'),
          close: decimal('64000'),
          volume: decimal('1'),
        },
      ],
      8,
    );
    expect(candle && formatDecimal(candle.open)).toBe('0.05000000');
    expect(candle && formatDecimal(candle.close)).toBe('0.05000000');
    expect(candle && formatDecimal(candle.high)).toBe(formatDecimal(add(decimal('0.05409836'), decimal('0'))));
    expect(candle && formatDecimal(candle.volume)).toBe('5');
  });
});
