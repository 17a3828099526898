import type { OrderBookView } from '@platform/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocketServer } from './fake-web-socket.ts';
import { OrderBookFeed } from './order-book-feed.ts';
import { ProductSocket } from './product-socket.ts';

const CHANNEL = 'orderbook.BTC_USD';

/** A frame scheduler the test runs by hand: nothing reaches React until `frame()`. */
function manualFrames() {
  const pending: Array<() => void> = [];
  return {
    schedule: (callback: () => void) => {
      pending.push(callback);
      return () => {
        const index = pending.indexOf(callback);
        if (index !== -1) pending.splice(index, 1);
      };
    },
    frame: () => {
      for (const callback of pending.splice(0)) callback();
    },
    get waiting() {
      return pending.length;
    },
  };
}

function bookMessage(
  seq: number,
  kind: 'snapshot' | 'delta',
  prev: number,
  sequence: number,
  bids: [string, string][],
  asks: [string, string][],
) {
  return {
    type: 'orderbook_update',
    channel: CHANNEL,
    seq,
    ...(kind === 'snapshot' ? { snapshot: true } : {}),
    payload: { trading_pair: 'BTC_USD', kind, sequence, prev_sequence: prev, bids, asks, timestamp: 1_700_000_000_000 },
  };
}

function httpBook(sequence: number, bids: [string, string][], asks: [string, string][]): OrderBookView {
  return { trading_pair: 'BTC_USD', symbol: 'BTC/USD', sequence, bids, asks, timestamp: 1_700_000_000_000 };
}

type FetchSnapshot = (pairId: string, depth: number) => Promise<OrderBookView>;

function setup(fetchSnapshot: FetchSnapshot = async () => httpBook(5, [['99.00', '1']], [['101.00', '1']])) {
  const server = new FakeWebSocketServer();
  const logger = { warn: vi.fn() };
  const socket = new ProductSocket({ url: () => 'ws://test/ws', createSocket: server.create, logger });
  const frames = manualFrames();
  const feed = new OrderBookFeed({ pairId: 'BTC_USD', socket, fetchSnapshot, schedule: frames.schedule, logger });
  const renders = vi.fn();
  feed.subscribe(renders);
  return { server, socket, frames, feed, renders, fetchSnapshot, logger };
}

const bidPrices = (feed: OrderBookFeed) => feed.getPicture().bids.map((level) => `${level.price}@${level.quantity}`);
const subscribesSent = (server: FakeWebSocketServer) =>
  server.latest.sentOfType('subscribe').filter((message) => (message as { channel: string }).channel === CHANNEL);

