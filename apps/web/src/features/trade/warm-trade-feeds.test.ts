import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch-mock.ts';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../market-data/testing.ts';
import { WARM_HOLD_MS, warmTradeFeeds } from './warm-trade-feeds.ts';

const args = (url: string) => ({ request: new Request(url), params: {}, context: undefined }) as never;

describe('/trade route loader: the feeds start before the page renders', () => {
  afterEach(() => {
    vi.useRealTimers();
    replaceMarketData(null);
  });

  it('subscribes the address’s pair’s book and trades and asks for the book at once, then lets go', async () => {
    vi.useFakeTimers();
    const server = new FakeWebSocketServer();
    replaceMarketData(createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' }));
    const { calls } = stubFetch({
      'GET /v1/orderbook/ETH_USD': () => new Promise<Response>(() => {}),
      'GET /v1/market/ETH_USD/trades': () => new Promise<Response>(() => {}),
    });

    expect(warmTradeFeeds(args('http://localhost/trade?pair=ETH/USD&action=sell'))).toBeNull();
    server.latest.acceptOpen();
    const channels = () =>
      server.latest.sentOfType('subscribe').map((message) => (message as { channel: string }).channel);
    expect(channels()).toEqual(expect.arrayContaining(['orderbook.ETH_USD', 'trades.ETH_USD']));
    expect(calls.some((call) => call.path === '/v1/orderbook/ETH_USD')).toBe(true);

    await vi.advanceTimersByTimeAsync(WARM_HOLD_MS);
    const left = server.latest.sentOfType('unsubscribe').map((message) => (message as { channel: string }).channel);
    expect(left).toEqual(expect.arrayContaining(['orderbook.ETH_USD', 'trades.ETH_USD']));
  });

  it('falls back to BTC/USD without a pair in the address', () => {
    const server = new FakeWebSocketServer();
    replaceMarketData(createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' }));
    stubFetch({
      'GET /v1/orderbook/BTC_USD': () => new Promise<Response>(() => {}),
      'GET /v1/market/BTC_USD/trades': () => new Promise<Response>(() => {}),
    });
    warmTradeFeeds(args('http://localhost/trade'));
    server.latest.acceptOpen();
    expect(server.latest.sentOfType('subscribe')).toContainEqual({ type: 'subscribe', channel: 'orderbook.BTC_USD' });
  });
});
