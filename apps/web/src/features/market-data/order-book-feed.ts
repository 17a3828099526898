import type { OrderBookUpdate, OrderBookView, ServerSocketMessage } from '@platform/contracts';
import { animationFrameScheduler, type FrameScheduler, FrameThrottledSignal } from './frame-scheduler.ts';
import { getMarketData } from './market-data.ts';
import { type BookLevel, OrderBookState } from './order-book.ts';
import type { ProductSocket, SocketLogger, SocketStatus } from './product-socket.ts';
import { FeedHolders, feedRegistry } from './shared-feed.ts';
import { snapshotApi } from './snapshot-api.ts';

/**
 * The live order book of one market: seeded from HTTP, then the socket's snapshot and deltas on
 * orderbook.{PAIR_ID}, with gap detection (conventions §5). Levels live here, outside React; React
 * sees an immutable picture rebuilt at most once per animation frame, so a feed of 20+ updates a
 * second never queues renders behind it.
 */

/** The socket's snapshot holds 50 levels a side (docs/trading.md); the HTTP seed asks as many. */
export const BOOK_SNAPSHOT_DEPTH = 50;
/** How long a resubscription may take to bring its snapshot before HTTP is asked instead. */
export const BOOK_RESYNC_TIMEOUT_MS = 3_000;
/** While the socket has given up, the book is polled over HTTP this often. */
export const BOOK_POLL_INTERVAL_MS = 5_000;

export type OrderBookStatus = 'loading' | 'ready' | 'error';

/** What React reads: replaced, never mutated. */
export interface OrderBookPicture {
  pairId: string;
  status: OrderBookStatus;
  /** The market sequence the levels reflect, or null before any. */
  sequence: number | null;
  /** True while the socket's snapshot (and its deltas) feed the picture. */
  live: boolean;
  /** Best first: bids high to low, asks low to high. */
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
  timestamp: number | null;
  error: unknown;
}

export interface OrderBookFeedOptions {
  pairId: string;
  socket: ProductSocket;
  fetchSnapshot?: (pairId: string, depth: number) => Promise<OrderBookView>;
  schedule?: FrameScheduler;
  logger?: SocketLogger;
  resyncTimeoutMs?: number;
  pollIntervalMs?: number;
}

export function orderBookChannel(pairId: string): string {
  return `orderbook.${pairId}`;
}

const consoleLogger: SocketLogger = {
  warn: (message, details) => console.warn(`[orderbook] ${message}`, details ?? ''),
};

export class OrderBookFeed {
  readonly pairId: string;
  private readonly channel: string;
  private readonly socket: ProductSocket;
  private readonly fetchSnapshot: (pairId: string, depth: number) => Promise<OrderBookView>;
  private readonly logger: SocketLogger;
  private readonly resyncTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly state = new OrderBookState();
  private readonly signal: FrameThrottledSignal;
  private picture: OrderBookPicture;
  private live = false;
  private error: unknown = null;
  private readonly holders = new FeedHolders(
    () => this.start(),
    () => this.stop(),
  );
  private resyncing = false;
  /** Bumped on stop, so an HTTP answer of an earlier run is not applied to a later one. */
  private generation = 0;
  private resyncTimer: ReturnType<typeof setTimeout> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private readonly detach: Array<() => void> = [];

  constructor(options: OrderBookFeedOptions) {
    this.pairId = options.pairId;
    this.channel = orderBookChannel(options.pairId);
    this.socket = options.socket;
    this.fetchSnapshot = options.fetchSnapshot ?? ((pairId, depth) => snapshotApi.orderBook(pairId, depth));
    this.logger = options.logger ?? consoleLogger;
    this.resyncTimeoutMs = options.resyncTimeoutMs ?? BOOK_RESYNC_TIMEOUT_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? BOOK_POLL_INTERVAL_MS;
    this.signal = new FrameThrottledSignal(options.schedule ?? animationFrameScheduler, () => {
      this.picture = this.buildPicture();
    });
    this.picture = this.buildPicture();
  }

  /** Arrow properties, so React can take them as they are (useSyncExternalStore). */
  readonly subscribe = (listener: () => void): (() => void) => this.signal.subscribe(listener);

  readonly getPicture = (): OrderBookPicture => this.picture;

  /** The first holder starts the feed, the last one to release stops it. */
  retain(): () => void {
    return this.holders.retain();
  }

  /** Asks HTTP for the book again (the panel's retry after a failed first load). */
  reload(): void {
    void this.loadSnapshot('seed');
  }

  /** Publishes pending changes now instead of at the next frame (tests, benches). */
  flush(): void {
    this.signal.flush();
  }

  private start(): void {
    this.detach.push(this.socket.subscribe(this.channel, (message) => this.handleMessage(message)));
    this.detach.push(this.socket.onStatus((status) => this.handleStatus(status)));
    this.socket.connect();
    if (this.socket.status === 'failed') this.startPolling();
    void this.loadSnapshot('seed');
  }

