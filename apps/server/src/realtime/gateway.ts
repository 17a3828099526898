import {
  clientSocketMessageSchema,
  type ServerSocketMessage,
  SOCKET_CLOSE_CODES,
  SOCKET_PROTOCOL_VERSION,
  type SocketErrorCode,
  type SocketStats,
} from '@platform/contracts';
import type { Logger } from '../logger.ts';
import { type Channel, channelTopic, markTopic, parseChannel, priceTopic } from './channels.ts';
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

/** What an access token proves: an account, or why not. */
export type TokenCheck =
  /** expiresAtMs: when the token stops being valid; the connection's user channels end then. */
  { ok: true; accountId: string; expiresAtMs?: number } | { ok: false; reason: 'expired' | 'invalid' };

export type GatewayDeps = {
  pubsub: PubSub;
  clock: () => Date;
  log: Logger;
  limits?: Partial<SocketLimits>;
  /**
   * Checks an access token the way the HTTP guard does. Without one (unit tests of the public
   * channels), every authentication is refused.
   */
  verifyToken?: (token: string) => Promise<TokenCheck>;
};

export type ConnectionInfo = {
  /** The client's address (behind a trusted proxy, the forwarded one). */
  address: string;
  /** An account already proven by the caller (tests); sockets otherwise start anonymous. */
  accountId?: string | null;
};

/** One pub/sub listener per topic, shared by every connection subscribed to it. */
type Fanout = { channel: Channel; subscribers: Set<Connection>; unsubscribe: () => void };

