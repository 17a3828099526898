import { type MarkPriceView, markPriceSchema } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import {
  type BookLevel,
  type BookSide,
  createFuturesMarks,
  engineBookReader,
  type FuturesMarkMarket,
  type FuturesMarksConfig,
  impactNotionalFor,
  indexSourcesFromPriceSources,
  interestForInterval,
  priceTextToTicks,
} from './marks.ts';

const HOUR = 3_600_000;
const START_MS = Date.UTC(2026, 0, 5, 9, 30);

/** BTC at 0.1 USD ticks and 0.001 BTC lots, 100x: impact notional 20,000 USD (from the leverage). */
const BTC: FuturesMarkMarket = {
  id: 'BTC_USD_PERP',
  base: 'BTC',
  priceDecimals: 1,
  quantityDecimals: 3,
  maxLeverage: 100,
  fundingCap: 300_000n,
};

/** A book of one deep level a side (10 BTC each), or none on a side. */
type FakeBook = { bid: number | null; ask: number | null; lots: number };

function setup(options: { sources?: string[]; config?: Partial<FuturesMarksConfig> } = {}) {
  let nowMs = START_MS;
  let sources = options.sources ?? ['60000'];
  let book: FakeBook = { bid: null, ask: null, lots: 10_000 };
  const published: { channel: string; payload: MarkPriceView }[] = [];
  const level = (price: number | null): BookLevel[] => (price === null ? [] : [{ priceTicks: price, lots: book.lots }]);
  const marks = createFuturesMarks({
    markets: () => [BTC],
    // Every source price is as fresh as the sample (index-price.test.ts covers stale ones).
    indexSources: (base) => (base === 'BTC' ? sources.map((price) => ({ price, atMs: nowMs })) : []),
    bookTop: () => ({ bestBidTicks: book.bid, bestAskTicks: book.ask }),
    bookLevels: (_market, side: BookSide) => level(side === 'bid' ? book.bid : book.ask),
    clock: () => new Date(nowMs),
    publish: (channel, payload) => published.push({ channel, payload }),
    ...(options.config ? { config: options.config } : {}),
  });
  return {
    marks,
    published,
    setBook: (bid: number | null, ask: number | null, lots = 10_000) => {
      book = { bid, ask, lots };
    },
    setSources: (next: string[]) => {
      sources = next;
    },
    /** One sample a second, `count` times. */
    run(count: number) {
      for (let index = 0; index < count; index++) {
        nowMs += 1_000;
        marks.sampleAll();
      }
    },
    markTicks: () => marks.mark(BTC.id)?.markTicks ?? null,
  };
}

describe('index price', () => {
  it('converts decimal source prices to ticks exactly, half up, and skips what is not a price', () => {
    expect(priceTextToTicks('60010.25', 1)).toBe(600_103);
    expect(priceTextToTicks('60010.24999999999', 1)).toBe(600_102);
    expect(priceTextToTicks('0.000000001', 4)).toBeNull();
    expect(priceTextToTicks('-5', 1)).toBeNull();
    expect(priceTextToTicks('1e5', 1)).toBeNull();
  });

  it('reads the markets module’s reference quote of the BASE_USD pair as its source without independent ones', () => {
    const sources = indexSourcesFromPriceSources({
      independent: [],
      sourceQuotes: () => [{ source: 'simulator', priceUsd: '1', atMs: 5 }],
      referenceQuote: (pairId) => (pairId === 'BTC_USD' ? { price: '67250.12', timestamp: 7 } : undefined),
    });
    expect(sources('BTC')).toEqual([{ price: '67250.12', atMs: 7 }]);
    expect(sources('TON')).toEqual([]);
  });

  it('is the median of the sources in ticks', () => {
    const { marks, run } = setup({ sources: ['60010.25', '59990', 'n/a', '60000.05'] });
    run(1);
    // 600103, 599900, 600001: the median is 600001 whatever the wild one.
    expect(marks.mark(BTC.id)).toMatchObject({ indexTicks: 600_001, markTicks: 600_001 });
  });

  it('has no mark and publishes nothing without a source price', () => {
    const { marks, published, run } = setup({ sources: [] });
    run(3);
    expect(marks.mark(BTC.id)).toBeNull();
    expect(published).toEqual([]);
  });
});

describe('mark price', () => {
  it('follows a persistent basis of the book mid', () => {
    const { run, setBook, markTicks } = setup();
    setBook(600_100, 600_120); // mid 60,011.0: basis +11 USD = 110 ticks
    run(60);
    expect(markTicks()).toBe(600_110);
  });

  it('moves by at most a window share of the clamp band on one wild book mid', () => {
    const { run, setBook, markTicks } = setup();
    setBook(600_100, 600_120);
    run(60);
    const before = markTicks()!;
    setBook(700_000, 700_020); // a mid 16 % away for one second
    run(1);
    const band = (600_000 * 500_000) / 100_000_000; // 0.5 % of the index: 3,000 ticks
    const moved = markTicks()! - before;
    expect(moved).toBeGreaterThan(0);
    // The sample's basis is clamped to the band first, and it is one of 60.
    expect(moved).toBeLessThanOrEqual(Math.ceil((band - 110) / 60) + 1);
    setBook(600_100, 600_120);
    run(60);
    expect(markTicks()).toBe(600_110);
  });

  it('never leaves the clamp band, however far the book stays', () => {
    const { run, setBook, markTicks } = setup();
    setBook(660_000, 660_010);
    run(120);
    expect(markTicks()).toBe(603_000);
  });

  it('is pulled to the index by a one-sided or empty book', () => {
    const { run, setBook, setSources, markTicks } = setup();
    setBook(600_100, 600_120);
    run(60);
    setBook(600_100, null);
    run(30);
    expect(markTicks()).toBe(600_055);
    setBook(null, null);
    setSources(['60100']);
    run(30);
    expect(markTicks()).toBe(601_000);
  });
});

