import type { Trade } from '@platform/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocketServer } from './fake-web-socket.ts';
import { ProductSocket } from './product-socket.ts';
import { mergeTrades, prependTrade, TradeTape } from './trade-tape.ts';

function trade(id: string, timestamp: number, price = '100.00', side: 'buy' | 'sell' = 'buy'): Trade {
  return { id, trading_pair: 'BTC_USD', symbol: 'BTC/USD', price, quantity: '0.5', total: '50.00', side, timestamp };
}

const ids = (trades: readonly Trade[]) => trades.map((one) => one.id);

describe('trade tape merging', () => {
  it('puts a live trade in front and ignores one already shown', () => {
    const tape = [trade('b', 2), trade('a', 1)];
    const next = prependTrade(tape, trade('c', 3), 10);
    expect(ids(next)).toEqual(['c', 'b', 'a']);
    expect(prependTrade(next, trade('b', 2), 10)).toBe(next);
  });

  it('keeps at most the cap, dropping the oldest', () => {
    let tape: readonly Trade[] = [];
    for (let index = 1; index <= 8; index++) tape = prependTrade(tape, trade(`t${index}`, index), 5);
    expect(ids(tape)).toEqual(['t8', 't7', 't6', 't5', 't4']);
  });

  it('merges the HTTP list with live trades once each, newest first', () => {
    const live = [trade('d', 40), trade('c', 30)];
    const http = [trade('c', 30), trade('b', 20), trade('a', 10)];
    expect(ids(mergeTrades(live, http, 10))).toEqual(['d', 'c', 'b', 'a']);
    expect(ids(mergeTrades(live, http, 3))).toEqual(['d', 'c', 'b']);
  });

  it('places a late trade by its time', () => {
    expect(ids(prependTrade([trade('c', 30), trade('a', 10)], trade('b', 20), 10))).toEqual(['c', 'b', 'a']);
  });
});

describe('TradeTape on the socket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(fetchTrades: (pairId: string, limit: number) => Promise<Trade[]>) {
    const server = new FakeWebSocketServer();
    const logger = { warn: vi.fn() };
    const socket = new ProductSocket({ url: () => 'ws://test/ws', createSocket: server.create, logger });
    const frames: Array<() => void> = [];
    const tape = new TradeTape({
      pairId: 'BTC_USD',
      socket,
      fetchTrades,
      capacity: 3,
      logger,
      schedule: (callback) => {
        frames.push(callback);
        return () => {};
      },
    });
    const frame = () => {
      for (const callback of frames.splice(0)) callback();
    };
    return { server, tape, frame, logger };
  }

  const tradeMessage = (seq: number, one: Trade) => ({
    type: 'trade_update',
    channel: 'trades.BTC_USD',
    seq,
    payload: one,
  });

  it('seeds over HTTP, prepends live trades without duplicates, and caps the list', async () => {
    const fetchTrades = vi.fn(async () => [trade('b', 20), trade('a', 10)]);
    const { server, tape, frame } = setup(fetchTrades);
    tape.retain();
    expect(fetchTrades).toHaveBeenCalledWith('BTC_USD', 3);
    await vi.waitFor(() => expect(fetchTrades).toHaveBeenCalled());
    await Promise.resolve();
    server.latest.acceptOpen();
    server.latest.receive({ type: 'subscribed', channel: 'trades.BTC_USD', seq: 0 });
    server.latest.receive(tradeMessage(1, trade('c', 30)));
    server.latest.receive(tradeMessage(2, trade('c', 30)));
    server.latest.receive(tradeMessage(3, trade('d', 40)));
    frame();
    expect(tape.getPicture().status).toBe('ready');
    expect(ids(tape.getPicture().trades)).toEqual(['d', 'c', 'b']);
  });

  it('reloads the HTTP list when the channel sequence jumps', async () => {
    const fetchTrades = vi
      .fn<(pairId: string, limit: number) => Promise<Trade[]>>()
      .mockResolvedValueOnce([])
      .mockResolvedValueOnce([trade('e', 50), trade('missed', 45)]);
    const { server, tape, frame, logger } = setup(fetchTrades);
    tape.retain();
    await vi.waitFor(() => expect(fetchTrades).toHaveBeenCalledTimes(1));
    server.latest.acceptOpen();
    server.latest.receive({ type: 'subscribed', channel: 'trades.BTC_USD', seq: 0 });
    server.latest.receive(tradeMessage(1, trade('c', 30)));
    server.latest.receive(tradeMessage(3, trade('e', 50)));
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('gap'));
    await vi.waitFor(() => expect(fetchTrades).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => {
      frame();
      expect(ids(tape.getPicture().trades)).toEqual(['e', 'missed', 'c']);
    });
  });
});
