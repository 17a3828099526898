import {
  clientSocketMessageSchema,
  type ServerSocketMessage,
  SOCKET_CLOSE_CODES,
  SOCKET_PROTOCOL_VERSION,
  type SocketErrorCode,
  type SocketStats,
} from '@platform/contracts';
import type { Logger } from '../logger.ts';
import { type Channel, parseChannel, priceTopic } from './channels.ts';
import { SOCKET_LIMITS, type SocketLimits } from './limits.ts';
import type { PubSub } from './pubsub.ts';

/** What the gateway needs of a socket: ws's WebSocket has all of it; unit tests pass a fake. */
export type GatewaySocket = {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
};

/** WebSocket.OPEN: anything else means a send would be lost. */
const SOCKET_OPEN = 1;

export type GatewayDeps = {
  pubsub: PubSub;
  clock: () => Date;
  log: Logger;
  limits?: Partial<SocketLimits>;
};

export type ConnectionInfo = {
  /** The client's address (behind a trusted proxy, the forwarded one). */
  address: string;
  /**
   * The signed-in account, for the user channels (orders, balances) that come later. Public
   * channels never look at it; null until the socket learns to authenticate.
   */
  accountId?: string | null;
};

/** One pub/sub listener per channel, shared by every connection subscribed to it. */
type Fanout = { channel: Channel; subscribers: Set<Connection>; unsubscribe: () => void };

/**
 * The product socket (spec §7.6): connections subscribe to channels, and every message published
 * on a channel's topic reaches its subscribers with a sequence number per connection and channel
 * (CONVENTIONS.md habit 5), so a client sees a gap and resubscribes for a fresh snapshot.
 * Transport-free: the route feeds it sockets and frames.
 */
export class SocketGateway {
  readonly limits: SocketLimits;
  private readonly connections = new Set<Connection>();
  private readonly connectionsByAddress = new Map<string, number>();
  private readonly fanouts = new Map<string, Fanout>();

  constructor(private readonly deps: GatewayDeps) {
    this.limits = { ...SOCKET_LIMITS, ...deps.limits };
  }

  /** Takes a freshly upgraded socket; undefined when a connection limit refused (and closed) it. */
  open(socket: GatewaySocket, info: ConnectionInfo): Connection | undefined {
    if (this.connections.size >= this.limits.maxConnections) {
      this.refuse(socket, info, 'server full');
      return undefined;
    }
    const fromAddress = this.connectionsByAddress.get(info.address) ?? 0;
    if (fromAddress >= this.limits.maxConnectionsPerIp) {
      this.refuse(socket, info, 'too many connections');
      return undefined;
    }
    const connection = new Connection(this, socket, info, this.deps.clock);
    this.connections.add(connection);
    this.connectionsByAddress.set(info.address, fromAddress + 1);
    connection.send({ type: 'welcome', version: SOCKET_PROTOCOL_VERSION });
    return connection;
  }

  /** Forgets a connection and its subscriptions. Called on close; safe to call twice. */
  disconnect(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    for (const name of connection.close()) this.removeSubscriber(name, connection);
    const remaining = (this.connectionsByAddress.get(connection.address) ?? 1) - 1;
    if (remaining > 0) this.connectionsByAddress.set(connection.address, remaining);
    else this.connectionsByAddress.delete(connection.address);
  }

  /** Closes a connection the server gives up on, and stops sending to it at once. */
  drop(connection: Connection, code: number, reason: string): void {
    this.deps.log.info({ address: connection.address, code, reason }, 'socket dropped');
    connection.socket.close(code, reason);
    this.disconnect(connection);
  }

  /**
   * One heartbeat tick: a connection that has not answered the previous ping is terminated (its
   * peer vanished without a close); every other one is pinged again.
   */
  heartbeat(): void {
    for (const connection of [...this.connections]) {
      if (!connection.alive) {
        this.deps.log.info({ address: connection.address }, 'socket did not answer ping');
        connection.socket.terminate();
        this.disconnect(connection);
        continue;
      }
      connection.alive = false;
      if (connection.socket.readyState === SOCKET_OPEN) connection.socket.ping();
    }
  }