describe('reading the matching engine', () => {
  it('gives the top of the book and one side’s levels, best first', () => {
    const engine = {
      bestBid: () => 600_100,
      bestAsk: () => 600_120,
      depth: (levels: number) => ({
        bids: [
          { priceTicks: 600_100, quantityLots: 5, orderCount: 1 },
          { priceTicks: 600_000, quantityLots: 7, orderCount: 2 },
        ].slice(0, levels),
        asks: [{ priceTicks: 600_120, quantityLots: 3, orderCount: 1 }].slice(0, levels),
      }),
    };
    const reader = engineBookReader((id) => (id === BTC.id ? engine : undefined));
    expect(reader.bookTop(BTC.id)).toEqual({ bestBidTicks: 600_100, bestAskTicks: 600_120 });
    expect(reader.bookLevels(BTC.id, 'bid', 10)).toEqual([
      { priceTicks: 600_100, lots: 5 },
      { priceTicks: 600_000, lots: 7 },
    ]);
    expect(reader.bookLevels(BTC.id, 'ask', 1)).toEqual([{ priceTicks: 600_120, lots: 3 }]);
    expect(reader.bookTop('ETH_USD_PERP')).toEqual({ bestBidTicks: null, bestAskTicks: null });
    expect(reader.bookLevels('ETH_USD_PERP', 'ask', 5)).toEqual([]);
  });
});

describe('predicted funding and publication', () => {
  it('publishes mark.{MARKET} messages that validate against markPriceSchema, only on a change', () => {
    const { published, run, setBook } = setup();
    setBook(600_100, 600_120);
    run(3);
    expect(published).toHaveLength(1);
    const [{ channel, payload }] = published as [{ channel: string; payload: MarkPriceView }];
    expect(channel).toBe('mark.BTC_USD_PERP');
    expect(markPriceSchema.parse(payload)).toEqual({
      market: 'BTC_USD_PERP',
      mark_price: '60011.0',
      index_price: '60000.0',
      // Impact bid 60,010 > index: premium 10/60,000 = 0.01667 %; F = P + clamp(I - P) = 0.01 %.
      funding_rate: '0.0001',
      next_funding_time: Date.UTC(2026, 0, 5, 16),
      index_stale: false,
      timestamp: START_MS + 1_000,
    });
    setBook(600_200, 600_220);
    run(1);
    expect(published).toHaveLength(2);
    expect(published[1]!.payload.mark_price).toBe('60013.5'); // (3 x 110 + 210) / 4 ticks over the index;
  });

  it('caps the predicted funding rate', () => {
    const { marks, published, run, setBook } = setup();
    setBook(610_000, 610_020); // impact bid 61,000: premium 1.67 %
    run(5);
    expect(marks.mark(BTC.id)?.fundingRate).toBe(300_000n);
    expect(marks.fundingRate(BTC.id)).toBe(300_000n);
    expect(published.at(-1)!.payload.funding_rate).toBe('0.003');
    marks.resetPremium(BTC.id);
    expect(marks.fundingRate(BTC.id)).toBe(10_000n);
  });

  it('pays interest alone on a book too thin for the impact notional', () => {
    const { marks, run, setBook } = setup();
    // Impact notional 20,000 USD; a level of 0.1 BTC at 61,000 is 6,100 USD: no impact bid, premium 0.
    setBook(610_000, 610_020, 100);
    run(2);
    expect(marks.fundingRate(BTC.id)).toBe(10_000n);
    setBook(610_000, 610_020, 1_000);
    run(1);
    expect(marks.fundingRate(BTC.id)).toBeGreaterThan(10_000n);
  });

  it('gives a book pushed in the last seconds of the interval next to no weight in the rate', () => {
    const { marks, run, setBook } = setup();
    // Index 60,000 inside the book: premium 0 for the whole interval but its last 5 seconds.
    setBook(599_990, 600_010);
    run(8 * 3_600 - 5);
    setBook(612_000, 612_010); // impact bid 2 % over the index
    run(5);
    // P = 2 % x (the last 5 of 28,800 linear weights) = 0.00069 %: inside the interest clamp, F = I.
    expect(marks.fundingRate(BTC.id)).toBe(10_000n);
  });

  it('tells listeners of every change', () => {
    const { marks, run, setBook } = setup();
    const seen: number[] = [];
    const stop = marks.onMark((_market, snapshot) => seen.push(snapshot.markTicks));
    setBook(600_100, 600_120);
    run(2);
    setBook(600_200, 600_220);
    run(1);
    stop();
    setBook(600_300, 600_320);
    run(5);
    expect(seen).toEqual([600_110, 600_143]); // (2 x 110 + 210) / 3;
  });

  it('takes Binance’s impact notional: 200 USD of margin at the maximum leverage', () => {
    expect(impactNotionalFor(100)).toBe(20_000n * 100_000_000n);
    expect(impactNotionalFor(50)).toBe(10_000n * 100_000_000n);
  });

  it('scales the interest to the funding interval', () => {
    expect(interestForInterval(10_000n, 8 * HOUR)).toBe(10_000n);
    expect(interestForInterval(10_000n, 4 * HOUR)).toBe(5_000n);
    expect(interestForInterval(10_000n, HOUR)).toBe(1_250n);
  });
});
