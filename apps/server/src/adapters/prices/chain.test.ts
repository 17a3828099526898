import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PriceSourceChain } from './chain.ts';
import { ExchangePriceSource } from './exchange.ts';
import { FakeBinance } from './fakes/fake-binance.ts';
import { FakeCoinGecko } from './fakes/fake-coingecko.ts';
import { manualClock, recordingLogger } from './fakes/recording-logger.ts';
import { MarketDataPriceSource } from './market-data.ts';
import type { PriceQuote, PriceSource, PriceSourceHealth } from './types.ts';

function quote(symbol: string, source: string, priceUsd = '1'): PriceQuote {
  return {
    symbol,
    priceUsd,
    changePercent24h: '0',
    volume24hUsd: '0',
    high24hUsd: null,
    low24hUsd: null,
    marketCapUsd: null,
    timestamp: new Date('2030-01-01T00:00:00.000Z'),
    source,
  };
}

/** An in-memory source: prices a fixed set of symbols, can be made to fail, and can stream. */
class StubSource implements PriceSource {
  readonly asked: string[][] = [];
  failure: Error | null = null;
  ok = true;
  #listener: ((quote: PriceQuote) => void) | null = null;

  constructor(
    readonly name: string,
    readonly knows: string[],
  ) {}

  async getQuotes(symbols: readonly string[]): Promise<Map<string, PriceQuote>> {
    this.asked.push([...symbols]);
    if (this.failure !== null) throw this.failure;
    return new Map(
      symbols.filter((symbol) => this.knows.includes(symbol)).map((symbol) => [symbol, quote(symbol, this.name)]),
    );
  }

  subscribe(_symbols: readonly string[], onQuote: (quote: PriceQuote) => void): () => void {
    this.#listener = onQuote;
    return () => {
      this.#listener = null;
    };
  }

  emit(symbol: string, priceUsd: string): void {
    this.#listener?.(quote(symbol, this.name, priceUsd));
  }

  get subscribed(): boolean {
    return this.#listener !== null;
  }

  health(): PriceSourceHealth {
    return { name: this.name, ok: this.ok, lastError: this.ok ? null : 'down', lastSuccessAt: null };
  }
}

function sourcesOf(quotes: Map<string, PriceQuote>): Record<string, string> {
  return Object.fromEntries([...quotes].map(([symbol, each]) => [symbol, each.source]));
}

