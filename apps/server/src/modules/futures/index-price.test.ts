import { type MarkPriceView, markPriceSchema } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { PriceSourceChain } from '../../adapters/prices/chain.ts';
import type { PriceQuote, PriceSource } from '../../adapters/prices/types.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { recordingSource, SourceQuoteBook } from '../markets/source-quotes.ts';
import { createFuturesMarks, type FuturesMarkMarket, indexOf, indexSourcesFromPriceSources } from './marks.ts';

const START_MS = Date.UTC(2026, 0, 5, 9, 30);
const STALE_MS = 30_000;

/** BTC at 0.1 USD ticks. */
const BTC: FuturesMarkMarket = {
  id: 'BTC_USD_PERP',
  base: 'BTC',
  priceDecimals: 1,
  quantityDecimals: 3,
  maxLeverage: 100,
  fundingCap: 300_000n,
};

const quote = (source: string, priceUsd: string, atMs: number): PriceQuote => ({
  symbol: 'BTC',
  priceUsd,
  changePercent24h: '0',
  volume24hUsd: '0',
  high24hUsd: null,
  low24hUsd: null,
  marketCapUsd: null,
  timestamp: new Date(atMs),
  source,
});

/**
 * The marks over a real quote book: `independent` names the configured sources besides the
 * simulator; `reference` is the markets module's reference quote (the simulator's price). The
 * clock moves one second per sample.
 */
function venue(independent: string[], options: { staleMs?: number } = {}) {
  let nowMs = START_MS;
  const clock = () => new Date(nowMs);
  const book = new SourceQuoteBook(clock);
  let reference: { price: string; timestamp: number } | undefined;
  const published: MarkPriceView[] = [];
  const heard: string[] = [];
  const marks = createFuturesMarks({
    markets: () => [BTC],
    indexSources: indexSourcesFromPriceSources({
      independent,
      sourceQuotes: (symbol) => book.quotes(symbol),
      referenceQuote: (pairId) => (pairId === 'BTC_USD' ? reference : undefined),
    }),
    bookTop: () => ({ bestBidTicks: null, bestAskTicks: null }),
    bookLevels: () => [],
    clock,
    publish: (_channel, payload) => published.push(payload),
    config: { indexStaleMs: options.staleMs ?? STALE_MS },
  });
  marks.onMark((marketId) => heard.push(marketId));
  return {
    marks,
    published,
    heard,
    /** A source's quote, seen `ageMs` ago. */
    quote(source: string, price: string, ageMs = 0) {
      book.record(source, quote(source, price, nowMs - ageMs));
    },
    /** The simulator: its own quote in the book and the reference quote. */
    simulator(price: string) {
      book.record('simulator', quote('simulator', price, nowMs));
      reference = { price, timestamp: nowMs };
    },
    advance(ms: number) {
      nowMs += ms;
    },
    sample() {
      nowMs += 1_000;
      marks.sampleAll();
      return marks.mark(BTC.id);
    },
    now: () => nowMs,
  };
}

