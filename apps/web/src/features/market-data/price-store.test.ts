import type { PriceUpdate, TradingPair } from '@platform/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocketServer } from './fake-web-socket.ts';
import { PriceStore } from './price-store.ts';
import { ProductSocket } from './product-socket.ts';

function update(price: string, timestamp = 1_000): PriceUpdate {
  return {
    symbol: 'BTC/USD',
    price,
    change24h: '10',
    changePercent24h: '1.5',
    volume24h: '100',
    high24h: '70000',
    low24h: '60000',
    timestamp,
  };
}

function pair(id: string, price: string | null): TradingPair {
  const [base = '', quote = ''] = id.split('_');
  return {
    id,
    base_currency: base,
    quote_currency: quote,
    symbol: `${base}/${quote}`,
    min_trade_amount: '0.0001',
    max_trade_amount: '100',
    price_precision: 2,
    quantity_precision: 8,
    trading_fee: '0.1',
    maker_fee: '0.1',
    taker_fee: '0.1',
    is_active: true,
    is_enabled_by_admin: true,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    supported_by_provider: true,
    current_price: price,
    volume_24h: '42',
    change_24h: '-2.5',
  };
}

function setup() {
  const server = new FakeWebSocketServer();
  const logger = { warn: vi.fn() };
  const socket = new ProductSocket({ url: () => 'ws://test/ws', createSocket: server.create, logger });
  const api = {
    fetchTicker: vi.fn(async () => update('65000', 5_000)),
    fetchPairs: vi.fn(async () => [pair('BTC_USD', '64000'), pair('ETH_USD', '3000'), pair('NEW_USD', null)]),
  };
  const store = new PriceStore({ socket, api, logger, now: () => 9_000, flushIntervalMs: 100 });
  return { server, socket, store, api, logger };
}

const priceMessage = (seq: number, price: string, extra: Record<string, unknown> = {}) => ({
  type: 'price_update',
  channel: 'price.BTC_USD',
  seq,
  payload: update(price, 1_000 + seq),
  ...extra,
});

