import { marketDataApi } from './market-data-api.ts';
import { PriceStore, type PriceStoreApi } from './price-store.ts';
import { ProductSocket, sameOriginSocketUrl, type WebSocketLike } from './product-socket.ts';

/**
 * The one product socket and price store of the page. Created on first use, so a page that never
 * shows market data never opens a socket.
 */
export interface MarketData {
  socket: ProductSocket;
  store: PriceStore;
  /** Spec §4: the user's reconnect; resets the attempt counter. */
  reconnect: () => void;
  dispose: () => void;
}

export interface MarketDataOptions {
  createSocket?: (url: string) => WebSocketLike;
  url?: () => string;
  api?: PriceStoreApi;
  pollIntervalMs?: number;
  flushIntervalMs?: number;
}

export function createMarketData(options: MarketDataOptions = {}): MarketData {
  const socket = new ProductSocket({
    url: options.url ?? (() => sameOriginSocketUrl()),
    createSocket: options.createSocket ?? ((url) => new WebSocket(url)),
  });
  const store = new PriceStore({
    socket,
    api: options.api ?? { fetchPairs: marketDataApi.fetchPairs, fetchTicker: marketDataApi.fetchTicker },
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    ...(options.flushIntervalMs === undefined ? {} : { flushIntervalMs: options.flushIntervalMs }),
  });
  return {
    socket,
    store,
    reconnect: () => socket.reconnect(),
    dispose: () => {
      store.dispose();
      socket.disconnect();
    },
  };
}

let current: MarketData | null = null;

export function getMarketData(): MarketData {
  current ??= createMarketData();
  return current;
}

/** Swaps the instance (tests); the old one is disposed. Null means "create afresh on next use". */
export function replaceMarketData(next: MarketData | null): void {
  current?.dispose();
  current = next;
}
