import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { BOOK_SNAPSHOT_DEPTH, type OrderBookPicture, orderBookFeed } from './order-book-feed.ts';

export interface OrderBookResult extends OrderBookPicture {
  /** Loads the book over HTTP again (a retry after a failed first load). */
  reload: () => void;
}

/**
 * The live order book of `pairId`, `depth` levels a side at most (best first). Re-renders at most
 * once per animation frame however fast the socket is.
 */
export function useOrderBook(pairId: string, depth: number = BOOK_SNAPSHOT_DEPTH): OrderBookResult {
  const feed = orderBookFeed(pairId);
  useEffect(() => feed.retain(), [feed]);
  const picture = useSyncExternalStore(feed.subscribe, feed.getPicture, feed.getPicture);
  return useMemo(() => {
    const fits = picture.bids.length <= depth && picture.asks.length <= depth;
    return {
      ...picture,
      bids: fits ? picture.bids : picture.bids.slice(0, depth),
      asks: fits ? picture.asks : picture.asks.slice(0, depth),
      reload: () => feed.reload(),
    };
  }, [picture, depth, feed]);
}