describe('PriceStore (spec §4, conventions: sequence gaps)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects on the first watcher and subscribes the price channel, ref-counted', () => {
    const { server, store } = setup();
    const leaveA = store.watch('BTC_USD');
    const leaveB = store.watch('BTC_USD');
    server.latest.acceptOpen();
    expect(server.latest.sentOfType('subscribe')).toEqual([{ type: 'subscribe', channel: 'price.BTC_USD' }]);
    leaveA();
    expect(server.latest.sentOfType('unsubscribe')).toEqual([]);
    leaveB();
    expect(server.latest.sentOfType('unsubscribe')).toEqual([{ type: 'unsubscribe', channel: 'price.BTC_USD' }]);
  });

  it('applies the snapshot and in-order updates, and publishes them in batches', () => {
    const { server, store } = setup();
    const listener = vi.fn();
    store.subscribe(listener);
    store.watch('BTC_USD');
    server.latest.acceptOpen();
    server.latest.receive({ type: 'subscribed', channel: 'price.BTC_USD', seq: 6 });
    server.latest.receive(priceMessage(7, '64000.5', { snapshot: true }));
    server.latest.receive(priceMessage(8, '64001'));
    server.latest.receive(priceMessage(9, '64002'));
    expect(store.getQuote('BTC_USD')).toBeUndefined();
    vi.advanceTimersByTime(100);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getQuote('BTC_USD')).toMatchObject({ price: '64002', source: 'stream', changePercent24h: '1.5' });
  });

  it('detects a gap right after the subscription acknowledgement', () => {
    const { server, store, api } = setup();
    store.watch('BTC_USD');
    server.latest.acceptOpen();
    server.latest.receive({ type: 'subscribed', channel: 'price.BTC_USD', seq: 0 });
    server.latest.receive(priceMessage(3, '100'));
    expect(api.fetchTicker).toHaveBeenCalledTimes(1);
  });

  it('drops duplicates and late messages', () => {
    const { server, store, api } = setup();
    store.watch('BTC_USD');
    server.latest.acceptOpen();
    server.latest.receive(priceMessage(3, '100', { snapshot: true }));
    server.latest.receive(priceMessage(4, '101'));
    server.latest.receive(priceMessage(4, '999'));
    server.latest.receive(priceMessage(2, '998'));
    store.flush();
    expect(store.getQuote('BTC_USD')?.price).toBe('101');
    expect(api.fetchTicker).not.toHaveBeenCalled();
  });

  it('resyncs the market from its REST snapshot when a sequence number is skipped', async () => {
    const { server, store, api, logger } = setup();
    store.watch('BTC_USD');
    server.latest.acceptOpen();
    server.latest.receive(priceMessage(1, '100', { snapshot: true }));
    server.latest.receive(priceMessage(2, '101'));
    server.latest.receive(priceMessage(5, '104'));
    expect(api.fetchTicker).toHaveBeenCalledTimes(1);
    expect(api.fetchTicker).toHaveBeenCalledWith('BTC_USD');
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('gap'));
    await vi.advanceTimersByTimeAsync(0);
    store.flush();
    expect(store.getQuote('BTC_USD')).toMatchObject({ price: '65000', source: 'snapshot' });
    // The stream goes on from the message after the gap.
    server.latest.receive(priceMessage(6, '105'));
    store.flush();
    expect(store.getQuote('BTC_USD')?.price).toBe('105');
    expect(api.fetchTicker).toHaveBeenCalledTimes(1);
  });

  it('starts a new sequence after a resubscription', () => {
    const { server, store, api } = setup();
    store.watch('BTC_USD');
    server.latest.acceptOpen();
    server.latest.receive(priceMessage(40, '100', { snapshot: true }));
    server.latest.dropWith(1006);
    vi.advanceTimersByTime(1_000);
    server.latest.acceptOpen();
    server.latest.receive({ type: 'subscribed', channel: 'price.BTC_USD', seq: 0 });
    server.latest.receive(priceMessage(1, '99', { snapshot: true }));
    server.latest.receive(priceMessage(2, '98'));
    store.flush();
    expect(store.getQuote('BTC_USD')?.price).toBe('98');
    expect(api.fetchTicker).not.toHaveBeenCalled();
  });

  it('ignores a REST answer older than the quote it already has', () => {
    const { store } = setup();
    store.applyQuote({
      pairId: 'BTC_USD',
      price: '2',
      changePercent24h: null,
      change24h: null,
      volume24h: null,
      high24h: null,
      low24h: null,
      timestamp: 2_000,
      source: 'stream',
    });
    store.applyQuote({
      pairId: 'BTC_USD',
      price: '1',
      changePercent24h: null,
      change24h: null,
      volume24h: null,
      high24h: null,
      low24h: null,
      timestamp: 1_000,
      source: 'snapshot',
    });
    store.flush();
    expect(store.getQuote('BTC_USD')?.price).toBe('2');
  });

  it('polls the REST prices every 30 s once the socket gives up, and stops when it is back', async () => {
    const { server, socket, store, api } = setup();
    store.watch('BTC_USD');
    server.latest.dropWith(1006);
    for (const delay of [1_000, 2_000, 4_000, 8_000, 16_000]) {
      vi.advanceTimersByTime(delay);
      server.latest.dropWith(1006);
    }
    expect(socket.status).toBe('failed');
    expect(store.isPolling).toBe(true);
    expect(api.fetchPairs).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    store.flush();
    expect(store.getQuote('BTC_USD')).toMatchObject({ price: '64000', source: 'poll', changePercent24h: '-2.5' });
    expect(store.getQuote('NEW_USD')).toBeUndefined();

    await vi.advanceTimersByTimeAsync(29_999);
    expect(api.fetchPairs).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.fetchPairs).toHaveBeenCalledTimes(2);

    socket.reconnect();
    server.latest.acceptOpen();
    expect(store.isPolling).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.fetchPairs).toHaveBeenCalledTimes(2);
  });

  it('keeps the old quotes when a poll fails', async () => {
    const { store, api, logger } = setup();
    api.fetchPairs.mockRejectedValueOnce(new Error('offline'));
    await store.pollOnce();
    expect(logger.warn).toHaveBeenCalledWith('Price polling failed', expect.any(Error));
    store.flush();
    expect(store.getQuotes().size).toBe(0);
  });
});
