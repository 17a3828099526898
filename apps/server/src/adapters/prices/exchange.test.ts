import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExchangePriceSource, type ExchangePriceSourceOptions, type SetTimer } from './exchange.ts';
import { FakeBinance } from './fakes/fake-binance.ts';
import { manualClock, recordingLogger } from './fakes/recording-logger.ts';
import { RateLimitedError } from './rate-limiter.ts';
import type { PriceQuote } from './types.ts';

describe('ExchangePriceSource against a fake Binance', () => {
  let fake: FakeBinance;
  let urls: { baseUrl: string; wsUrl: string };
  const sources: ExchangePriceSource[] = [];

  beforeEach(async () => {
    fake = new FakeBinance();
    urls = await fake.start();
  });
  afterEach(async () => {
    for (const source of sources.splice(0)) await source.close();
    await fake.stop();
  });

  function makeSource(options: Partial<ExchangePriceSourceOptions> = {}) {
    const log = recordingLogger();
    const clock = manualClock();
    const source = new ExchangePriceSource({ ...urls, logger: log.logger, now: clock.now, ...options });
    sources.push(source);
    return { source, log, clock };
  }

  describe('getQuotes', () => {
    it('prices every symbol from one call for all tickers, with exact decimal strings', async () => {
      fake.setTicker({
        symbol: 'BTCUSDT',
        lastPrice: '76975.01000000',
        priceChangePercent: '-1.250',
        quoteVolume: '1234567890.12345678',
        highPrice: '78000.00000000',
        lowPrice: '75500.50000000',
        openPrice: '77950.00000000',
        closeTime: 1_760_000_123_456,
      });
      fake.setTicker({ symbol: 'ETHUSDT', lastPrice: '3001.10000000', priceChangePercent: '2.345' });
      fake.setTicker({ symbol: 'ETHBTC', lastPrice: '0.03900000' });
      const { source } = makeSource();

      const quotes = await source.getQuotes(['btc', 'ETH', 'DOGE']);

      expect(fake.requests).toEqual(['/api/v3/ticker/24hr']);
      expect(quotes.get('BTC')).toEqual({
        symbol: 'BTC',
        priceUsd: '76975.01',
        changePercent24h: '-1.25',
        volume24hUsd: '1234567890.12345678',
        high24hUsd: '78000',
        low24hUsd: '75500.5',
        marketCapUsd: null,
        timestamp: new Date(1_760_000_123_456),
        source: 'exchange',
      });
      expect(quotes.get('ETH')).toMatchObject({ priceUsd: '3001.1', changePercent24h: '2.345', volume24hUsd: '0' });
      expect([...quotes.keys()].sort()).toEqual(['BTC', 'ETH']);
      expect(source.health()).toMatchObject({ name: 'exchange', ok: true, lastError: null });
      expect(source.health().lastSuccessAt).toEqual(new Date('2030-01-01T00:00:00.000Z'));
    });

    it('prices USDT by inverting the USDC-USDT market, high and low swapped', async () => {
      fake.setTicker({
        symbol: 'USDCUSDT',
        lastPrice: '1.00010000',
        openPrice: '1.00000000',
        highPrice: '1.00020000',
        lowPrice: '0.99990000',
        quoteVolume: '500000000.00000000',
      });
      const { source } = makeSource();

      const usdt = (await source.getQuotes(['USDT'])).get('USDT');

      expect(usdt).toMatchObject({
        symbol: 'USDT',
        priceUsd: '0.99990001',
        changePercent24h: '-0.01',
        high24hUsd: '1.00010001',
        low24hUsd: '0.99980004',
        volume24hUsd: '500000000',
        source: 'exchange',
      });
    });

    it('prices USDT at exactly 1 when the exchange does not list the USDC-USDT market', async () => {
      const { source } = makeSource();
      const usdt = (await source.getQuotes(['USDT'])).get('USDT');
      expect(usdt).toMatchObject({ priceUsd: '1', changePercent24h: '0', volume24hUsd: '0' });
      expect(usdt?.timestamp).toEqual(new Date('2030-01-01T00:00:00.000Z'));
    });

    it('follows a configured quote asset and market exceptions', async () => {
      fake.setTicker({ symbol: 'BTCUSDC', lastPrice: '76000.00000000' });
      fake.setTicker({ symbol: 'POLUSDC', lastPrice: '0.21000000' });
      const { source } = makeSource({ quoteAsset: 'USDC', markets: { MATIC: 'POLUSDC' }, quoteAssetUsdMarket: null });

      const quotes = await source.getQuotes(['BTC', 'MATIC', 'USDC']);

      expect(quotes.get('BTC')?.priceUsd).toBe('76000');
      expect(quotes.get('MATIC')?.priceUsd).toBe('0.21');
      expect(quotes.get('USDC')?.priceUsd).toBe('1');
    });

    it('leaves out halted markets (price 0) and drops a malformed ticker without spoiling the rest', async () => {
      fake.setTicker({ symbol: 'BTCUSDT', lastPrice: '76975.01000000' });
      fake.setTicker({ symbol: 'LUNAUSDT', lastPrice: '0.00000000' });
      fake.setTicker({ symbol: 'ETHUSDT', lastPrice: '1e3' });
      const { source, log } = makeSource();

      const quotes = await source.getQuotes(['BTC', 'LUNA', 'ETH']);

      expect([...quotes.keys()]).toEqual(['BTC']);
      expect(log.messages()).toContain('dropped unreadable exchange ticker');
    });

    it('throws on HTTP 500 and is unhealthy until a call succeeds again', async () => {
      fake.setTicker({ symbol: 'BTCUSDT', lastPrice: '1.00000000' });
      fake.mode = 'server-error';
      const { source } = makeSource();

      await expect(source.getQuotes(['BTC'])).rejects.toThrow('GET /api/v3/ticker/24hr: HTTP 500');
      expect(source.health()).toMatchObject({ ok: false, lastError: 'GET /api/v3/ticker/24hr: HTTP 500' });

      fake.mode = 'ok';
      expect((await source.getQuotes(['BTC'])).get('BTC')?.priceUsd).toBe('1');
      expect(source.health().ok).toBe(true);
    });

    it('throws on a body that is not JSON', async () => {
      fake.mode = 'garbage';
      const { source } = makeSource();
      await expect(source.getQuotes(['BTC'])).rejects.toThrow(/GET \/api\/v3\/ticker\/24hr: .*JSON/);
      expect(source.health().ok).toBe(false);
    });

    it('throws when the answer takes longer than the timeout', async () => {
      fake.mode = 'slow';
      fake.slowDelayMs = 2000;
      const { source } = makeSource({ timeoutMs: 100 });
      const startedAt = Date.now();
      await expect(source.getQuotes(['BTC'])).rejects.toThrow(/GET \/api\/v3\/ticker\/24hr: .*(timeout|aborted)/i);
      expect(Date.now() - startedAt).toBeLessThan(1500);
    });

    it.each(['rate-limited', 'banned'] as const)(
      'on %s, notes Retry-After and asks nothing before it',
      async (mode) => {
        fake.setTicker({ symbol: 'BTCUSDT', lastPrice: '2.00000000' });
        fake.mode = mode;
        fake.retryAfterSeconds = 7;
        const { source, clock } = makeSource();

        const error = await source.getQuotes(['BTC']).catch((thrown: unknown) => thrown);

        expect(error).toBeInstanceOf(RateLimitedError);
        const retryAt = new Date('2030-01-01T00:00:07.000Z');
        expect((error as RateLimitedError).retryAt).toEqual(retryAt);
        expect(source.health()).toMatchObject({ ok: false, retryAt });
        expect(source.health().lastError).toContain(`HTTP ${mode === 'banned' ? 418 : 429}`);

        fake.mode = 'ok';
        clock.advance(6999);
        await expect(source.getQuotes(['BTC'])).rejects.toBeInstanceOf(RateLimitedError);
        expect(fake.requests).toHaveLength(1);

        clock.advance(1);
        expect((await source.getQuotes(['BTC'])).get('BTC')?.priceUsd).toBe('2');
        expect(fake.requests).toHaveLength(2);
        expect(source.health()).toMatchObject({ ok: true, retryAt: null });
      },
    );
  });

  describe('subscribe', () => {
    function recordingTimer() {
      const delays: number[] = [];
      // Runs each reconnect at once (on the next turn) but keeps the delay it asked for.
      const setTimer: SetTimer = (callback, delayMs) => {
        delays.push(delayMs);
        const handle = setImmediate(callback);
        return () => clearImmediate(handle);
      };
      return { delays, setTimer };
    }

    async function subscribed(symbols: string[], options: Partial<ExchangePriceSourceOptions> = {}) {
      const timer = recordingTimer();
      const made = makeSource({ setTimer: timer.setTimer, ...options });
      const quotes: PriceQuote[] = [];
      const unsubscribe = made.source.subscribe(symbols, (quote) => quotes.push(quote));
      await vi.waitFor(() => expect(fake.openStreamCount).toBe(1));
      return { ...made, ...timer, quotes, unsubscribe };
    }

    it('opens one combined stream and turns 24hrTicker events into quotes', async () => {
      const { quotes } = await subscribed(['BTC', 'eth', 'USDT']);

      expect(fake.streamConnections).toEqual(['/stream?streams=btcusdt@ticker/ethusdt@ticker/usdcusdt@ticker']);
      fake.pushTicker({
        s: 'BTCUSDT',
        c: '77000.50000000',
        P: '0.031',
        q: '987654321.00000000',
        h: '77100.00000000',
        l: '76000.00000000',
        E: 1_760_000_999_000,
      });
      fake.pushTicker({ s: 'USDCUSDT', c: '0.99990000', o: '1.00000000', h: '1.00000000', l: '0.99980000' });

      await vi.waitFor(() => expect(quotes).toHaveLength(2));
      expect(quotes[0]).toEqual({
        symbol: 'BTC',
        priceUsd: '77000.5',
        changePercent24h: '0.031',
        volume24hUsd: '987654321',
        high24hUsd: '77100',
        low24hUsd: '76000',
        marketCapUsd: null,
        timestamp: new Date(1_760_000_999_000),
        source: 'exchange',
      });
      expect(quotes[1]).toMatchObject({ symbol: 'USDT', priceUsd: '1.00010001', changePercent24h: '0.01' });
    });

    it('drops garbage messages with a log line and keeps going', async () => {
      const { quotes, log } = await subscribed(['BTC']);

      fake.pushRaw('not json at all');
      fake.pushRaw(JSON.stringify({ stream: 'btcusdt@ticker', data: { e: '24hrTicker', s: 'BTCUSDT', c: 'NaN' } }));
      fake.pushTicker({ s: 'BTCUSDT', c: '5.00000000' });

      await vi.waitFor(() => expect(quotes).toHaveLength(1));
      expect(quotes[0]?.priceUsd).toBe('5');
      expect(log.messages().filter((message) => message === 'dropped unreadable exchange stream message')).toHaveLength(
        2,
      );
    });

    it('reconnects after a dropped connection, waiting 1 s first, and starts counting afresh', async () => {
      const { quotes, delays } = await subscribed(['BTC']);

      fake.dropStreams();
      await vi.waitFor(() => expect(fake.streamConnections).toHaveLength(2));
      await vi.waitFor(() => expect(fake.openStreamCount).toBe(1));
      fake.pushTicker({ s: 'BTCUSDT', c: '6.00000000' });
      await vi.waitFor(() => expect(quotes).toHaveLength(1));

      fake.dropStreams();
      await vi.waitFor(() => expect(fake.streamConnections).toHaveLength(3));
      expect(delays).toEqual([1000, 1000]);
    });

    it('backs off 1 s doubling, gives up after 5 failed attempts and reports itself unhealthy', async () => {
      const { source, delays, log } = await subscribed(['BTC']);
      expect(source.health().ok).toBe(true);

      fake.refuseStreams = true;
      fake.dropStreams();

      await vi.waitFor(() => expect(log.messages()).toContain('max reconnection attempts reached'));
      expect(delays).toEqual([1000, 2000, 4000, 8000, 16000]);
      expect(source.health()).toMatchObject({ ok: false, lastError: 'stream: max reconnection attempts reached' });
      expect(fake.streamConnections).toHaveLength(1);
    });

    it('caps the delay at 30 s', async () => {
      const { delays, log } = await subscribed(['BTC'], { reconnect: { maxAttempts: 7 } });
      fake.refuseStreams = true;
      fake.dropStreams();
      await vi.waitFor(() => expect(log.messages()).toContain('max reconnection attempts reached'));
      expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    });

    it('is unhealthy while reconnecting and healthy again once the stream is back', async () => {
      const pending: (() => void)[] = [];
      const setTimer: SetTimer = (callback) => {
        pending.push(callback);
        return () => {};
      };
      const { source } = makeSource({ setTimer });
      source.subscribe(['BTC'], () => {});
      await vi.waitFor(() => expect(fake.openStreamCount).toBe(1));

      fake.dropStreams();
      await vi.waitFor(() => expect(pending).toHaveLength(1));
      expect(source.health().ok).toBe(false);

      pending[0]?.();
      await vi.waitFor(() => expect(source.health().ok).toBe(true));
    });

    it('closes the socket on unsubscribe and does not reconnect', async () => {
      const { unsubscribe, delays } = await subscribed(['BTC']);
      unsubscribe();
      await vi.waitFor(() => expect(fake.openStreamCount).toBe(0));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(delays).toEqual([]);
      expect(fake.streamConnections).toHaveLength(1);
    });
  });
});
