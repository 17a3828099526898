import {
  PRICE_POLL_INTERVAL_MS,
  type PriceUpdate,
  type ServerSocketMessage,
  type TradingPair,
} from '@platform/contracts';
import type { ProductSocket, SocketLogger, SocketStatus } from './product-socket.ts';

/**
 * The latest price of every market the client watches, fed by the product socket and, when the
 * socket is gone, by REST. Spec §4 and the conventions: messages carry a per-channel sequence; a
 * gap means an update was lost, so the market is resynced from its REST snapshot. When the socket
 * gives up, the REST prices are polled every 30 s instead.
 */

export type QuoteSource = 'stream' | 'snapshot' | 'poll';

/** What the screens show of a market's price. Decimal strings throughout. */
export interface LiveQuote {
  pairId: string;
  price: string;
  changePercent24h: string | null;
  change24h: string | null;
  /** Base-currency volume over 24 h. */
  volume24h: string | null;
  high24h: string | null;
  low24h: string | null;
  /** Unix milliseconds of the price. */
  timestamp: number;
  source: QuoteSource;
}

export interface PriceStoreApi {
  fetchTicker: (pairId: string) => Promise<PriceUpdate>;
  fetchPairs: () => Promise<TradingPair[]>;
}

export interface PriceStoreOptions {
  socket: ProductSocket;
  api: PriceStoreApi;
  pollIntervalMs?: number;
  /** Updates reach React at most this often, so a fast feed does not re-render on every tick. */
  flushIntervalMs?: number;
  logger?: SocketLogger;
  now?: () => number;
}

export const PRICE_CHANNEL_PREFIX = 'price.';

export function priceChannel(pairId: string): string {
  return `${PRICE_CHANNEL_PREFIX}${pairId}`;
}

/** price.BTC_USD (or price.BTC/USD) -> BTC_USD; null for other channels. */
export function pairIdOfChannel(channel: string): string | null {
  if (!channel.startsWith(PRICE_CHANNEL_PREFIX)) return null;
  return channel.slice(PRICE_CHANNEL_PREFIX.length).replace('/', '_');
}

export function quoteFromUpdate(pairId: string, update: PriceUpdate, source: QuoteSource): LiveQuote {
  return {
    pairId,
    price: update.price,
    changePercent24h: update.changePercent24h,
    change24h: update.change24h,
    volume24h: update.volume24h,
    high24h: update.high24h,
    low24h: update.low24h,
    timestamp: update.timestamp,
    source,
  };
}

/** Five screen updates a second: enough to look live, few enough for a table of 50 rows. */
const DEFAULT_FLUSH_INTERVAL_MS = 200;

type Listener = () => void;

export class PriceStore {
  private readonly socket: ProductSocket;
  private readonly api: PriceStoreApi;
  private readonly pollIntervalMs: number;
  private readonly flushIntervalMs: number;
  private readonly logger: SocketLogger;
  private readonly now: () => number;
  /** Replaced, never mutated, so a reader holding it sees a consistent picture. */
  private quotes: ReadonlyMap<string, LiveQuote> = new Map();
  private pending = new Map<string, LiveQuote>();
  private readonly lastSeq = new Map<string, number>();
  private readonly resyncing = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private readonly detach: Array<() => void> = [];

  constructor(options: PriceStoreOptions) {
    this.socket = options.socket;
    this.api = options.api;
    this.pollIntervalMs = options.pollIntervalMs ?? PRICE_POLL_INTERVAL_MS;
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.logger = options.logger ?? { warn: (message, details) => console.warn(`[prices] ${message}`, details ?? '') };
    this.now = options.now ?? Date.now;
    this.detach.push(this.socket.onMessage((message) => this.handleMessage(message)));
    this.detach.push(this.socket.onStatus((status) => this.handleStatus(status)));
  }

  /**
   * Registers interest in a market: the first watcher subscribes its price channel, the last one
   * to leave unsubscribes it (the socket counts). Connects the socket on first use.
   */
  watch(pairId: string): () => void {
    const leave = this.socket.subscribe(priceChannel(pairId), () => {});
    this.socket.connect();
    return leave;
  }

