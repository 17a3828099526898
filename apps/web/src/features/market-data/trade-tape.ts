import type { ServerSocketMessage, Trade } from '@platform/contracts';
import { animationFrameScheduler, type FrameScheduler, FrameThrottledSignal } from './frame-scheduler.ts';
import { getMarketData } from './market-data.ts';
import type { ProductSocket, SocketLogger, SocketStatus } from './product-socket.ts';
import { FeedHolders, feedRegistry } from './shared-feed.ts';
import { snapshotApi } from './snapshot-api.ts';

/**
 * A market's recent trades (the "trade tape"): seeded over HTTP, then every trade of trades.{PAIR_ID}
 * put in front, newest first, without duplicates and capped. A jump in the channel's sequence, or a
 * reconnect, means trades were missed: the HTTP list is merged in again.
 */

/** The most trades the tape keeps; panels show fewer. */
export const TRADE_TAPE_CAPACITY = 100;
export const RECENT_TRADES_LIMIT = 50;

export function tradesChannel(pairId: string): string {
  return `trades.${pairId}`;
}

/**
 * `incoming` (newest first) merged into `current` (newest first): ids seen once, newest first by
 * time (a stable sort, so trades of one millisecond keep the order they came in), at most `cap`.
 */
export function mergeTrades(current: readonly Trade[], incoming: readonly Trade[], cap: number): Trade[] {
  const seen = new Set<string>();
  const merged: Trade[] = [];
  for (const trade of [...incoming, ...current]) {
    if (seen.has(trade.id)) continue;
    seen.add(trade.id);
    merged.push(trade);
  }
  merged.sort((a, b) => b.timestamp - a.timestamp);
  return merged.length > cap ? merged.slice(0, cap) : merged;
}

/** One live trade in front of the tape; the same tape when the trade is already in it. */
export function prependTrade(current: readonly Trade[], trade: Trade, cap: number): readonly Trade[] {
  if (current.some((known) => known.id === trade.id)) return current;
  const first = current[0];
  // Out of order (older than the newest known): place it by time instead.
  if (first && trade.timestamp < first.timestamp) return mergeTrades(current, [trade], cap);
  const next = [trade, ...current];
  return next.length > cap ? next.slice(0, cap) : next;
}

export type TradeTapeStatus = 'loading' | 'ready' | 'error';

export interface TradeTapePicture {
  pairId: string;
  status: TradeTapeStatus;
  trades: readonly Trade[];
  error: unknown;
}

export interface TradeTapeOptions {
  pairId: string;
  socket: ProductSocket;
  fetchTrades?: (pairId: string, limit: number) => Promise<Trade[]>;
  capacity?: number;
  schedule?: FrameScheduler;
  logger?: SocketLogger;
}

const consoleLogger: SocketLogger = {
  warn: (message, details) => console.warn(`[trades] ${message}`, details ?? ''),
};

export class TradeTape {
  readonly pairId: string;
  private readonly channel: string;
  private readonly socket: ProductSocket;
  private readonly fetchTrades: (pairId: string, limit: number) => Promise<Trade[]>;
  private readonly capacity: number;
  private readonly logger: SocketLogger;
  private readonly signal: FrameThrottledSignal;
  private trades: readonly Trade[] = [];
  private loaded = false;
  private error: unknown = null;
  private picture: TradeTapePicture;
  private lastSeq: number | null = null;
  private wasOpen = false;
  private readonly holders = new FeedHolders(
    () => this.start(),
    () => this.stop(),
  );
  private generation = 0;
  private loading = false;
  private loadAgain = false;
  private readonly detach: Array<() => void> = [];

  constructor(options: TradeTapeOptions) {
    this.pairId = options.pairId;
    this.channel = tradesChannel(options.pairId);
    this.socket = options.socket;
    this.fetchTrades = options.fetchTrades ?? ((pairId, limit) => snapshotApi.marketTrades(pairId, limit));
    this.capacity = options.capacity ?? TRADE_TAPE_CAPACITY;
    this.logger = options.logger ?? consoleLogger;
    this.signal = new FrameThrottledSignal(options.schedule ?? animationFrameScheduler, () => {
      this.picture = this.buildPicture();
    });
    this.picture = this.buildPicture();
  }

  readonly subscribe = (listener: () => void): (() => void) => this.signal.subscribe(listener);

  readonly getPicture = (): TradeTapePicture => this.picture;

  retain(): () => void {
    return this.holders.retain();
  }

  flush(): void {
    this.signal.flush();
  }

  /** Loads the HTTP list again and merges it (the panel's retry, a gap, a reconnect). */
  reload(): void {
    void this.load();
  }

  private start(): void {
    this.detach.push(this.socket.subscribe(this.channel, (message) => this.handleMessage(message)));
    this.detach.push(this.socket.onStatus((status) => this.handleStatus(status)));
    this.socket.connect();
    this.wasOpen = this.socket.status === 'open';
    void this.load();
  }

  private stop(): void {
    for (const leave of this.detach.splice(0)) leave();
    this.generation += 1;
    this.trades = [];
    this.loaded = false;
    this.loading = false;
    this.loadAgain = false;
    this.error = null;
    this.lastSeq = null;
    this.signal.flush();
  }

  private handleMessage(message: ServerSocketMessage): void {
    if (message.type === 'subscribed') {
      this.lastSeq = message.seq;
      return;
    }
    if (message.type !== 'trade_update') return;
    const previous = this.lastSeq;
    this.lastSeq = message.seq;
    if (previous !== null && message.seq > previous + 1) {
      this.logger.warn(`Sequence gap on ${this.channel}: ${previous} -> ${message.seq}; reloading`);
      void this.load();
    }
    const next = prependTrade(this.trades, message.payload, this.capacity);
    if (next === this.trades) return;
    this.trades = next;
    this.signal.markChanged();
  }

  private handleStatus(status: SocketStatus): void {
    if (status !== 'open') {
      this.lastSeq = null;
      return;
    }
    // Trades made while the socket was away are only in the HTTP list.
    if (this.wasOpen || this.loaded) void this.load();
    this.wasOpen = true;
  }

  private async load(): Promise<void> {
    if (this.loading) {
      // The answer in flight may predate what was missed: ask once more when it is in.
      this.loadAgain = true;
      return;
    }
    this.loading = true;
    this.loadAgain = false;
    const generation = this.generation;
    try {
      const trades = await this.fetchTrades(this.pairId, this.capacity);
      if (generation !== this.generation) return;
      this.trades = mergeTrades(this.trades, trades, this.capacity);
      this.loaded = true;
      this.error = null;
    } catch (error) {
      if (generation !== this.generation) return;
      this.error = error;
      this.logger.warn(`Could not load the trades of ${this.pairId}`, error);
    } finally {
      if (generation === this.generation) this.loading = false;
    }
    this.signal.markChanged();
    if (this.loadAgain) void this.load();
  }

  private buildPicture(): TradeTapePicture {
    const status: TradeTapeStatus = this.loaded || this.trades.length > 0 ? 'ready' : this.error ? 'error' : 'loading';
    return { pairId: this.pairId, status, trades: this.trades, error: this.error };
  }
}

const tapes = feedRegistry((pairId, socket) => new TradeTape({ pairId, socket }));

/** One tape per market and socket, shared by the panels that show it. */
export function tradeTape(pairId: string, socket: ProductSocket = getMarketData().socket): TradeTape {
  return tapes(pairId, socket);
}