  private stop(): void {
    for (const leave of this.detach.splice(0)) leave();
    this.generation += 1;
    this.stopPolling();
    this.clearResync();
    this.state.clear();
    this.live = false;
    this.error = null;
    this.signal.flush();
  }

  private handleMessage(message: ServerSocketMessage): void {
    if (message.type === 'error') {
      this.logger.warn(`Order book channel ${this.channel}: ${message.payload.code}`, message.payload.message);
      return;
    }
    if (message.type !== 'orderbook_update') return;
    const update = message.payload;
    if (message.snapshot || update.kind === 'snapshot') {
      this.applySocketSnapshot(update);
      return;
    }
    const result = this.state.applyDelta(update);
    if (result === 'applied') {
      this.signal.markChanged();
    } else if (result === 'gap' || result === 'invalid') {
      this.logger.warn(
        `Order book ${this.pairId}: ${result} at ${this.state.sequence} -> ${update.prev_sequence}/${update.sequence}; resyncing`,
      );
      this.resync();
    }
  }

  private applySocketSnapshot(update: OrderBookUpdate): void {
    if (!this.state.replace(update)) {
      this.logger.warn(`Order book ${this.pairId}: unreadable snapshot; resyncing over HTTP`);
      this.resyncing = true;
      void this.loadSnapshot('resync');
      return;
    }
    this.live = true;
    this.error = null;
    this.clearResync();
    this.signal.markChanged();
  }

  /**
   * The protocol's resync: subscribing again answers with a fresh snapshot (contracts/socket.ts).
   * If the socket is down, or the snapshot does not come in time, HTTP gives one instead.
   */
  private resync(): void {
    if (this.resyncing) return;
    this.resyncing = true;
    const sent = this.socket.send({ type: 'subscribe', channel: this.channel });
    if (!sent) {
      void this.loadSnapshot('resync');
      return;
    }
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      if (this.resyncing) void this.loadSnapshot('resync');
    }, this.resyncTimeoutMs);
  }

  private clearResync(): void {
    this.resyncing = false;
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.resyncTimer = null;
  }

  /** An HTTP snapshot; applied only when it is newer than what the client holds (or fixes a gap). */
  private async loadSnapshot(reason: 'seed' | 'resync' | 'poll'): Promise<void> {
    const generation = this.generation;
    try {
      const view = await this.fetchSnapshot(this.pairId, BOOK_SNAPSHOT_DEPTH);
      if (generation !== this.generation) return;
      const known = this.state.sequence;
      // During a resync the picture is known to be incomplete, so one at the same sequence is better.
      const older = known !== null && (this.resyncing ? view.sequence < known : view.sequence <= known);
      if (older) {
        // A later gap must be able to ask again.
        if (reason === 'resync') this.clearResync();
        return;
      }
      if (!this.state.replace(view)) {
        this.logger.warn(`Order book ${this.pairId}: unreadable HTTP snapshot`);
        return;
      }
      this.error = null;
      this.clearResync();
      this.signal.markChanged();
    } catch (error) {
      if (generation !== this.generation) return;
      if (reason === 'resync') this.clearResync();
      if (this.state.sequence === null) {
        this.error = error;
        this.signal.markChanged();
      }
      this.logger.warn(`Could not load the order book of ${this.pairId}`, error);
    }
  }

  private handleStatus(status: SocketStatus): void {
    if (status === 'failed') this.startPolling();
    else if (status === 'open') this.stopPolling();
    // Sequences belong to a connection: after a reconnect the socket resubscribes and a snapshot
    // comes first. Until then the picture is what the client last knew, not live.
    if (status !== 'open' && this.live) {
      this.live = false;
      this.clearResync();
      this.signal.markChanged();
    }
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => void this.loadSnapshot('poll'), this.pollIntervalMs);
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private buildPicture(): OrderBookPicture {
    const sequence = this.state.sequence;
    return {
      pairId: this.pairId,
      status: sequence !== null ? 'ready' : this.error ? 'error' : 'loading',
      sequence,
      live: this.live,
      bids: this.state.levels('bid'),
      asks: this.state.levels('ask'),
      timestamp: this.state.timestamp,
      error: sequence === null ? this.error : null,
    };
  }
}

/**
 * One feed per market and socket, shared by every panel that shows the book (the book itself and
 * the depth chart), so the channel is subscribed and the levels are kept once.
 */
const bookFeeds = feedRegistry((pairId, socket) => new OrderBookFeed({ pairId, socket }));

export function orderBookFeed(pairId: string, socket: ProductSocket = getMarketData().socket): OrderBookFeed {
  return bookFeeds(pairId, socket);
}