  /** Arrow properties, so React can take them as they are (useSyncExternalStore). */
  readonly getQuote = (pairId: string): LiveQuote | undefined => this.quotes.get(pairId);

  readonly getQuotes = (): ReadonlyMap<string, LiveQuote> => this.quotes;

  get isPolling(): boolean {
    return this.pollTimer !== null;
  }

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /**
   * Applies a quote. Stream updates are already ordered by their sequence; a REST answer can
   * arrive late, so it is dropped when a newer quote is known.
   */
  applyQuote(quote: LiveQuote): void {
    const known = this.pending.get(quote.pairId) ?? this.quotes.get(quote.pairId);
    if (quote.source !== 'stream' && known && known.timestamp > quote.timestamp) return;
    this.pending.set(quote.pairId, quote);
    this.scheduleFlush();
  }

  /** Publishes pending quotes now (tests, and the end of a batch). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.pending.size === 0) return;
    const next = new Map(this.quotes);
    for (const [pairId, quote] of this.pending) next.set(pairId, quote);
    this.pending = new Map();
    this.quotes = next;
    for (const listener of this.listeners) listener();
  }

  dispose(): void {
    for (const detach of this.detach.splice(0)) detach();
    this.stopPolling();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.listeners.clear();
  }

  /** Polls the REST prices once; used by the fallback and callable on demand. */
  async pollOnce(): Promise<void> {
    try {
      const pairs = await this.api.fetchPairs();
      const timestamp = this.now();
      for (const pair of pairs) {
        if (pair.current_price === null) continue;
        const known = this.pending.get(pair.id) ?? this.quotes.get(pair.id);
        this.applyQuote({
          pairId: pair.id,
          price: pair.current_price,
          changePercent24h: pair.change_24h,
          change24h: known?.change24h ?? null,
          volume24h: pair.volume_24h,
          high24h: known?.high24h ?? null,
          low24h: known?.low24h ?? null,
          timestamp,
          source: 'poll',
        });
      }
    } catch (error) {
      this.logger.warn('Price polling failed', error);
    }
  }

  private handleMessage(message: ServerSocketMessage): void {
    if (message.type === 'subscribed') {
      // The acknowledgement takes a number from the channel's sequence: the next one follows it.
      if (pairIdOfChannel(message.channel)) this.lastSeq.set(message.channel, message.seq);
      return;
    }
    if (message.type === 'unsubscribed') {
      this.lastSeq.delete(message.channel);
      return;
    }
    if (message.type !== 'price_update') return;
    const pairId = pairIdOfChannel(message.channel);
    if (!pairId) return;
    const previous = this.lastSeq.get(message.channel);
    if (!message.snapshot && previous !== undefined) {
      if (message.seq <= previous) return; // a duplicate or a late message: the newer one is shown
      if (message.seq > previous + 1) {
        this.logger.warn(`Sequence gap on ${message.channel}: ${previous} -> ${message.seq}; resyncing`);
        void this.resync(pairId);
      }
    }
    this.lastSeq.set(message.channel, message.seq);
    this.applyQuote(quoteFromUpdate(pairId, message.payload, message.snapshot ? 'snapshot' : 'stream'));
  }

  /** Reloads one market from its REST snapshot; one request at a time per market. */
  private async resync(pairId: string): Promise<void> {
    if (this.resyncing.has(pairId)) return;
    this.resyncing.add(pairId);
    try {
      const ticker = await this.api.fetchTicker(pairId);
      this.applyQuote(quoteFromUpdate(pairId, ticker, 'snapshot'));
    } catch (error) {
      this.logger.warn(`Could not resync ${pairId}`, error);
    } finally {
      this.resyncing.delete(pairId);
    }
  }

  private handleStatus(status: SocketStatus): void {
    if (status === 'failed') this.startPolling();
    else if (status === 'open') this.stopPolling();
    // Sequences belong to a connection; the next one starts over with snapshots.
    if (status !== 'open') this.lastSeq.clear();
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => void this.pollOnce(), this.pollIntervalMs);
    void this.pollOnce();
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => this.flush(), this.flushIntervalMs);
  }
}
