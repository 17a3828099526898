import type { ProductSocket } from './product-socket.ts';

/**
 * What the market's shared feeds (the order book, the trade tape) have in common: they run while
 * someone holds them, and there is one per market and socket, whoever asks.
 */

/** The first holder starts the feed, the last one to let go stops it; a release counts once. */
export class FeedHolders {
  private count = 0;

  constructor(
    private readonly start: () => void,
    private readonly stop: () => void,
  ) {}

  retain(): () => void {
    this.count += 1;
    if (this.count === 1) this.start();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count -= 1;
      if (this.count === 0) this.stop();
    };
  }
}

/** One feed per market and socket, made on first request (a socket's feeds go with it). */
export function feedRegistry<Feed>(
  create: (pairId: string, socket: ProductSocket) => Feed,
): (pairId: string, socket: ProductSocket) => Feed {
  const bySocket = new WeakMap<ProductSocket, Map<string, Feed>>();
  return (pairId, socket) => {
    let feeds = bySocket.get(socket);
    if (!feeds) {
      feeds = new Map();
      bySocket.set(socket, feeds);
    }
    let feed = feeds.get(pairId);
    if (feed === undefined) {
      feed = create(pairId, socket);
      feeds.set(pairId, feed);
    }
    return feed;
  };
}
