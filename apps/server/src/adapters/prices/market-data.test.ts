import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeCoinGecko } from './fakes/fake-coingecko.ts';
import { manualClock, recordingLogger } from './fakes/recording-logger.ts';
import {
  expandExponent,
  MarketDataPriceSource,
  type MarketDataPriceSourceOptions,
  numberToDecimal,
} from './market-data.ts';

const COIN_IDS = { BTC: 'bitcoin', ETH: 'ethereum', SHIB: 'shiba-inu', DOGE: 'dogecoin' };
const BITCOIN = {
  usd: 76975.12,
  usd_market_cap: 1532456789012.5,
  usd_24h_vol: 32145678901.123,
  usd_24h_change: -1.0360284186262618,
  last_updated_at: 1_760_000_000,
};

describe('MarketDataPriceSource against a fake CoinGecko', () => {
  let fake: FakeCoinGecko;
  let baseUrl: string;

  beforeEach(async () => {
    fake = new FakeCoinGecko();
    ({ baseUrl } = await fake.start());
    fake.prices.set('bitcoin', BITCOIN);
    fake.prices.set('ethereum', { usd: 3001.5, usd_24h_change: 2.5, last_updated_at: 1_760_000_100 });
    fake.prices.set('shiba-inu', { usd: 1.234e-7, usd_market_cap: 7.5e21 });
  });
  afterEach(async () => {
    await fake.stop();
  });

  function makeSource(options: Partial<MarketDataPriceSourceOptions> = {}) {
    const log = recordingLogger();
    const clock = manualClock();
    const source = new MarketDataPriceSource({
      baseUrl,
      coinIds: COIN_IDS,
      logger: log.logger,
      now: clock.now,
      ...options,
    });
    return { source, log, clock };
  }

  describe('getQuotes', () => {
    it('asks /simple/price for the ids with every flag and the demo key, and gives exact decimal strings', async () => {
      const { source } = makeSource({ apiKey: 'demo-key-1' });

      const quotes = await source.getQuotes(['btc', 'SHIB']);

      expect(fake.requests).toHaveLength(1);
      const request = fake.requests[0]!;
      expect(request.path).toBe('/api/v3/simple/price');
      expect(Object.fromEntries(request.query)).toEqual({
        ids: 'bitcoin,shiba-inu',
        vs_currencies: 'usd',
        include_market_cap: 'true',
        include_24hr_vol: 'true',
        include_24hr_change: 'true',
        include_last_updated_at: 'true',
      });
      expect(request.apiKey).toBe('demo-key-1');
      expect(quotes.get('BTC')).toEqual({
        symbol: 'BTC',
        priceUsd: '76975.12',
        changePercent24h: '-1.0360284186262618',
        volume24hUsd: '32145678901.123',
        high24hUsd: null,
        low24hUsd: null,
        marketCapUsd: '1532456789012.5',
        timestamp: new Date('2025-10-09T08:53:20.000Z'),
        source: 'market-data',
      });
      expect(quotes.get('SHIB')).toMatchObject({
        priceUsd: '0.0000001234',
        marketCapUsd: '7500000000000000000000',
        changePercent24h: '0',
        volume24hUsd: '0',
      });
      expect(source.health()).toMatchObject({ name: 'market-data', ok: true, lastError: null });
    });

    it('sends no key header without a key', async () => {
      const { source } = makeSource();
      await source.getQuotes(['BTC']);
      expect(fake.requests[0]?.apiKey).toBeUndefined();
    });

    it('defaults missing values to 0 and takes lastUpdated from unix seconds', async () => {
      const { source } = makeSource();
      const eth = (await source.getQuotes(['ETH'])).get('ETH');
      expect(eth).toMatchObject({
        priceUsd: '3001.5',
        changePercent24h: '2.5',
        volume24hUsd: '0',
        marketCapUsd: '0',
        timestamp: new Date(1_760_000_100 * 1000),
      });
    });

    it('skips symbols with no known coin id, and makes no request when none is left', async () => {
      const { source } = makeSource();
      expect((await source.getQuotes(['NOPE', 'ALSO'])).size).toBe(0);
      expect(fake.requests).toHaveLength(0);

      const quotes = await source.getQuotes(['NOPE', 'BTC']);
      expect([...quotes.keys()]).toEqual(['BTC']);
      expect(fake.priceRequestIds).toEqual([['bitcoin']]);
    });

    it("logs exactly 'No price data found for {symbol}' for a coin the service does not return", async () => {
      const { source, log } = makeSource();

      const quotes = await source.getQuotes(['BTC', 'DOGE']);

      expect([...quotes.keys()]).toEqual(['BTC']);
      const line = log.lines.find((each) => each.msg.startsWith('No price data'));
      expect(line?.msg).toBe('No price data found for DOGE');
    });

    it('treats a coin without a usd price as missing rather than priced at 0', async () => {
      fake.prices.set('dogecoin', { usd_24h_vol: 5 });
      const { source, log } = makeSource();
      expect((await source.getQuotes(['DOGE'])).size).toBe(0);
      expect(log.messages()).toContain('No price data found for DOGE');
    });

    it('serves a symbol from the 30 s cache without a request, and asks again after 30 s', async () => {
      const { source, clock } = makeSource();
      const first = await source.getQuotes(['BTC']);

      clock.advance(29_999);
      fake.prices.set('bitcoin', { ...BITCOIN, usd: 80000 });
      expect(await source.getQuotes(['btc'])).toEqual(first);
      expect(fake.requests).toHaveLength(1);

      clock.advance(1);
      expect((await source.getQuotes(['BTC'])).get('BTC')?.priceUsd).toBe('80000');
      expect(fake.requests).toHaveLength(2);
    });

    it('serves cached symbols first and requests only the missing ones', async () => {
      const { source } = makeSource();
      await source.getQuotes(['BTC']);

      const quotes = await source.getQuotes(['BTC', 'ETH', 'SHIB']);

      expect([...quotes.keys()].sort()).toEqual(['BTC', 'ETH', 'SHIB']);
      expect(fake.priceRequestIds).toEqual([['bitcoin'], ['ethereum', 'shiba-inu']]);
    });

    it('makes at most 100 requests in 60 s, then serves the cache, and asks again when the window moves', async () => {
      const { source, clock, log } = makeSource({ cacheTtlMs: 0 });
      for (let call = 0; call < 100; call++) await source.getQuotes(['BTC']);
      expect(fake.requests).toHaveLength(100);

      fake.prices.set('bitcoin', { ...BITCOIN, usd: 1 });
      const overBudget = await source.getQuotes(['BTC', 'ETH']);
      expect(fake.requests).toHaveLength(100);
      expect([...overBudget.keys()]).toEqual(['BTC']);
      expect(overBudget.get('BTC')?.priceUsd).toBe('76975.12');
      expect(log.messages()).toContain('market-data request budget spent; serving cached prices');

      clock.advance(59_999);
      await source.getQuotes(['BTC']);
      expect(fake.requests).toHaveLength(100);
      clock.advance(1);
      expect((await source.getQuotes(['BTC'])).get('BTC')?.priceUsd).toBe('1');
      expect(fake.requests).toHaveLength(101);
    });

    it('on HTTP 429 uses cached data, logs an error and stays away for a minute (or Retry-After)', async () => {
      const { source, clock, log } = makeSource();
      await source.getQuotes(['BTC']);
      clock.advance(31_000);
      fake.mode = 'rate-limited';

      const quotes = await source.getQuotes(['BTC', 'ETH']);

      expect([...quotes.keys()]).toEqual(['BTC']);
      expect(quotes.get('BTC')?.priceUsd).toBe('76975.12');
      expect(source.health()).toMatchObject({
        ok: false,
        retryAt: new Date('2030-01-01T00:01:31.000Z'),
      });
      expect(source.health().lastError).toContain('HTTP 429');
      expect(log.lines.some((line) => line.level === 50 && line.msg.includes('HTTP 429'))).toBe(true);

      fake.mode = 'ok';
      clock.advance(59_999);
      await source.getQuotes(['ETH']);
      expect(fake.requests).toHaveLength(2);
      clock.advance(1);
      expect((await source.getQuotes(['ETH'])).has('ETH')).toBe(true);
      expect(fake.requests).toHaveLength(3);
      expect(source.health().ok).toBe(true);
    });

    it('honours a Retry-After header on 429', async () => {
      fake.mode = 'rate-limited';
      fake.retryAfterSeconds = 5;
      const { source } = makeSource();
      expect((await source.getQuotes(['BTC'])).size).toBe(0);
      expect(source.health().retryAt).toEqual(new Date('2030-01-01T00:00:05.000Z'));
    });

    it.each([
      ['server-error', /GET \/simple\/price: HTTP 500/],
      ['garbage', /GET \/simple\/price: .*JSON/],
    ] as const)('on %s logs an error and returns only cached quotes, never rejecting', async (mode, message) => {
      const { source, clock, log } = makeSource();
      await source.getQuotes(['BTC']);
      clock.advance(30_000);
      fake.mode = mode;

      const quotes = await source.getQuotes(['BTC', 'ETH']);

      expect([...quotes.keys()]).toEqual(['BTC']);
      expect(log.lines.some((line) => line.level === 50 && message.test(line.msg))).toBe(true);
      expect(source.health().ok).toBe(false);
    });

    it('gives nothing on failure when nothing is cached', async () => {
      fake.mode = 'server-error';
      const { source } = makeSource();
      expect((await source.getQuotes(['BTC'])).size).toBe(0);
    });

    it('does not serve cached quotes older than the stale limit', async () => {
      const { source, clock } = makeSource({ staleCacheMaxAgeMs: 120_000 });
      await source.getQuotes(['BTC']);
      fake.mode = 'server-error';
      clock.advance(119_999);
      expect((await source.getQuotes(['BTC'])).has('BTC')).toBe(true);
      clock.advance(1);
      expect((await source.getQuotes(['BTC'])).has('BTC')).toBe(false);
    });

    it('gives up on a slow answer after the timeout and serves the cache', async () => {
      fake.mode = 'slow';
      fake.slowDelayMs = 2000;
      const { source } = makeSource({ timeoutMs: 100 });
      const startedAt = Date.now();
      expect((await source.getQuotes(['BTC'])).size).toBe(0);
      expect(Date.now() - startedAt).toBeLessThan(1500);
      expect(source.health().lastError).toMatch(/GET \/simple\/price: .*(timeout|aborted)/i);
    });
  });

  describe('searchCoins', () => {
    beforeEach(() => {
      fake.searchCoins = Array.from({ length: 12 }, (_, index) => ({
        id: `bitcoin-${index}`,
        name: `Bitcoin ${index}`,
        api_symbol: `bitcoin-${index}`,
        symbol: `btc${index}`,
        market_cap_rank: index === 0 ? 1 : null,
        thumb: `https://assets.example/${index}/thumb.png`,
        large: `https://assets.example/${index}/large.png`,
      }));
    });

    it('returns at most 10 coins with upper-case symbols', async () => {
      const { source } = makeSource();

      const results = await source.searchCoins('bit coin');

      expect(fake.requests[0]?.path).toBe('/api/v3/search');
      expect(fake.requests[0]?.query.get('query')).toBe('bit coin');
      expect(results).toHaveLength(0);

      const bitcoins = await source.searchCoins('bitcoin');
      expect(bitcoins).toHaveLength(10);
      expect(bitcoins[0]).toEqual({
        id: 'bitcoin-0',
        name: 'Bitcoin 0',
        symbol: 'BTC0',
        marketCapRank: 1,
        thumb: 'https://assets.example/0/thumb.png',
      });
      expect(bitcoins[1]?.marketCapRank).toBeNull();
    });

    it('asks nothing for a blank query and gives [] when the service fails', async () => {
      const { source } = makeSource();
      expect(await source.searchCoins('   ')).toEqual([]);
      expect(fake.requests).toHaveLength(0);

      fake.mode = 'garbage';
      expect(await source.searchCoins('bitcoin')).toEqual([]);
      expect(source.health().ok).toBe(false);
    });
  });
});

describe('numberToDecimal', () => {
  it.each([
    [76975, '76975'],
    [76975.12, '76975.12'],
    [-1.0360284186262618, '-1.0360284186262618'],
    [0.1, '0.1'],
    [1e-7, '0.0000001'],
    [1.234e-7, '0.0000001234'],
    [-2.5e-10, '-0.00000000025'],
    [7.5e21, '7500000000000000000000'],
    [1e21, '1000000000000000000000'],
    [0, '0'],
    [-0, '0'],
    // Beyond 18 decimals it rounds half-even, the deepest an amount keeps.
    [2.5e-18, '0.000000000000000002'],
    [3.5e-18, '0.000000000000000004'],
    [1e-20, '0'],
  ])('%s -> %s', (value, expected) => {
    expect(numberToDecimal(value)).toBe(expected);
  });

  it('gives null for a number no amount can hold', () => {
    expect(numberToDecimal(1e300)).toBeNull();
    expect(numberToDecimal(Number.NaN)).toBeNull();
  });

  it('expands exponents by moving the point in the text', () => {
    expect(expandExponent('1.5e+3')).toBe('1500');
    expect(expandExponent('1.2345e2')).toBe('123.45');
    expect(expandExponent('12.5')).toBe('12.5');
  });
});
