import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocketServer } from './fake-web-socket.ts';
import { ProductSocket, reconnectDelayMs, sameOriginSocketUrl } from './product-socket.ts';

function setup() {
  const server = new FakeWebSocketServer();
  const logger = { warn: vi.fn() };
  const socket = new ProductSocket({ url: () => 'ws://test/ws', createSocket: server.create, logger });
  const statuses: string[] = [];
  socket.onStatus((status) => statuses.push(status));
  return { server, socket, logger, statuses };
}

describe('ProductSocket (spec §4, §7.6)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects to the same origin with ws or wss', () => {
    expect(sameOriginSocketUrl({ protocol: 'http:', host: 'example.com:8080' })).toBe('ws://example.com:8080/ws');
    expect(sameOriginSocketUrl({ protocol: 'https:', host: 'example.com' })).toBe('wss://example.com/ws');
  });

  it('backs off from 1 s doubling, capped at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => reconnectDelayMs(attempt, 1_000, 30_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('reconnects after an abnormal close with doubling delays and gives up after 5 attempts', () => {
    const { server, socket, statuses } = setup();
    socket.connect();
    expect(server.sockets).toHaveLength(1);
    server.latest.dropWith(1006);

    for (const delay of [1_000, 2_000, 4_000, 8_000, 16_000]) {
      const before = server.sockets.length;
      vi.advanceTimersByTime(delay - 1);
      expect(server.sockets).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(server.sockets).toHaveLength(before + 1);
      server.latest.dropWith(1006);
    }

    expect(socket.status).toBe('failed');
    vi.advanceTimersByTime(120_000);
    expect(server.sockets).toHaveLength(6);
    expect(statuses.at(-1)).toBe('failed');
  });

  it('does not reconnect after a normal close (1000)', () => {
    const { server, socket } = setup();
    socket.connect();
    server.latest.acceptOpen();
    server.latest.dropWith(1000);
    vi.advanceTimersByTime(60_000);
    expect(server.sockets).toHaveLength(1);
    expect(socket.status).toBe('closed');
  });

  it('starts counting afresh after a successful open', () => {
    const { server, socket } = setup();
    socket.connect();
    server.latest.dropWith(1006);
    vi.advanceTimersByTime(1_000);
    server.latest.dropWith(1006);
    vi.advanceTimersByTime(2_000);
    server.latest.acceptOpen();
    expect(socket.reconnectAttempts).toBe(0);
    server.latest.dropWith(1011);
    vi.advanceTimersByTime(1_000);
    expect(server.sockets).toHaveLength(4);
  });

  it('resets the counters on a manual reconnect, even after giving up', () => {
    const { server, socket } = setup();
    socket.connect();
    server.latest.dropWith(1006);
    for (const delay of [1_000, 2_000, 4_000, 8_000, 16_000]) {
      vi.advanceTimersByTime(delay);
      server.latest.dropWith(1006);
    }
    expect(socket.status).toBe('failed');
    socket.connect();
    expect(server.sockets).toHaveLength(6);

    socket.reconnect();
    expect(server.sockets).toHaveLength(7);
    expect(socket.reconnectAttempts).toBe(0);
    server.latest.dropWith(1006);
    vi.advanceTimersByTime(1_000);
    expect(server.sockets).toHaveLength(8);
  });

  it('sends subscribe for the first listener of a channel and unsubscribe after the last', () => {
    const { server, socket } = setup();
    socket.connect();
    server.latest.acceptOpen();
    const leaveA = socket.subscribe('price.BTC_USD', () => {});
    const leaveB = socket.subscribe('price.BTC_USD', () => {});
    const listener = () => {};
    const leaveC = socket.subscribe('price.ETH_USD', listener);
    const leaveD = socket.subscribe('price.ETH_USD', listener);
    expect(server.latest.sentOfType('subscribe')).toEqual([
      { type: 'subscribe', channel: 'price.BTC_USD' },
      { type: 'subscribe', channel: 'price.ETH_USD' },
    ]);

    leaveA();
    leaveA();
    expect(server.latest.sentOfType('unsubscribe')).toEqual([]);
    leaveB();
    expect(server.latest.sentOfType('unsubscribe')).toEqual([{ type: 'unsubscribe', channel: 'price.BTC_USD' }]);
    leaveC();
    expect(server.latest.sentOfType('unsubscribe')).toHaveLength(1);
    leaveD();
    expect(server.latest.sentOfType('unsubscribe')).toHaveLength(2);
    expect(socket.subscribedChannels).toEqual([]);
  });

  it('subscribes channels joined before the connection opened, once it opens', () => {
    const { server, socket } = setup();
    socket.subscribe('price.BTC_USD', () => {});
    socket.connect();
    expect(server.latest.sent).toEqual([]);
    server.latest.acceptOpen();
    expect(server.latest.sentOfType('subscribe')).toEqual([{ type: 'subscribe', channel: 'price.BTC_USD' }]);
  });

  it('resubscribes its channels after a reconnect', () => {
    const { server, socket } = setup();
    socket.connect();
    server.latest.acceptOpen();
    socket.subscribe('price.BTC_USD', () => {});
    socket.subscribe('price.SOL_USD', () => {});
    const leave = socket.subscribe('price.ETH_USD', () => {});
    leave();
    server.latest.dropWith(1006);
    vi.advanceTimersByTime(1_000);
    server.latest.acceptOpen();
    expect(server.latest.sentOfType('subscribe')).toEqual([
      { type: 'subscribe', channel: 'price.BTC_USD' },
      { type: 'subscribe', channel: 'price.SOL_USD' },
    ]);
  });

  it('proves the account first thing after every open, and again with a refreshed token', () => {
    const { server, socket } = setup();
    socket.authenticate('token-1');
    socket.subscribe('balances', () => {});
    socket.connect();
    server.latest.acceptOpen();
    expect(server.latest.sent.slice(0, 2)).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'subscribe', channel: 'balances' },
    ]);
    socket.authenticate('token-2');
    expect(server.latest.sentOfType('auth')).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'auth', token: 'token-2' },
    ]);
    server.latest.dropWith(1006);
    vi.advanceTimersByTime(1_000);
    server.latest.acceptOpen();
    expect(server.latest.sent[0]).toEqual({ type: 'auth', token: 'token-2' });
  });

  it('subscribes the user channels again once a refreshed token is accepted after they expired', () => {
    const { server, socket } = setup();
    socket.authenticate('token-1');
    socket.subscribe('orders', () => {});
    socket.subscribe('price.BTC_USD', () => {});
    socket.connect();
    server.latest.acceptOpen();
    // The token expired: the server ends the user channel (then says UNAUTHORIZED).
    server.latest.receive({ type: 'unsubscribed', channel: 'orders' });
    socket.authenticate('token-2');
    expect(server.latest.sentOfType('subscribe')).toHaveLength(2);
    server.latest.receive({ type: 'authenticated', account_id: '3f1c2b9e-8d4a-4c1e-9b7a-2e5d6f8a9b0c' });
    expect(server.latest.sentOfType('subscribe')).toEqual([
      { type: 'subscribe', channel: 'orders' },
      { type: 'subscribe', channel: 'price.BTC_USD' },
      { type: 'subscribe', channel: 'orders' },
    ]);
  });

  it('reopens a fresh, anonymous connection on logout', () => {
    const { server, socket } = setup();
    socket.authenticate('token-1');
    socket.connect();
    server.latest.acceptOpen();
    const first = server.latest;
    socket.authenticate(null);
    expect(first.closedWith).toBe(1000);
    expect(server.sockets).toHaveLength(2);
    server.latest.acceptOpen();
    expect(server.latest.sentOfType('auth')).toEqual([]);
  });

  it('hands balance updates to the balances channel listeners', () => {
    const { server, socket } = setup();
    const seen: unknown[] = [];
    socket.authenticate('token-1');
    socket.subscribe('balances', (message) => seen.push(message.type));
    socket.connect();
    server.latest.acceptOpen();
    server.latest.receive({
      type: 'balance_update',
      channel: 'balances',
      seq: 1,
      payload: { currency: 'BTC', available: '1', locked: '0', timestamp: 1 },
    });
    expect(seen).toEqual(['balance_update']);
  });

  it('closes with 1000 and clears subscriptions on a manual disconnect', () => {
    const { server, socket } = setup();
    socket.connect();
    server.latest.acceptOpen();
    socket.subscribe('price.BTC_USD', () => {});
    const first = server.latest;
    socket.disconnect();
    expect(first.closedWith).toBe(1000);
    expect(socket.subscribedChannels).toEqual([]);
    expect(socket.status).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(server.sockets).toHaveLength(1);
    socket.connect();
    server.latest.acceptOpen();
    expect(server.latest.sentOfType('subscribe')).toEqual([]);
  });

  it('only warns when sending while disconnected, and does not queue the message', () => {
    const { server, socket, logger } = setup();
    expect(socket.send({ type: 'ping' })).toBe(false);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    socket.connect();
    expect(socket.send({ type: 'ping' })).toBe(false);
    server.latest.acceptOpen();
    expect(server.latest.sent).toEqual([]);
  });

  it('pings every 30 s while open', () => {
    const { server, socket } = setup();
    socket.connect();
    server.latest.acceptOpen();
    vi.advanceTimersByTime(29_999);
    expect(server.latest.sentOfType('ping')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(server.latest.sentOfType('ping')).toHaveLength(1);
    vi.advanceTimersByTime(60_000);
    expect(server.latest.sentOfType('ping')).toHaveLength(3);
    server.latest.dropWith(1000);
    vi.advanceTimersByTime(60_000);
    expect(server.latest.sentOfType('ping')).toHaveLength(3);
  });

  it('checks every message at runtime and hands valid ones to the channel listeners', () => {
    const { server, socket, logger } = setup();
    const onBtc = vi.fn();
    const onAny = vi.fn();
    socket.subscribe('price.BTC_USD', onBtc);
    socket.onMessage(onAny);
    socket.connect();
    server.latest.acceptOpen();
    server.latest.receive('not json');
    server.latest.receive({ type: 'price_update', channel: 'price.BTC_USD', seq: 1, payload: { price: 12 } });
    server.latest.receive({ type: 'mystery' });
    expect(onAny).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledTimes(3);

    server.latest.receive({ type: 'welcome', version: 1 });
    server.latest.receive({ type: 'subscribed', channel: 'price.BTC_USD', seq: 0 });
    server.latest.receive({ type: 'subscribed', channel: 'price.ETH_USD', seq: 0 });
    expect(onAny).toHaveBeenCalledTimes(3);
    expect(onBtc).toHaveBeenCalledTimes(1);
  });
});