  stats(): SocketStats {
    let subscriptions = 0;
    for (const connection of this.connections) subscriptions += connection.subscriptionCount;
    return { connections: this.connections.size, subscriptions, channels: this.fanouts.size };
  }

  /** Stops every pub/sub listener and forgets every connection (server shutdown). */
  close(): void {
    for (const connection of [...this.connections]) this.disconnect(connection);
  }

  subscribe(connection: Connection, requested: string): void {
    const channel = parseChannel(requested);
    // A market exists for the socket once its price has been published; order book and trade
    // channels of a priced market are accepted and stay silent until the exchange core publishes.
    if (!channel || this.deps.pubsub.latest(priceTopic(channel.market)) === undefined) {
      connection.sendError('UNKNOWN_CHANNEL', 'Unknown channel', requested);
      return;
    }
    if (!connection.isSubscribed(channel.name)) {
      if (connection.subscriptionCount >= this.limits.maxSubscriptionsPerConnection) {
        const limit = this.limits.maxSubscriptionsPerConnection;
        connection.sendError('TOO_MANY_SUBSCRIPTIONS', `At most ${limit} subscriptions per connection`, requested);
        return;
      }
      connection.startChannel(channel.name);
      this.addSubscriber(channel, connection);
    }
    // Subscribing again to a channel one holds is how a client that saw a gap resynchronises:
    // it gets a new snapshot and the sequence goes on.
    connection.sendOnChannel(channel.name, (seq) => ({ type: 'subscribed', channel: channel.name, seq }));
    const snapshot = this.deps.pubsub.latest(channel.name);
    if (snapshot !== undefined) {
      const payload = serialise(snapshot);
      if (payload !== undefined) connection.deliver(channel, payload, true);
    }
  }

  unsubscribe(connection: Connection, requested: string): void {
    const channel = parseChannel(requested);
    if (!channel) {
      connection.sendError('UNKNOWN_CHANNEL', 'Unknown channel', requested);
      return;
    }
    // Unsubscribing from a channel one does not hold is not an error: the outcome is the same.
    if (connection.stopChannel(channel.name)) this.removeSubscriber(channel.name, connection);
    connection.send({ type: 'unsubscribed', channel: channel.name });
  }

  private addSubscriber(channel: Channel, connection: Connection): void {
    let fanout = this.fanouts.get(channel.name);
    if (!fanout) {
      const subscribers = new Set<Connection>();
      const unsubscribe = this.deps.pubsub.subscribe(channel.name, (message) =>
        this.fanOut(channel, subscribers, message),
      );
      fanout = { channel, subscribers, unsubscribe };
      this.fanouts.set(channel.name, fanout);
    }
    fanout.subscribers.add(connection);
  }

  private removeSubscriber(name: string, connection: Connection): void {
    const fanout = this.fanouts.get(name);
    if (!fanout) return;
    fanout.subscribers.delete(connection);
    if (fanout.subscribers.size > 0) return;
    fanout.unsubscribe();
    this.fanouts.delete(name);
  }

  private fanOut(channel: Channel, subscribers: Set<Connection>, message: unknown): void {
    // Serialised once per publish, not once per subscriber: only the sequence number differs.
    const payload = serialise(message);
    if (payload === undefined) {
      this.deps.log.error({ channel: channel.name }, 'unserialisable message published');
      return;
    }
    for (const connection of subscribers) connection.deliver(channel, payload, false);
  }

  private refuse(socket: GatewaySocket, info: ConnectionInfo, reason: string): void {
    this.deps.log.warn({ address: info.address, reason }, 'socket refused');
    socket.close(SOCKET_CLOSE_CODES.tryAgainLater, reason);
  }
}

/** One client socket: its channels with their sequence numbers, its heartbeat and its budget. */
export class Connection {
  readonly address: string;
  readonly accountId: string | null;
  /** Cleared on each ping, set by the pong. */
  alive = true;
  /** Channel name -> the last sequence number sent on it (-1 before the first). */
  private readonly lastSeqByChannel = new Map<string, number>();
  private isClosed = false;
  private windowStartMs = Number.NEGATIVE_INFINITY;
  private messagesInWindow = 0;