describe('index selection', () => {
  it('is the median of three sources: one wild source does not move it', () => {
    const v = venue(['exchange', 'market-data', 'provider']);
    v.quote('exchange', '60000');
    v.quote('market-data', '60010.04');
    v.quote('provider', '90000');
    v.simulator('10');
    const snapshot = v.sample();
    expect(snapshot?.indexTicks).toBe(600_100);
    // A mean would have been 70,003.3; the simulator's 10 is not among them either.
    expect(snapshot?.indexAt).toBe(v.now() - 1_000);
  });

  it('leaves out a stale source: the median of the two fresh ones, their mean rounded half up', () => {
    const v = venue(['exchange', 'market-data', 'provider']);
    v.quote('exchange', '60000.0');
    v.quote('market-data', '60000.1');
    v.quote('provider', '40000', STALE_MS);
    // Exactly at the cut-off it still counts (2 fresh + 40,000: median 60,000.0).
    expect(v.marks.mark(BTC.id)).toBeNull();
    v.advance(-1_000);
    expect(v.sample()?.indexTicks).toBe(600_000);
    // One more second: the 40,000 is older than 30 s and left out; (600,000 + 600,001) / 2 half up.
    expect(v.sample()?.indexTicks).toBe(600_001);
  });

  it('drops every stale source: no sample, the last mark stands and is published once as stale', () => {
    const v = venue(['exchange']);
    v.quote('exchange', '60000');
    const first = v.sample();
    expect(first).toMatchObject({ markTicks: 600_000, indexTicks: 600_000, indexAt: START_MS });
    expect(v.marks.indexStale(BTC.id)).toBe(false);
    expect(v.published.map((view) => view.index_stale)).toEqual([false]);
    // 30 s after the quote the index is still fresh (29 s since the last sample: same snapshot, nothing sent).
    v.advance(28_000);
    expect(v.sample()).toEqual(first);
    expect(v.marks.indexStale(BTC.id)).toBe(false);
    expect(v.published).toHaveLength(1);
    // Past the cut-off: the mark stands, the market says it is stale, once.
    const heardBefore = v.heard.length;
    v.sample();
    v.sample();
    expect(v.marks.mark(BTC.id)).toEqual(first);
    expect(v.marks.indexStale(BTC.id)).toBe(true);
    expect(v.published).toHaveLength(2);
    expect(markPriceSchema.parse(v.published[1])).toMatchObject({ mark_price: '60000.0', index_stale: true });
    expect(v.heard).toHaveLength(heardBefore + 1);
    // The source answers again at another price: a new mark, published as fresh.
    v.quote('exchange', '61000');
    expect(v.sample()).toMatchObject({ indexTicks: 610_000 });
    expect(v.marks.indexStale(BTC.id)).toBe(false);
    expect(v.published.at(-1)).toMatchObject({ index_price: '61000.0', index_stale: false });
  });

  it('publishes the fresh mark again after a stale period even when the price did not move', () => {
    const v = venue(['exchange']);
    v.quote('exchange', '60000');
    v.sample();
    v.advance(40_000);
    v.sample();
    expect(v.published.map((view) => view.index_stale)).toEqual([false, true]);
    v.quote('exchange', '60000');
    v.sample();
    expect(v.published.map((view) => view.index_stale)).toEqual([false, true, false]);
  });

  it('uses the simulator when no independent source is configured (the default)', () => {
    const v = venue([]);
    v.simulator('62000.05');
    expect(v.sample()).toMatchObject({ indexTicks: 620_001 });
    // The simulator's reference quote goes stale like any source (the feed stopped).
    v.advance(STALE_MS + 1_000);
    v.sample();
    expect(v.marks.indexStale(BTC.id)).toBe(true);
    expect(v.marks.mark(BTC.id)?.indexTicks).toBe(620_001);
  });

  it('never falls back to the simulator when the independent sources are configured but stale', () => {
    const v = venue(['exchange', 'market-data']);
    v.quote('exchange', '60000', STALE_MS + 1);
    v.quote('market-data', '60000', 5 * 60_000);
    v.simulator('10');
    v.advance(-1_000);
    expect(v.sample()).toBeNull();
    expect(v.published).toEqual([]);
    expect(v.marks.indexStale(BTC.id)).toBe(true);
    // Once the independent mark exists, a dead feed leaves it standing: the simulator's price never replaces it.
    v.quote('exchange', '60000');
    expect(v.sample()?.indexTicks).toBe(600_000);
    v.advance(STALE_MS);
    v.simulator('10');
    expect(v.sample()?.indexTicks).toBe(600_000);
    expect(v.marks.indexStale(BTC.id)).toBe(true);
  });

  it('ignores a source that is not a price, and takes a fresh one beside it', () => {
    const at = START_MS;
    const median = (quotes: { price: string; atMs: number }[]) => indexOf(quotes, 1, at, STALE_MS);
    expect(median([{ price: '1e5', atMs: at }])).toBeNull();
    expect(median([{ price: '-5', atMs: at }])).toBeNull();
    expect(median([{ price: '60000', atMs: Number.NaN }])).toBeNull();
    expect(median([])).toBeNull();
    expect(
      median([
        { price: 'abc', atMs: at },
        { price: '60000', atMs: at - 10 },
        { price: '59000', atMs: at - STALE_MS - 1 },
      ]),
    ).toEqual({ ticks: 600_000, atMs: at - 10 });
  });
});

