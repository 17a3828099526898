import { CIRCULATING_SUPPLY, COIN_SYMBOLS } from '@platform/contracts';
import { decimal, formatDecimal, mulToScale } from '@platform/money';
import { describe, expect, it } from 'vitest';
import {
  applyMoveBps,
  coinModel,
  nextUnits,
  Random,
  SimulatorPriceSource,
  type Timer,
  walkBackward,
} from './simulator.ts';

const CANONICAL = /^(0|[1-9]\d*)(\.\d{1,18})?$/;

function manualTimer(): Timer & { fire(): void; active: boolean } {
  let callback: (() => void) | null = null;
  return {
    setInterval(fn) {
      callback = fn;
      return 1;
    },
    clearInterval() {
      callback = null;
    },
    fire() {
      callback?.();
    },
    get active() {
      return callback !== null;
    },
  };
}

function simulator(seed = 'test-seed') {
  let nowMs = Date.UTC(2024, 5, 1, 12, 0, 0);
  const timer = manualTimer();
  const source = new SimulatorPriceSource({ seed, tickMs: 250, now: () => new Date(nowMs), timer });
  return {
    source,
    timer,
    advance(ms: number) {
      nowMs += ms;
    },
  };
}

function path(seed: string, steps: number): string[] {
  const sim = simulator(seed);
  const prices: string[] = [];
  for (let step = 0; step < steps; step++) {
    sim.advance(250);
    sim.source.tick();
    for (const quote of sim.source.quotesNow(['BTC', 'DOGE', 'USDT']).values()) prices.push(quote.priceUsd);
  }
  return prices;
}