describe('OrderBookFeed', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('seeds from HTTP, then the socket snapshot takes over and its deltas follow', async () => {
    const { server, feed, frames } = setup();
    const release = feed.retain();
    expect(feed.getPicture().status).toBe('loading');
    await vi.waitFor(() => expect(frames.waiting).toBe(1));
    frames.frame();
    expect(feed.getPicture()).toMatchObject({ status: 'ready', sequence: 5, live: false });
    expect(bidPrices(feed)).toEqual(['99.00@1']);

    server.latest.acceptOpen();
    expect(subscribesSent(server)).toHaveLength(1);
    server.latest.receive({ type: 'subscribed', channel: CHANNEL, seq: 0 });
    server.latest.receive(
      bookMessage(
        1,
        'snapshot',
        7,
        7,
        [
          ['100.00', '2'],
          ['99.50', '1'],
        ],
        [['100.50', '3']],
      ),
    );
    server.latest.receive(
      bookMessage(
        2,
        'delta',
        7,
        9,
        [
          ['100.00', '0'],
          ['99.75', '0.5'],
        ],
        [],
      ),
    );
    frames.frame();
    expect(feed.getPicture()).toMatchObject({ sequence: 9, live: true });
    expect(bidPrices(feed)).toEqual(['99.75@0.5', '99.50@1']);
    release();
  });

  it('coalesces 20 deltas into one published picture per frame', async () => {
    const { server, feed, frames, renders } = setup(vi.fn(() => new Promise<OrderBookView>(() => {})));
    feed.retain();
    server.latest.acceptOpen();
    server.latest.receive(bookMessage(1, 'snapshot', 100, 100, [['100', '1']], [['101', '1']]));
    for (let index = 1; index <= 20; index++) {
      server.latest.receive(bookMessage(1 + index, 'delta', 99 + index, 100 + index, [['100', String(index)]], []));
    }
    expect(renders).not.toHaveBeenCalled();
    expect(feed.getPicture().sequence).toBeNull();
    frames.frame();
    expect(renders).toHaveBeenCalledTimes(1);
    expect(feed.getPicture().sequence).toBe(120);
    expect(bidPrices(feed)).toEqual(['100@20']);
  });

  it('on a sequence gap subscribes again for a fresh snapshot and resumes from it', async () => {
    const { server, feed, frames, logger } = setup(vi.fn(() => new Promise<OrderBookView>(() => {})));
    feed.retain();
    server.latest.acceptOpen();
    server.latest.receive(bookMessage(1, 'snapshot', 10, 10, [['100', '1']], []));
    server.latest.receive(bookMessage(2, 'delta', 10, 11, [['100', '2']], []));
    // prev_sequence 12, but 11 was the last applied: 12 was missed.
    server.latest.receive(bookMessage(3, 'delta', 12, 13, [['100', '9']], []));
    expect(subscribesSent(server)).toHaveLength(2);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('gap'));
    // Later deltas of the broken picture do not apply, nor ask again.
    server.latest.receive(bookMessage(4, 'delta', 13, 14, [['100', '7']], []));
    expect(subscribesSent(server)).toHaveLength(2);
    frames.frame();
    expect(bidPrices(feed)).toEqual(['100@2']);

    server.latest.receive({ type: 'subscribed', channel: CHANNEL, seq: 4 });
    server.latest.receive(
      bookMessage(
        5,
        'snapshot',
        14,
        14,
        [
          ['100', '7'],
          ['98', '1'],
        ],
        [],
      ),
    );
    server.latest.receive(bookMessage(6, 'delta', 14, 15, [['98', '0']], []));
    frames.frame();
    expect(feed.getPicture()).toMatchObject({ sequence: 15, live: true });
    expect(bidPrices(feed)).toEqual(['100@7']);
  });

  it('falls back to the HTTP snapshot when the resubscription brings none in time', async () => {
    const fetchSnapshot = vi
      .fn<FetchSnapshot>()
      .mockImplementationOnce(() => new Promise(() => {}))
      .mockResolvedValueOnce(httpBook(13, [['100', '9']], []));
    const { server, feed, frames } = setup(fetchSnapshot);
    feed.retain();
    server.latest.acceptOpen();
    server.latest.receive(bookMessage(1, 'snapshot', 10, 10, [['100', '1']], []));
    server.latest.receive(bookMessage(2, 'delta', 12, 13, [['100', '9']], []));
    expect(fetchSnapshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(fetchSnapshot).toHaveBeenCalledTimes(2);
    frames.frame();
    expect(feed.getPicture().sequence).toBe(13);
    server.latest.receive(bookMessage(3, 'delta', 13, 14, [['100', '4']], []));
    frames.frame();
    expect(bidPrices(feed)).toEqual(['100@4']);
  });

  it('is not live while the socket is away, and live again after the snapshot that follows a reconnect', async () => {
    const { server, feed, frames } = setup(vi.fn(() => new Promise<OrderBookView>(() => {})));
    feed.retain();
    server.latest.acceptOpen();
    server.latest.receive(bookMessage(1, 'snapshot', 10, 10, [['100', '1']], []));
    frames.frame();
    expect(feed.getPicture().live).toBe(true);
    server.latest.dropWith(1006);
    frames.frame();
    expect(feed.getPicture()).toMatchObject({ live: false, sequence: 10 });
    await vi.advanceTimersByTimeAsync(1_000);
    server.latest.acceptOpen();
    expect(subscribesSent(server)).toHaveLength(1);
    server.latest.receive(bookMessage(1, 'snapshot', 30, 30, [['100', '3']], []));
    frames.frame();
    expect(feed.getPicture()).toMatchObject({ live: true, sequence: 30 });
  });

  it('reports a failed first load, and leaves the channel when the last holder releases', async () => {
    const { server, feed, frames } = setup(vi.fn(async () => Promise.reject(new Error('offline'))));
    const first = feed.retain();
    const second = feed.retain();
    await vi.waitFor(() => expect(frames.waiting).toBe(1));
    frames.frame();
    expect(feed.getPicture().status).toBe('error');
    server.latest.acceptOpen();
    first();
    expect(server.latest.sentOfType('unsubscribe')).toHaveLength(0);
    second();
    expect(server.latest.sentOfType('unsubscribe')).toEqual([{ type: 'unsubscribe', channel: CHANNEL }]);
    expect(feed.getPicture()).toMatchObject({ status: 'loading', bids: [], sequence: null });
  });
});