const TOKEN_REFUSALS: Record<Extract<TokenCheck, { ok: false }>['reason'], string> = {
  expired: 'Access token expired',
  invalid: 'Invalid access token',
};

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
  /** Authenticated connections per account (maxConnectionsPerAccount). */
  private readonly connectionsByAccount = new Map<string, number>();
  /** Channels held per client address, over all its connections (maxSubscriptionsPerIp). */
  private readonly subscriptionsByAddress = new Map<string, number>();
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
    if (connection.accountId !== null) countUp(this.connectionsByAccount, connection.accountId);
    connection.send({ type: 'welcome', version: SOCKET_PROTOCOL_VERSION });
    return connection;
  }

  /** Forgets a connection and its subscriptions. Called on close; safe to call twice. */
  disconnect(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    this.releaseAccount(connection);
    const topics = connection.close();
    for (const topic of topics) this.removeSubscriber(topic, connection);
    countDown(this.subscriptionsByAddress, connection.address, topics.length);
    countDown(this.connectionsByAddress, connection.address, 1);
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
    const nowMs = this.deps.clock().getTime();
    for (const connection of [...this.connections]) {
      if (connection.accountId !== null && connection.authExpiresAtMs !== null && nowMs >= connection.authExpiresAtMs) {
        this.endSession(connection);
      }
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
    if (!channel || (channel.scope === 'market' && !this.knowsMarket(channel.name, channel.market))) {
      connection.sendError('UNKNOWN_CHANNEL', 'Unknown channel', requested);
      return;
    }
    const accountId = connection.accountId;
    if (channel.scope === 'user' && accountId === null) {
      connection.sendError('UNAUTHORIZED', `Authenticate before subscribing to ${channel.name}`, requested);
      return;
    }
    const topic = channelTopic(channel, accountId ?? '');
    if (!connection.isSubscribed(channel.name)) {
      const refusal = this.subscriptionRefusal(connection);
      if (refusal !== undefined) {
        connection.sendError('TOO_MANY_SUBSCRIPTIONS', refusal, requested);
        return;
      }
      connection.startChannel(channel, topic);
      this.addSubscriber(channel, topic, connection);
      countUp(this.subscriptionsByAddress, connection.address);
    }
    // Subscribing again to a channel one holds is how a client that saw a gap resynchronises:
    // it gets a new snapshot and the sequence goes on.
    connection.sendOnChannel(channel.name, (seq) => ({ type: 'subscribed', channel: channel.name, seq }));
    // User channels have no snapshot: their state is loaded over HTTP, and a retained message
    // per account would keep memory for every account that ever traded.
    if (channel.scope === 'user') return;
    const snapshot = this.deps.pubsub.latest(topic);
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
    this.stopChannel(connection, channel.name);
    connection.send({ type: 'unsubscribed', channel: channel.name });
  }

  /** Why a connection may not hold one more channel, or undefined when it may. */
  private subscriptionRefusal(connection: Connection): string | undefined {
    const { maxSubscriptionsPerConnection, maxSubscriptionsPerIp } = this.limits;
    if (connection.subscriptionCount >= maxSubscriptionsPerConnection) {
      return `At most ${maxSubscriptionsPerConnection} subscriptions per connection`;
    }
    if ((this.subscriptionsByAddress.get(connection.address) ?? 0) >= maxSubscriptionsPerIp) {
      return `At most ${maxSubscriptionsPerIp} subscriptions per address`;
    }
    return undefined;
  }

  private stopChannel(connection: Connection, name: string): void {
    const topic = connection.stopChannel(name);
    if (topic === undefined) return;
    this.removeSubscriber(topic, connection);
    countDown(this.subscriptionsByAddress, connection.address, 1);
  }

  /**
   * Proves the connection's account with an access token. A refused token leaves the connection as
   * it was (anonymous, or still the account it proved before). Switching to another account first
   * drops the previous account's user channels, so that no event of one account reaches a
   * connection that now speaks for another.
   */
  async authenticate(connection: Connection, token: string): Promise<void> {
    const check = await this.checkToken(token);
    if (connection.closed) return;
    if (!check.ok) {
      connection.sendError('UNAUTHORIZED', TOKEN_REFUSALS[check.reason]);
      return;
    }
    if (connection.accountId !== check.accountId && !this.claimAccount(connection, check.accountId)) return;
    connection.authExpiresAtMs = check.expiresAtMs ?? null;
    connection.send({ type: 'authenticated', account_id: check.accountId });
  }

  /**
   * Moves a connection to an account, within the account's connection limit; past it the
   * connection is closed (1013), as a connection past its address's limit is.
   */
  private claimAccount(connection: Connection, accountId: string): boolean {
    if ((this.connectionsByAccount.get(accountId) ?? 0) >= this.limits.maxConnectionsPerAccount) {
      this.deps.log.warn({ address: connection.address, accountId }, 'socket refused: too many for the account');
      connection.socket.close(SOCKET_CLOSE_CODES.tryAgainLater, 'too many connections for this account');
      this.disconnect(connection);
      return false;
    }
    if (connection.accountId !== null) this.dropUserChannels(connection);
    this.releaseAccount(connection);
    connection.accountId = accountId;
    countUp(this.connectionsByAccount, accountId);
    return true;
  }

  private releaseAccount(connection: Connection): void {
    if (connection.accountId === null) return;
    countDown(this.connectionsByAccount, connection.accountId, 1);
    connection.accountId = null;
  }

  private dropUserChannels(connection: Connection): void {
    for (const name of connection.userChannelNames()) {
      this.stopChannel(connection, name);
      connection.send({ type: 'unsubscribed', channel: name });
    }
  }

  /**
   * The token a connection proved its account with has expired: its user channels end and it is
   * anonymous again, until it sends a fresh token ({type: 'auth'}). Public channels go on.
   */
  private endSession(connection: Connection): void {
    this.dropUserChannels(connection);
    this.releaseAccount(connection);
    connection.authExpiresAtMs = null;
    connection.sendError('UNAUTHORIZED', TOKEN_REFUSALS.expired);
  }

  private async checkToken(token: string): Promise<TokenCheck> {
    if (!this.deps.verifyToken) return { ok: false, reason: 'invalid' };
    try {
      return await this.deps.verifyToken(token);
    } catch (error) {
      this.deps.log.error({ err: error }, 'socket token check failed');
      return { ok: false, reason: 'invalid' };
    }
  }

  /**
   * A market exists for the socket once its price (a perpetual: its mark) has been published, or
   * (for an exchange market the price feed does not cover) once the channel itself has a retained
   * snapshot. Order book and trade channels of a known market are accepted and stay silent until
   * the exchange core publishes.
   */
  private knowsMarket(name: string, market: string): boolean {
    const { pubsub } = this.deps;
    return (
      pubsub.latest(priceTopic(market)) !== undefined ||
      pubsub.latest(markTopic(market)) !== undefined ||
      pubsub.latest(name) !== undefined
    );
  }

  private addSubscriber(channel: Channel, topic: string, connection: Connection): void {
    let fanout = this.fanouts.get(topic);
    if (!fanout) {
      const subscribers = new Set<Connection>();
      const unsubscribe = this.deps.pubsub.subscribe(topic, (message) => this.fanOut(channel, subscribers, message));
      fanout = { channel, subscribers, unsubscribe };
      this.fanouts.set(topic, fanout);
    }
    fanout.subscribers.add(connection);
  }

  private removeSubscriber(topic: string, connection: Connection): void {
    const fanout = this.fanouts.get(topic);
    if (!fanout) return;
    fanout.subscribers.delete(connection);
    if (fanout.subscribers.size > 0) return;
    fanout.unsubscribe();
    this.fanouts.delete(topic);
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

/** A channel a connection holds: the topic it listens on and the last sequence number sent. */
type Held = { scope: Channel['scope']; topic: string; lastSeq: number };

/** One client socket: its channels with their sequence numbers, its heartbeat and its budget. */
export class Connection {
  readonly address: string;
  /** The account this connection has proven with a token; null while anonymous. */
  accountId: string | null;
  /** When the token behind accountId expires (unix ms); null when unknown or anonymous. */
  authExpiresAtMs: number | null = null;
  /** Cleared on each ping, set by the pong. */
  alive = true;
  /** Channel name -> its topic and the last sequence number sent on it (-1 before the first). */
  private readonly channels = new Map<string, Held>();
  private isClosed = false;
  private windowStartMs = Number.NEGATIVE_INFINITY;
  private messagesInWindow = 0;
  /** Set while a token is being checked: frames wait for its outcome, so they are read in order. */
  private authenticating = false;
  private readonly heldFrames: Array<string | undefined> = [];

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
    return this.channels.size;
  }

  /** Whether the gateway has let go of it (closed, dropped or refused): frames are then ignored. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Marks it closed and returns the topics of the channels it held. */
  close(): string[] {
    this.isClosed = true;
    this.heldFrames.length = 0;
    const topics = [...this.channels.values()].map((held) => held.topic);
    this.channels.clear();
    return topics;
  }

  isSubscribed(name: string): boolean {
    return this.channels.has(name);
  }

  startChannel(channel: Channel, topic: string): void {
    this.channels.set(channel.name, { scope: channel.scope, topic, lastSeq: -1 });
  }

  /** Returns the topic of the channel, undefined when it was not held. */
  stopChannel(name: string): string | undefined {
    const held = this.channels.get(name);
    this.channels.delete(name);
    return held?.topic;
  }

  userChannelNames(): string[] {
    return [...this.channels].filter(([, held]) => held.scope === 'user').map(([name]) => name);
  }

  /** The pong of a protocol ping. */
  pong(): void {
    this.alive = true;
  }

  /** One client frame: text, or undefined for a binary frame. Never throws, never closes. */
  receive(text: string | undefined): void {
    if (this.isClosed || !this.withinBudget()) return;
    if (this.authenticating) {
      if (this.heldFrames.length < this.gateway.limits.maxFramesHeldDuringAuth) this.heldFrames.push(text);
      else this.sendError('RATE_LIMITED', 'Too many messages while authenticating; slow down');
      return;
    }
    this.handle(text);
  }

  /**
   * Checks a token (from the connect URL or an auth message). Frames that arrive meanwhile are
   * handled after it, in order: a subscribe sent right behind an auth sees the new account.
   */
  async authenticate(token: string): Promise<void> {
    this.authenticating = true;
    try {
      await this.gateway.authenticate(this, token);
    } finally {
      this.authenticating = false;
      // A held frame may itself be an auth: it holds the rest again, and its own end goes on.
      while (!this.authenticating && !this.isClosed && this.heldFrames.length > 0) this.handle(this.heldFrames.shift());
    }
  }

  private handle(text: string | undefined): void {
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
      this.sendError(
        'INVALID_MESSAGE',
        'Expected {type: "subscribe" | "unsubscribe", channel}, {type: "auth", token} or {type: "ping"}',
      );
      return;
    }
    const message = parsed.data;
    if (message.type === 'ping') this.send({ type: 'pong', timestamp: this.clock().getTime() });
    else if (message.type === 'subscribe') this.gateway.subscribe(this, message.channel);
    else if (message.type === 'unsubscribe') this.gateway.unsubscribe(this, message.channel);
    else void this.authenticate(message.token);
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
    const held = this.channels.get(name);
    if (held === undefined) return undefined;
    held.lastSeq += 1;
    return held.lastSeq;
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

function countUp(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Lowers a count, forgetting the key at zero so that the map holds only live clients. */
function countDown(counts: Map<string, number>, key: string, by: number): void {
  const remaining = (counts.get(key) ?? by) - by;
  if (remaining > 0) counts.set(key, remaining);
  else counts.delete(key);
}

/** JSON text of a published message; undefined when it has none (undefined, a function, a cycle). */
function serialise(message: unknown): string | undefined {
  try {
    return JSON.stringify(message) as string | undefined;
  } catch {
    return undefined;
  }
}
