import {
  type ClientSocketMessage,
  MAIN_SOCKET_MAX_RECONNECT_ATTEMPTS,
  PRICE_FEED_RECONNECT,
  type ServerSocketMessage,
  SOCKET_PATH,
  SOCKET_PING_INTERVAL_MS,
  serverSocketMessageSchema,
} from '@platform/contracts';

/**
 * The product socket client of spec §4 and §7.6: one connection to /ws, ref-counted channel
 * subscriptions, pings, and reconnection with exponential back-off. It knows nothing about prices;
 * the price store (price-store.ts) reads its messages.
 */

/** `closed` also covers "waiting to reconnect"; `failed` means it gave up (attempts exhausted). */
export type SocketStatus = 'idle' | 'connecting' | 'open' | 'closed' | 'failed';

/** The part of the browser WebSocket the client uses, so tests can hand in a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

const WEB_SOCKET_OPEN = 1;
/** The close code of a deliberate, clean close: the only one that is not followed by a reconnect. */
export const NORMAL_CLOSURE = 1000;

export interface SocketLogger {
  warn: (message: string, details?: unknown) => void;
}

export interface ProductSocketOptions {
  url: () => string;
  createSocket: (url: string) => WebSocketLike;
  pingIntervalMs?: number;
  /** Spec §9: the back-off is base delay x 2^(attempt - 1), capped. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxAttempts?: number;
  logger?: SocketLogger;
}

export type ChannelListener = (message: ServerSocketMessage) => void;
export type MessageListener = (message: ServerSocketMessage) => void;
export type StatusListener = (status: SocketStatus) => void;

/** Same origin, ws or wss after the page's scheme. */
export function sameOriginSocketUrl(location: Pick<Location, 'protocol' | 'host'> = globalThis.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${SOCKET_PATH}`;
}

/** Spec §9: base x 2^(attempt - 1), at most the cap. `attempt` counts from 1. */
export function reconnectDelayMs(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attempt - 1), maxDelayMs);
}

const consoleLogger: SocketLogger = {
  warn: (message, details) => console.warn(`[socket] ${message}`, details ?? ''),
};

export class ProductSocket {
  private readonly options: Required<Omit<ProductSocketOptions, 'logger'>> & { logger: SocketLogger };
  private socket: WebSocketLike | null = null;
  /** Each subscription is its own token, so one function may listen twice and count twice. */
  private readonly channels = new Map<string, Set<{ listener: ChannelListener }>>();
  private readonly messageListeners = new Set<MessageListener>();
  private readonly statusListeners = new Set<StatusListener>();
  private currentStatus: SocketStatus = 'idle';
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  /** The access token the connection proves its account with (user channels), or null. */
  private authToken: string | null = null;
  /**
   * Channels the server ended while listeners still hold them: user channels end when the token
   * expires, and are subscribed again once a fresh token is accepted ('authenticated').
   */
  private readonly endedByServer = new Set<string>();

  constructor(options: ProductSocketOptions) {
    this.options = {
      pingIntervalMs: SOCKET_PING_INTERVAL_MS,
      baseDelayMs: PRICE_FEED_RECONNECT.baseDelayMs,
      maxDelayMs: PRICE_FEED_RECONNECT.maxDelayMs,
      maxAttempts: MAIN_SOCKET_MAX_RECONNECT_ATTEMPTS,
      logger: consoleLogger,
      ...options,
    };
  }

  get status(): SocketStatus {
    return this.currentStatus;
  }

  /** Reconnect attempts made since the last successful open (or manual reconnect). */
  get reconnectAttempts(): number {
    return this.attempts;
  }

  /** Channels with at least one listener. */
  get subscribedChannels(): string[] {
    return [...this.channels.keys()];
  }

  /** Opens the connection unless one is open, opening, or waiting to reconnect. */
  connect(): void {
    if (this.socket || this.reconnectTimer) return;
    if (this.currentStatus === 'failed') return;
    this.open();
  }

  /** Spec §4: a manual reconnect resets the counters and opens a fresh connection. */
  reconnect(): void {
    this.clearReconnectTimer();
    this.attempts = 0;
    this.dropSocket(NORMAL_CLOSURE);
    this.open();
  }

  /** Spec §4: a manual disconnect closes with 1000 and clears every subscription. */
  disconnect(): void {
    this.clearReconnectTimer();
    this.attempts = 0;
    this.channels.clear();
    this.dropSocket(NORMAL_CLOSURE);
    this.setStatus('closed');
  }

  /**
   * Spec §7.6: subscribe goes out when the first listener joins a channel (if connected; otherwise
   * on open), unsubscribe when the last one leaves. Returns the leave function.
   */
  subscribe(channel: string, listener: ChannelListener): () => void {
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
      if (this.isOpen()) this.send({ type: 'subscribe', channel });
    }
    const token = { listener };
    listeners.add(token);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const current = this.channels.get(channel);
      if (!current?.delete(token) || current.size > 0) return;
      this.channels.delete(channel);
      if (this.isOpen()) this.send({ type: 'unsubscribe', channel });
    };
  }

  /**
   * Proves the connection's account (spec §7.6 user channels: balances, orders, notifications):
   * {type:'auth', token} now if open, and first thing after every (re)connect. A fresh token
   * (refresh) is sent again; null (logout) reopens the connection, so nothing of the account's
   * stays on it. The server holds frames sent during its token check, so subscribes may follow.
   */
  authenticate(token: string | null): void {
    if (token === this.authToken) return;
    const hadToken = this.authToken !== null;
    this.authToken = token;
    if (token !== null) {
      if (this.isOpen()) this.send({ type: 'auth', token });
      return;
    }
    if (hadToken && this.socket) {
      this.dropSocket(NORMAL_CLOSURE);
      this.open();
    }
  }

  /** Every valid message, whatever its channel. */
  onMessage(listener: MessageListener): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Spec §4: sending while disconnected only logs a warning; nothing is queued. */
  send(message: ClientSocketMessage): boolean {
    if (!this.socket || !this.isOpen()) {
      this.options.logger.warn('Not connected; message dropped', message);
      return false;
    }
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private isOpen(): boolean {
    return this.currentStatus === 'open' && this.socket?.readyState === WEB_SOCKET_OPEN;
  }

  private open(): void {
    this.setStatus('connecting');
    let socket: WebSocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch (error) {
      this.options.logger.warn('Could not open the socket', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => this.handleOpen();
    socket.onmessage = (event) => this.handleMessage(event.data);
    socket.onclose = (event) => this.handleClose(socket, event.code);
    socket.onerror = () => {
      // A close event always follows an error; the reconnect decision is made there.
    };
  }

  private handleOpen(): void {
    this.attempts = 0;
    this.endedByServer.clear();
    this.setStatus('open');
    this.startPing();
    if (this.authToken !== null) this.send({ type: 'auth', token: this.authToken });
    // Spec §4: after a reconnect the client resubscribes to its channels.
    for (const channel of this.channels.keys()) this.send({ type: 'subscribe', channel });
  }

  private handleMessage(data: unknown): void {
    let raw: unknown;
    try {
      raw = typeof data === 'string' ? JSON.parse(data) : data;
    } catch {
      this.options.logger.warn('Ignoring a socket message that is not JSON');
      return;
    }
    const parsed = serverSocketMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.options.logger.warn('Ignoring an unexpected socket message', parsed.error.issues);
      return;
    }
    const message = parsed.data;
    this.trackServerEndings(message);
    for (const listener of this.messageListeners) listener(message);
    if ('channel' in message && message.channel) {
      for (const token of this.channels.get(message.channel) ?? []) token.listener(message);
    }
  }

  private trackServerEndings(message: ServerSocketMessage): void {
    if (message.type === 'unsubscribed' && this.channels.has(message.channel)) {
      this.endedByServer.add(message.channel);
    } else if (message.type === 'authenticated') {
      for (const channel of this.endedByServer) {
        if (this.channels.has(channel)) this.send({ type: 'subscribe', channel });
      }
      this.endedByServer.clear();
    }
  }

  private handleClose(socket: WebSocketLike, code: number): void {
    // A socket replaced by a manual reconnect still reports its close; it no longer matters.
    if (socket !== this.socket) return;
    this.socket = null;
    this.stopPing();
    if (code === NORMAL_CLOSURE) {
      this.setStatus('closed');
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.attempts >= this.options.maxAttempts) {
      this.setStatus('failed');
      return;
    }
    this.attempts += 1;
    const delay = reconnectDelayMs(this.attempts, this.options.baseDelayMs, this.options.maxDelayMs);
    this.setStatus('closed');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, delay);
  }

  private dropSocket(code: number): void {
    this.stopPing();
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onerror = null;
    socket.onclose = null;
    try {
      socket.close(code);
    } catch (error) {
      this.options.logger.warn('Could not close the socket', error);
    }
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), this.options.pingIntervalMs);
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private setStatus(status: SocketStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of this.statusListeners) listener(status);
  }
}