describe('PriceSourceChain', () => {
  function makeChain(sources: PriceSource[]) {
    const clock = manualClock();
    const log = recordingLogger();
    return { chain: new PriceSourceChain({ sources, logger: log.logger, now: clock.now }), clock, log };
  }

  describe('getQuotes', () => {
    it('asks each next source only for the symbols still missing, and keeps every quote’s source', async () => {
      const exchange = new StubSource('exchange', ['BTC', 'ETH']);
      const provider = new StubSource('provider', ['BTC', 'ETH', 'SOL']);
      const simulator = new StubSource('simulator', ['BTC', 'ETH', 'SOL', 'XYZ']);
      const { chain } = makeChain([exchange, provider, simulator]);

      const quotes = await chain.getQuotes(['btc', 'ETH', 'SOL', 'XYZ', 'NONE']);

      expect(sourcesOf(quotes)).toEqual({ BTC: 'exchange', ETH: 'exchange', SOL: 'provider', XYZ: 'simulator' });
      expect(exchange.asked).toEqual([['BTC', 'ETH', 'SOL', 'XYZ', 'NONE']]);
      expect(provider.asked).toEqual([['SOL', 'XYZ', 'NONE']]);
      expect(simulator.asked).toEqual([['XYZ', 'NONE']]);
    });

    it('stops asking once every symbol is priced', async () => {
      const exchange = new StubSource('exchange', ['BTC']);
      const simulator = new StubSource('simulator', ['BTC']);
      const { chain } = makeChain([exchange, simulator]);
      await chain.getQuotes(['BTC']);
      expect(simulator.asked).toEqual([]);
    });

    it('asks the next source for everything when one throws, and the failed one again next time', async () => {
      const exchange = new StubSource('exchange', ['BTC', 'ETH']);
      const simulator = new StubSource('simulator', ['BTC', 'ETH']);
      const { chain, log } = makeChain([exchange, simulator]);
      exchange.failure = new Error('HTTP 500');

      expect(sourcesOf(await chain.getQuotes(['BTC', 'ETH']))).toEqual({ BTC: 'simulator', ETH: 'simulator' });
      expect(log.messages()).toContain('price source failed; asking the next one');

      exchange.failure = null;
      expect(sourcesOf(await chain.getQuotes(['BTC', 'ETH']))).toEqual({ BTC: 'exchange', ETH: 'exchange' });
      expect(exchange.asked).toHaveLength(2);
    });

    it('reports each source’s health', async () => {
      const exchange = new StubSource('exchange', []);
      const simulator = new StubSource('simulator', []);
      exchange.ok = false;
      const { chain } = makeChain([exchange, simulator]);

      expect(chain.health()).toMatchObject({
        name: 'chain',
        ok: true,
        lastError: 'down',
        sources: [
          { name: 'exchange', ok: false },
          { name: 'simulator', ok: true },
        ],
      });
    });
  });

  describe('against the fakes', () => {
    let binance: FakeBinance;
    let coinGecko: FakeCoinGecko;
    let exchange: ExchangePriceSource;
    let marketData: MarketDataPriceSource;
    let simulator: StubSource;
    let clock: ReturnType<typeof manualClock>;
    let chain: PriceSourceChain;

    beforeEach(async () => {
      binance = new FakeBinance();
      coinGecko = new FakeCoinGecko();
      const binanceUrls = await binance.start();
      const { baseUrl } = await coinGecko.start();
      binance.setTicker({ symbol: 'BTCUSDT', lastPrice: '76975.01000000' });
      coinGecko.prices.set('bitcoin', { usd: 76900 });
      coinGecko.prices.set('solana', { usd: 150.25 });
      clock = manualClock();
      const { logger } = recordingLogger();
      exchange = new ExchangePriceSource({ ...binanceUrls, logger, now: clock.now });
      marketData = new MarketDataPriceSource({
        baseUrl,
        logger,
        now: clock.now,
        coinIds: { BTC: 'bitcoin', SOL: 'solana' },
      });
      simulator = new StubSource('simulator', ['BTC', 'SOL', 'XYZ']);
      chain = new PriceSourceChain({ sources: [exchange, marketData, simulator], logger, now: clock.now });
    });
    afterEach(async () => {
      await chain.close();
      await binance.stop();
      await coinGecko.stop();
    });

    it('mixes sources by coverage: exchange, then market data, then the simulator', async () => {
      const quotes = await chain.getQuotes(['BTC', 'SOL', 'XYZ']);
      expect(sourcesOf(quotes)).toEqual({ BTC: 'exchange', SOL: 'market-data', XYZ: 'simulator' });
      expect(quotes.get('BTC')?.priceUsd).toBe('76975.01');
      expect(quotes.get('SOL')?.priceUsd).toBe('150.25');
      expect(coinGecko.priceRequestIds).toEqual([['solana']]);
    });

    it('falls back to market data while the exchange is down, and returns to it on recovery', async () => {
      binance.mode = 'server-error';
      expect(sourcesOf(await chain.getQuotes(['BTC']))).toEqual({ BTC: 'market-data' });
      expect(chain.health().sources.map((each) => each.ok)).toEqual([false, true, true]);

      binance.mode = 'ok';
      expect(sourcesOf(await chain.getQuotes(['BTC']))).toEqual({ BTC: 'exchange' });
      expect(chain.health().sources.map((each) => each.ok)).toEqual([true, true, true]);
    });

    it('skips a rate-limited exchange until its Retry-After has passed', async () => {
      binance.mode = 'rate-limited';
      binance.retryAfterSeconds = 30;
      expect(sourcesOf(await chain.getQuotes(['BTC']))).toEqual({ BTC: 'market-data' });
      binance.mode = 'ok';

      clock.advance(29_000);
      expect(sourcesOf(await chain.getQuotes(['BTC']))).toEqual({ BTC: 'market-data' });
      expect(binance.requests).toHaveLength(1);

      clock.advance(1_000);
      expect(sourcesOf(await chain.getQuotes(['BTC']))).toEqual({ BTC: 'exchange' });
      expect(binance.requests).toHaveLength(2);
    });

    it('falls through to the simulator when both remote services fail', async () => {
      binance.mode = 'garbage';
      coinGecko.mode = 'server-error';
      expect(sourcesOf(await chain.getQuotes(['BTC', 'SOL']))).toEqual({ BTC: 'simulator', SOL: 'simulator' });
    });
  });

  describe('subscribe', () => {
    function streaming() {
      const exchange = new StubSource('exchange', []);
      const simulator = new StubSource('simulator', []);
      const made = makeChain([exchange, simulator, new MarketDataPriceSourceWithoutStream()]);
      const received: string[] = [];
      const unsubscribe = made.chain.subscribe(['BTC', 'ETH'], (each) =>
        received.push(`${each.source}:${each.symbol}:${each.priceUsd}`),
      );
      return { ...made, exchange, simulator, received, unsubscribe };
    }

    it('forwards a symbol only from the highest-priority live source', async () => {
      const { exchange, simulator, received } = streaming();

      simulator.emit('BTC', '1');
      exchange.emit('BTC', '2');
      simulator.emit('BTC', '3');
      simulator.emit('ETH', '4');

      expect(received).toEqual(['simulator:BTC:1', 'exchange:BTC:2', 'simulator:ETH:4']);
    });

    it('lets a lower source through while a higher one is unhealthy, and stops it on recovery', async () => {
      const { exchange, simulator, received } = streaming();
      exchange.emit('BTC', '2');
      exchange.ok = false;
      simulator.emit('BTC', '3');
      exchange.ok = true;
      exchange.emit('BTC', '4');
      simulator.emit('BTC', '5');

      expect(received).toEqual(['exchange:BTC:2', 'simulator:BTC:3', 'exchange:BTC:4']);
    });

    it('lets a lower source through when the higher one has gone quiet for a symbol', async () => {
      const { exchange, simulator, received, clock } = streaming();
      exchange.emit('BTC', '2');
      clock.advance(9_999);
      simulator.emit('BTC', '3');
      clock.advance(1);
      simulator.emit('BTC', '4');

      expect(received).toEqual(['exchange:BTC:2', 'simulator:BTC:4']);
    });

    it('unsubscribes from every source', async () => {
      const { exchange, simulator, unsubscribe } = streaming();
      expect(exchange.subscribed && simulator.subscribed).toBe(true);
      unsubscribe();
      expect(exchange.subscribed || simulator.subscribed).toBe(false);
    });
  });
});

/** A source that does not stream: the chain must subscribe around it. */
class MarketDataPriceSourceWithoutStream implements PriceSource {
  readonly name = 'market-data';
  async getQuotes(): Promise<Map<string, PriceQuote>> {
    return new Map();
  }
  health(): PriceSourceHealth {
    return { name: this.name, ok: true, lastError: null, lastSuccessAt: null };
  }
}