describe('the per-source quote book', () => {
  it('keeps the latest quote per (source, coin), aged from the older of its timestamp and its arrival', () => {
    let nowMs = START_MS;
    const book = new SourceQuoteBook(() => new Date(nowMs));
    // A source clock 10 minutes ahead cannot make its quote fresher than its arrival.
    book.record('exchange', quote('exchange', '60000', nowMs + 600_000));
    expect(book.quotes('btc')).toEqual([{ source: 'exchange', priceUsd: '60000', atMs: START_MS }]);
    // A slow poll answering with an older quote does not replace the newer one.
    nowMs += 5_000;
    book.record('exchange', quote('exchange', '59000', START_MS - 1_000));
    expect(book.quotes('BTC')[0]?.priceUsd).toBe('60000');
    // A cached quote served again keeps its own (old) time.
    book.record('market-data', quote('market-data', '60100', START_MS - 50_000));
    expect(book.quotes('BTC')).toContainEqual({ source: 'market-data', priceUsd: '60100', atMs: START_MS - 50_000 });
    // Without a valid time it cannot be fresh: not kept.
    book.record('provider', { ...quote('provider', '1', 0), timestamp: new Date(Number.NaN) });
    expect(book.quotes('BTC').map((q) => q.source)).toEqual(['exchange', 'market-data']);
  });

  it('records what the chain receives from every source, even the streams the chain does not pass on', async () => {
    let nowMs = START_MS;
    const clock = () => new Date(nowMs);
    const book = new SourceQuoteBook(clock);
    const pushers = new Map<string, (q: PriceQuote) => void>();
    const fake = (name: string, price: string): PriceSource => ({
      name,
      getQuotes: async (symbols) =>
        new Map(symbols.map((symbol) => [symbol, { ...quote(name, price, nowMs), symbol }])),
      subscribe: (_symbols, onQuote) => {
        pushers.set(name, onQuote);
        return () => pushers.delete(name);
      },
      health: () => ({ name, ok: true, lastError: null, lastSuccessAt: clock() }),
    });
    const log = { warn() {}, info() {}, error() {}, debug() {} } as never;
    const sources = [fake('exchange', '60000'), fake('simulator', '10')].map((s) => recordingSource(s, book));
    const chain = new PriceSourceChain({ sources, logger: log, now: clock });
    const forwarded: string[] = [];
    const stop = chain.subscribe(['BTC'], (q) => forwarded.push(q.source));
    // The poll asks the exchange only (it priced BTC): the simulator is not asked.
    await chain.getQuotes(['BTC']);
    expect(book.quotes('BTC').map((q) => q.source)).toEqual(['exchange']);
    // The exchange is live: the simulator's push is not forwarded, but it is recorded.
    nowMs += 1_000;
    pushers.get('simulator')!(quote('simulator', '11', nowMs));
    expect(forwarded).toEqual([]);
    expect(book.quotes('BTC')).toContainEqual({ source: 'simulator', priceUsd: '11', atMs: nowMs });
    pushers.get('exchange')!(quote('exchange', '60001', nowMs));
    expect(forwarded).toEqual(['exchange']);
    expect(book.quotes('BTC')).toContainEqual({ source: 'exchange', priceUsd: '60001', atMs: nowMs });
    // The recorder is transparent: name and health are the source's.
    expect(sources[0]!.name).toBe('exchange');
    expect(chain.health().sources.map((h) => h.name)).toEqual(['exchange', 'simulator']);
    stop();
    expect(pushers.size).toBe(0);
  });
});

describe('FUTURES_INDEX_STALE_MS', () => {
  it('is 30 s by default, a whole number of ms from 1 s to 1 h', () => {
    expect(loadConfig({}).futuresIndexStaleMs).toBe(30_000);
    expect(loadConfig({ FUTURES_INDEX_STALE_MS: '5000' }).futuresIndexStaleMs).toBe(5_000);
    for (const bad of ['0', '999', '3600001', '1.5', 'abc', '-30000']) {
      expect(() => loadConfig({ FUTURES_INDEX_STALE_MS: bad }), bad).toThrow(ConfigError);
    }
  });
});
