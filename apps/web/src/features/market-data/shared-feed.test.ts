import { describe, expect, it, vi } from 'vitest';
import type { ProductSocket } from './product-socket.ts';
import { FeedHolders, feedRegistry } from './shared-feed.ts';

describe('shared feeds', () => {
  it('start with the first holder and stop when the last lets go, a release counting once', () => {
    const start = vi.fn();
    const stop = vi.fn();
    const holders = new FeedHolders(start, stop);
    const first = holders.retain();
    const second = holders.retain();
    expect(start).toHaveBeenCalledTimes(1);
    first();
    first();
    expect(stop).not.toHaveBeenCalled();
    second();
    expect(stop).toHaveBeenCalledTimes(1);
    holders.retain();
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('are one per market and socket', () => {
    const create = vi.fn((pairId: string, socket: ProductSocket) => ({ pairId, socket }));
    const feeds = feedRegistry(create);
    const one = {} as ProductSocket;
    const other = {} as ProductSocket;
    expect(feeds('BTC_USD', one)).toBe(feeds('BTC_USD', one));
    expect(feeds('ETH_USD', one)).not.toBe(feeds('BTC_USD', one));
    expect(feeds('BTC_USD', other)).not.toBe(feeds('BTC_USD', one));
    expect(create).toHaveBeenCalledTimes(3);
  });
});