describe('simulator price source', () => {
  it('follows the same path for the same seed, and another for another seed', () => {
    expect(path('alpha', 200)).toEqual(path('alpha', 200));
    expect(path('alpha', 200)).not.toEqual(path('beta', 200));
  });

  it('starts at the reference prices with a day of change and volume', async () => {
    const { source } = simulator();
    const quotes = await source.getQuotes(['BTC', 'ETH', 'NOPE']);
    expect(quotes.get('BTC')?.priceUsd).toBe('67250.00');
    expect(quotes.has('NOPE')).toBe(false);
    const btc = quotes.get('BTC');
    expect(btc?.source).toBe('simulator');
    expect(BigInt(btc?.volume24hUsd.replace('.', '') ?? '0')).toBeGreaterThan(0n);
    expect(btc?.changePercent24h).toMatch(/^-?\d+\.\d{2}$/);
  });

  it('keeps stable coins within 0.1 % of 1 over 10,000 steps', () => {
    const model = coinModel('USDT');
    const random = new Random(42);
    let units = model.referenceUnits;
    const one = 10n ** BigInt(model.scale);
    for (let step = 0; step < 10_000; step++) {
      units = nextUnits(model, units, random, 0);
      expect(units * 1000n >= one * 999n && units * 1000n <= one * 1001n).toBe(true);
    }
  });

  it('never lets a price reach zero, even for the most volatile coin over many big steps', () => {
    for (const symbol of ['BABYDOGE', 'PEPE', 'SHIB', 'BTC']) {
      const model = coinModel(symbol);
      const random = new Random(7);
      let units = model.referenceUnits;
      for (let step = 0; step < 10_000; step++) {
        units = nextUnits(model, units, random, 800);
        expect(units > 0n).toBe(true);
      }
    }
  });

  it('emits only canonical decimal strings with bounded scale, for every coin', () => {
    const sim = simulator();
    const quotes = sim.source.quotesNow(COIN_SYMBOLS);
    expect(quotes.size).toBe(COIN_SYMBOLS.length);
    for (let step = 0; step < 50; step++) {
      sim.advance(250);
      sim.source.tick();
    }
    for (const quote of sim.source.quotesNow(COIN_SYMBOLS).values()) {
      for (const value of [quote.priceUsd, quote.volume24hUsd, quote.high24hUsd, quote.low24hUsd]) {
        expect(value).toMatch(CANONICAL);
      }
      expect(quote.changePercent24h).toMatch(/^-?(0|[1-9]\d*)\.\d{2}$/);
      expect(Number(quote.priceUsd)).toBeGreaterThan(0);
    }
  });

  it('ticks on its timer, pushes quotes to subscribers and stops', () => {
    const sim = simulator();
    const seen: string[] = [];
    const unsubscribe = sim.source.subscribe(['ETH'], (quote) => seen.push(quote.symbol));
    sim.source.start();
    expect(sim.timer.active).toBe(true);
    sim.timer.fire();
    sim.timer.fire();
    expect(seen).toEqual(['ETH', 'ETH']);
    unsubscribe();
    sim.timer.fire();
    expect(seen).toHaveLength(2);
    sim.source.stop();
    expect(sim.timer.active).toBe(false);
    expect(sim.source.running).toBe(false);
  });

  it('moves a coin at once on an operator shock, tells its subscribers, and walks on from there', () => {
    const sim = simulator();
    const before = sim.source.quotesNow(['BTC']).get('BTC')?.priceUsd ?? '';
    const seen: string[] = [];
    sim.source.subscribe(['BTC'], (quote) => seen.push(quote.priceUsd));
    const quote = sim.source.shock('BTC', -1_000);
    const expected = formatDecimal(mulToScale(decimal(before), decimal('0.9'), 2, 'half_even'));
    expect(quote?.priceUsd).toBe(expected);
    expect(seen).toEqual([expected]);
    expect(Number(quote?.low24hUsd)).toBeLessThanOrEqual(Number(expected));
    sim.source.tick();
    const after = sim.source.quotesNow(['BTC']).get('BTC')?.priceUsd ?? '';
    // One ordinary step away from the shocked price, not back to where it was.
    expect(Math.abs(Number(after) / Number(expected) - 1)).toBeLessThan(0.01);
    expect(sim.source.shock('NOPE', 100)).toBeNull();
  });

  it('walks backward into a chain of candles ending at the given price', () => {
    const model = coinModel('SOL');
    const candles = walkBackward(model, {
      endUnits: model.referenceUnits,
      count: 100,
      stepMs: 60_000,
      lastOpenTimeMs: 6_000_000,
      random: new Random(1),
    });
    expect(candles.at(-1)?.close).toBe(model.referenceUnits);
    expect(candles.at(-1)?.openTimeMs).toBe(6_000_000);
    expect(candles[0]?.openTimeMs).toBe(6_000_000 - 99 * 60_000);
    for (let index = 1; index < candles.length; index++) {
      expect(candles[index]?.open).toBe(candles[index - 1]?.close);
    }
    for (const candle of candles) {
      expect(candle.high >= candle.open && candle.high >= candle.close).toBe(true);
      expect(candle.low <= candle.open && candle.low <= candle.close && candle.low > 0n).toBe(true);
    }
  });

  it('moves by whole basis points, rounding half to even', () => {
    expect(applyMoveBps(10_000n, 1)).toBe(10_001n);
    expect(applyMoveBps(5n, 1_000)).toBe(6n); // 5.5 -> 6
    expect(applyMoveBps(15n, -1_000)).toBe(14n); // 13.5 -> 14
    expect(applyMoveBps(1n, -2_000)).toBe(1n);
  });
});

describe('simulated market caps', () => {
  it('are price times circulating supply, in whole dollars', async () => {
    const source = new SimulatorPriceSource({ seed: 'caps', tickMs: 250, now: () => new Date(Date.UTC(2024, 5, 1)) });
    const quotes = await source.getQuotes(['BTC', 'PEPE', 'USDT']);
    expect(quotes.size).toBe(3);
    for (const quote of quotes.values()) {
      const expected = mulToScale(
        decimal(quote.priceUsd),
        decimal(CIRCULATING_SUPPLY[quote.symbol] ?? '0'),
        0,
        'half_even',
      );
      expect(quote.marketCapUsd).toBe(formatDecimal(expected));
      expect(quote.marketCapUsd).not.toBe('0');
    }
    await source.close?.();
  });
});