  constructor(
    private readonly gateway: SocketGateway,
    readonly socket: GatewaySocket,
    info: ConnectionInfo,
    private readonly clock: () => Date,
  ) {
    this.address = info.address;
    this.accountId = info.accountId ?? null;
  }

  get subscriptionCount(): number {
    return this.lastSeqByChannel.size;
  }

  /** Whether the gateway has let go of it (closed, dropped or refused): frames are then ignored. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Marks it closed and returns the channels it held. */
  close(): string[] {
    this.isClosed = true;
    const names = [...this.lastSeqByChannel.keys()];
    this.lastSeqByChannel.clear();
    return names;
  }

  isSubscribed(name: string): boolean {
    return this.lastSeqByChannel.has(name);
  }

  startChannel(name: string): void {
    this.lastSeqByChannel.set(name, -1);
  }

  /** Returns whether the channel was held. */
  stopChannel(name: string): boolean {
    return this.lastSeqByChannel.delete(name);
  }

  /** The pong of a protocol ping. */
  pong(): void {
    this.alive = true;
  }

  /** One client frame: text, or undefined for a binary frame. Never throws, never closes. */
  receive(text: string | undefined): void {
    if (this.isClosed || !this.withinBudget()) return;
    if (text === undefined) {
      this.sendError('INVALID_MESSAGE', 'Send JSON text messages');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.sendError('INVALID_JSON', 'Message is not valid JSON');
      return;
    }
    const parsed = clientSocketMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.sendError('INVALID_MESSAGE', 'Expected {type: "subscribe" | "unsubscribe", channel} or {type: "ping"}');
      return;
    }
    const message = parsed.data;
    if (message.type === 'ping') this.send({ type: 'pong', timestamp: this.clock().getTime() });
    else if (message.type === 'subscribe') this.gateway.subscribe(this, message.channel);
    else this.gateway.unsubscribe(this, message.channel);
  }

  /** A channel event whose payload is already JSON text; takes the channel's next sequence number. */
  deliver(channel: Channel, payloadJson: string, snapshot: boolean): void {
    const seq = this.nextSeq(channel.name);
    if (seq === undefined) return;
    const head = `{"type":"${channel.updateType}","channel":${JSON.stringify(channel.name)},"seq":${seq}`;
    this.sendText(`${head}${snapshot ? ',"snapshot":true' : ''},"payload":${payloadJson}}`);
  }

  sendOnChannel(name: string, build: (seq: number) => ServerSocketMessage): void {
    const seq = this.nextSeq(name);
    if (seq !== undefined) this.send(build(seq));
  }

  sendError(code: SocketErrorCode, message: string, channel?: string): void {
    this.send({ type: 'error', ...(channel === undefined ? {} : { channel }), payload: { code, message } });
  }

  send(message: ServerSocketMessage): void {
    this.sendText(JSON.stringify(message));
  }

  private nextSeq(name: string): number | undefined {
    const last = this.lastSeqByChannel.get(name);
    if (last === undefined) return undefined;
    this.lastSeqByChannel.set(name, last + 1);
    return last + 1;
  }

  private sendText(text: string): void {
    if (this.socket.readyState !== SOCKET_OPEN) return;
    if (this.socket.bufferedAmount > this.gateway.limits.maxSendBufferBytes) {
      this.gateway.drop(this, SOCKET_CLOSE_CODES.tryAgainLater, 'slow consumer');
      return;
    }
    this.socket.send(text);
  }

  /** Counts a client message against the window; the first one over the budget gets an error. */
  private withinBudget(): boolean {
    const nowMs = this.clock().getTime();
    if (nowMs - this.windowStartMs >= this.gateway.limits.clientMessageWindowMs) {
      this.windowStartMs = nowMs;
      this.messagesInWindow = 0;
    }
    this.messagesInWindow += 1;
    const budget = this.gateway.limits.maxClientMessagesPerWindow;
    if (this.messagesInWindow <= budget) return true;
    if (this.messagesInWindow === budget + 1) this.sendError('RATE_LIMITED', 'Too many messages; slow down');
    return false;
  }
}

/** JSON text of a published message; undefined when it has none (undefined, a function, a cycle). */
function serialise(message: unknown): string | undefined {
  try {
    return JSON.stringify(message) as string | undefined;
  } catch {
    return undefined;
  }
}
