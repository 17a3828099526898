import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBinance } from '../../adapters/prices/fakes/fake-binance.ts';
import { FakeCoinGecko } from '../../adapters/prices/fakes/fake-coingecko.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

/**
 * The whole server pointed at local fakes of the public exchange and the market-data service:
 * prices follow them, and when they fail the chain falls back in the spec §7.8 order.
 */
describe('live price sources through the whole server', () => {
  const exchange = new FakeBinance();
  const marketData = new FakeCoinGecko();
  let server: TestServer;

  const statistics = async (pair: string) => {
    const response = await server.request('GET', `/v1/market/${pair}/statistics`);
    expect(response.status).toBe(200);
    return response.body as { price: string; source: string };
  };
  const waitFor = async (pair: string, expected: { price?: string; source: string }, timeoutMs = 8_000) => {
    const deadline = Date.now() + timeoutMs;
    let last: { price: string; source: string } | undefined;
    while (Date.now() < deadline) {
      last = await statistics(pair);
      if (last.source === expected.source && (expected.price === undefined || last.price === expected.price))
        return last;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${pair} did not reach ${JSON.stringify(expected)}; last ${JSON.stringify(last)}`);
  };

  beforeAll(async () => {
    exchange.setTicker({ symbol: 'BTCUSDT', lastPrice: '50000.00', priceChangePercent: '1.500' });
    exchange.setTicker({ symbol: 'ETHUSDT', lastPrice: '2500.00' });
    exchange.setTicker({ symbol: 'USDCUSDT', lastPrice: '1.0000' });
    marketData.prices.set('solana', { usd: 123.45, usd_24h_change: -2.5, usd_24h_vol: 1_000_000 });
    const exchangeUrls = await exchange.start();
    const marketDataUrls = await marketData.start();
    server = await startTestServer('pglite', {
      PRICE_SOURCES: 'exchange,market-data',
      EXCHANGE_REST_URL: exchangeUrls.baseUrl,
      EXCHANGE_WS_URL: exchangeUrls.wsUrl,
      MARKET_DATA_URL: marketDataUrls.baseUrl,
      PRICE_POLL_INTERVAL_MS: '300',
    });
  });
  afterAll(async () => {
    await server?.close();
    await exchange.stop();
    await marketData.stop();
  });

  it('takes each price from the first source that has it', async () => {
    await waitFor('BTC_USD', { price: '50000.00', source: 'exchange' });
    await waitFor('ETH_USD', { price: '2500.00', source: 'exchange' });
    await waitFor('SOL_USD', { price: '123.450', source: 'market-data' });
    // A coin neither live source knows comes from the built-in simulator.
    const pepe = await statistics('PEPE_USD');
    expect(pepe.source).toBe('simulator');
    const health = await server.request('GET', '/health');
    expect(health.body.prices).toBe('live');
  });

  it('follows the exchange stream as it ticks', async () => {
    await expect.poll(() => exchange.openStreamCount, { timeout: 8_000 }).toBeGreaterThan(0);
    exchange.pushTicker({ s: 'BTCUSDT', c: '51234.50' });
    await waitFor('BTC_USD', { price: '51234.50', source: 'exchange' });
  });

  it('falls back to the market-data service, then to the simulator, when the sources fail', async () => {
    marketData.prices.set('bitcoin', { usd: 48000, usd_24h_change: 0.5 });
    exchange.mode = 'server-error';
    exchange.refuseStreams = true;
    exchange.dropStreams();
    await waitFor('BTC_USD', { price: '48000.00', source: 'market-data' });

    marketData.mode = 'server-error';
    // Cached market data may stand in for a while; past its limit the simulator takes over.
    server.clock.advance(10 * 60_000);
    await waitFor('BTC_USD', { source: 'simulator' });
  });
});
