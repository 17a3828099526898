import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { type Connection, type GatewaySocket, SocketGateway } from './gateway.ts';
import { InProcessPubSub } from './pubsub.ts';

/**
 * A fuzz test of the product socket's resync, server side, tldraw style: random peers talk to a
 * real SocketGateway over fake sockets, while a reference market publishes on the pub/sub as the
 * exchange does (a retained price; order book deltas with a retained snapshot; order updates on
 * each account's topic, which have no snapshot and are read again over "HTTP"). The fuzzer drops
 * messages on the way to a peer, breaks connections, lets a peer's send buffer fill (the gateway
 * drops slow consumers), lets a peer miss a heartbeat, and has peers unsubscribe and subscribe.
 *
 * Each peer is a small reference client of the protocol in contracts/socket.ts: it checks each
 * channel's `seq`, and on a gap resubscribes (market channels: a fresh snapshot follows) or reads
 * its orders again. Checked after every step: every channel's `seq` as the gateway sent it counts
 * up by one (from 0 after each subscribe that starts it), and a peer's book at sequence S is the
 * market's book at S. After the network heals and the market moves once more, every peer holds the
 * market's price, book and its own orders. Seeds are deterministic; a failing seed becomes a named
 * test below.
 */

const PAIR = 'BTC_USD';
const PRICE = `price.${PAIR}`;
const BOOK = `orderbook.${PAIR}`;
const PEERS = 4;
const STEPS = 400;
const FUZZ_SEEDS = 30;
const ORDERS_PER_ACCOUNT = 3;
const OPEN = 1;

function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (max: number) => Math.floor(next() * max), chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof random>;

type Level = [string, string];
type BookPicture = { sequence: number; bids: Level[]; asks: Level[] };
type OrderView = { id: string; version: number; status: string; filled: string };
type Message = { type: string; channel?: string; seq?: number; snapshot?: boolean; payload?: any };

/** Lets a token check (a promise) finish, and the frames held behind it run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A socket that keeps what the gateway sent until the network carries it. */
class FakeSocket implements GatewaySocket {
  readyState = OPEN;
  bufferedAmount = 0;
  pings = 0;
  /** Everything the gateway sent, in order (what the checks read). */
  readonly sent: Message[] = [];
  /** What is still on the way to the peer. */
  readonly inFlight: Message[] = [];
  send(data: string): void {
    const message = JSON.parse(data) as Message;
    this.sent.push(message);
    this.inFlight.push(message);
  }
  ping(): void {
    this.pings += 1;
  }
  close(): void {
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
}

/** The reference market: what the exchange publishes, and its history by sequence. */
class Market {
  sequence = 0;
  published = 0;
  price = '100';
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  readonly history = new Map<number, { bids: Level[]; asks: Level[] }>([[0, { bids: [], asks: [] }]]);
  readonly orders = new Map<string, Map<string, OrderView>>();

  constructor(private readonly pubsub: InProcessPubSub) {
    pubsub.publish(PRICE, { symbol: 'BTC/USD', price: this.price }, { retain: true });
    pubsub.retain(BOOK, this.picture('snapshot'));
  }

  picture(kind: 'snapshot'): Record<string, unknown> {
    const levels = this.levels();
    return { trading_pair: PAIR, kind, sequence: this.sequence, prev_sequence: this.sequence, ...levels };
  }

  levels(): { bids: Level[]; asks: Level[] } {
    const sorted = (side: Map<string, string>, sign: number) =>
      [...side.entries()].sort((a, b) => sign * (Number(a[0]) - Number(b[0])));
    return { bids: sorted(this.bids, -1), asks: sorted(this.asks, 1) };
  }

  /** One command of the market (the sequence counts them all; some move no level). */
  bookCommand(rng: Random): void {
    this.sequence += 1;
    if (rng.chance(0.2)) {
      this.history.set(this.sequence, this.levels());
      return;
    }
    const side = rng.chance(0.5) ? 'bids' : 'asks';
    const price = `${side === 'bids' ? 90 + rng.int(10) : 101 + rng.int(10)}`;
    const quantity = rng.chance(0.3) ? '0' : String(1 + rng.int(9));
    if (quantity === '0') this[side].delete(price);
    else this[side].set(price, quantity);
    this.history.set(this.sequence, this.levels());
    const delta = {
      trading_pair: PAIR,
      kind: 'delta',
      sequence: this.sequence,
      prev_sequence: this.published,
      bids: side === 'bids' ? [[price, quantity]] : [],
      asks: side === 'asks' ? [[price, quantity]] : [],
    };
    this.published = this.sequence;
    // As the sequencer does: the delta goes out, the full picture is kept for late subscribers.
    this.pubsub.publish(BOOK, delta);
    this.pubsub.retain(BOOK, this.picture('snapshot'));
  }

  tick(rng: Random): void {
    this.price = String(90 + rng.int(20));
    this.pubsub.publish(PRICE, { symbol: 'BTC/USD', price: this.price }, { retain: true });
  }

  orderUpdate(rng: Random, accountId: string): void {
    let orders = this.orders.get(accountId);
    if (!orders) {
      orders = new Map();
      this.orders.set(accountId, orders);
    }
    const id = `${accountId}-order-${rng.int(ORDERS_PER_ACCOUNT)}`;
    const previous = orders.get(id);
    const order = {
      id,
      version: (previous?.version ?? 0) + 1,
      status: ['pending', 'partial', 'filled', 'cancelled'][rng.int(4)]!,
      filled: String(rng.int(100)),
    };
    orders.set(id, order);
    this.pubsub.publish(`account.${accountId}.orders`, order);
  }

  /** GET /orders of an account. */
  ordersOf(accountId: string): Map<string, OrderView> {
    return new Map([...(this.orders.get(accountId) ?? new Map<string, OrderView>())].map(([id, o]) => [id, { ...o }]));
  }
}

/** A reference client of the socket protocol. */
class Peer {
  socket: FakeSocket | null = null;
  connection: Connection | null = null;
  price: string | null = null;
  book: BookPicture | null = null;
  orders = new Map<string, OrderView>();
  /** Per channel: the last seq read, or null before 'subscribed'. */
  private readonly lastSeq = new Map<string, number | null>();
  /** Channels the peer wants (it unsubscribes now and then, and comes back). */
  readonly wanted = new Set([PRICE, BOOK, 'orders']);

  constructor(
    readonly accountId: string,
    private readonly gateway: SocketGateway,
    private readonly market: Market,
  ) {}

  get connected(): boolean {
    return (
      this.socket !== null && this.socket.readyState === OPEN && this.connection !== null && !this.connection.closed
    );
  }

  async connect(): Promise<void> {
    this.socket = new FakeSocket();
    this.connection = this.gateway.open(this.socket, { address: `10.0.0.${this.accountId.length}` }) ?? null;
    this.lastSeq.clear();
    this.send({ type: 'auth', token: `token-${this.accountId}` });
    for (const channel of this.wanted) this.subscribe(channel);
    await settle();
  }

  /** The client goes away (closed tab, lost network): the route tells the gateway. */
  disconnect(): void {
    if (this.connection) this.gateway.disconnect(this.connection);
    this.socket?.close();
  }

  subscribe(channel: string): void {
    this.wanted.add(channel);
    this.lastSeq.set(channel, null);
    this.send({ type: 'subscribe', channel });
  }

  unsubscribe(channel: string): void {
    this.wanted.delete(channel);
    this.lastSeq.delete(channel);
    this.send({ type: 'unsubscribe', channel });
  }

  send(message: unknown): void {
    if (this.connected) this.connection!.receive(JSON.stringify(message));
  }

  /** The network carries the next message (or loses it). */
  carry(drop: boolean): void {
    const message = this.socket?.inFlight.shift();
    if (message === undefined || drop) return;
    this.read(message);
  }

  private read(message: Message): void {
    const channel = message.channel;
    if (channel === undefined || !this.wanted.has(channel)) return;
    if (message.type === 'unsubscribed') return;
    if (message.type === 'subscribed') {
      this.lastSeq.set(channel, message.seq!);
      // Orders have no snapshot on the socket: read them once the channel is live.
      if (channel === 'orders') this.orders = this.market.ordersOf(this.accountId);
      return;
    }
    if (message.seq === undefined) return;
    const last = this.lastSeq.get(channel);
    this.lastSeq.set(channel, message.seq);
    // An event before the channel's 'subscribed' (lost on the way) counts as a gap too.
    if (last === null || last === undefined || message.seq !== last + 1) {
      this.resync(channel);
      return;
    }
    if (message.type === 'price_update') this.price = message.payload.price;
    else if (message.type === 'order_update') this.applyOrder(message.payload);
    else if (message.type === 'orderbook_update') this.applyBook(message.payload, message.snapshot === true);
  }

  private resync(channel: string): void {
    if (channel === 'orders') this.orders = this.market.ordersOf(this.accountId);
    else this.send({ type: 'subscribe', channel });
  }

  private applyOrder(order: OrderView): void {
    const known = this.orders.get(order.id);
    if (!known || known.version < order.version) this.orders.set(order.id, order);
  }

  private applyBook(update: BookPicture & { prev_sequence: number; kind: string }, snapshot: boolean): void {
    if (snapshot || update.kind === 'snapshot') {
      this.book = { sequence: update.sequence, bids: update.bids, asks: update.asks };
      return;
    }
    const book = this.book;
    if (book === null || update.sequence <= book.sequence) return;
    if (update.prev_sequence > book.sequence) {
      this.send({ type: 'subscribe', channel: BOOK });
      return;
    }
    const apply = (levels: Level[], changes: Level[], sign: number) => {
      const side = new Map(levels);
      for (const [price, quantity] of changes) {
        if (quantity === '0') side.delete(price);
        else side.set(price, quantity);
      }
      return [...side.entries()].sort((a, b) => sign * (Number(a[0]) - Number(b[0])));
    };
    this.book = {
      sequence: update.sequence,
      bids: apply(book.bids, update.bids, -1),
      asks: apply(book.asks, update.asks, 1),
    };
  }
}

/**
 * Every channel's seq, as the gateway sent it on one connection, counts up by one from 0. Reads
 * each socket's output once, from where the last check stopped.
 */
class SequenceCheck {
  private readonly read = new Map<FakeSocket, { index: number; last: Map<string, number> }>();

  check(socket: FakeSocket, where: string): void {
    let state = this.read.get(socket);
    if (!state) {
      state = { index: 0, last: new Map() };
      this.read.set(socket, state);
    }
    for (; state.index < socket.sent.length; state.index++) {
      const message = socket.sent[state.index]!;
      if (message.channel === undefined) continue;
      if (message.type === 'unsubscribed') {
        state.last.delete(message.channel);
        continue;
      }
      if (message.seq === undefined) continue;
      const expected = (state.last.get(message.channel) ?? -1) + 1;
      expect(message.seq, `${where}: seq on ${message.channel}`).toBe(expected);
      state.last.set(message.channel, message.seq);
    }
  }
}

async function runFuzz(seed: number): Promise<void> {
  const rng = random(seed);
  const pubsub = new InProcessPubSub();
  const market = new Market(pubsub);
  let nowMs = 1_700_000_000_000;
  const gateway = new SocketGateway({
    pubsub,
    clock: () => new Date(nowMs),
    log: pino({ level: 'silent' }),
    // A small send buffer: a peer that stops reading is over it at the next message, and is dropped.
    limits: { maxSendBufferBytes: 1024 },
    verifyToken: async (token) => ({ ok: true, accountId: token.replace(/^token-/, '') }),
  });
  const peers = Array.from(
    { length: PEERS },
    (_, index) => new Peer(`00000000-0000-4000-8000-00000000000${index}`, gateway, market),
  );
  for (const peer of peers) await peer.connect();
  const sockets: FakeSocket[] = peers.map((peer) => peer.socket!);
  const sequences = new SequenceCheck();

  for (let step = 0; step < STEPS; step++) {
    const peer = peers[rng.int(PEERS)]!;
    const roll = rng.next();
    if (roll < 0.15) market.bookCommand(rng);
    else if (roll < 0.2) market.tick(rng);
    else if (roll < 0.27) market.orderUpdate(rng, peer.accountId);
    else if (roll < 0.62) peer.carry(false);
    else if (roll < 0.68) peer.carry(true);
    else if (roll < 0.71) peer.disconnect();
    else if (roll < 0.74) {
      // The peer stops reading: its send buffer fills and the gateway drops it as a slow consumer.
      if (peer.socket) peer.socket.bufferedAmount = 1_000_000;
    } else if (roll < 0.8) {
      if (!peer.connected) {
        await peer.connect();
        sockets.push(peer.socket!);
      }
    } else if (roll < 0.83) {
      // A heartbeat: peers answer the ping, except now and then one that has vanished.
      gateway.heartbeat();
      for (const other of peers) if (other.connected && rng.chance(0.9)) other.connection!.pong();
    } else if (roll < 0.86) {
      const channel = [PRICE, BOOK, 'orders'][rng.int(3)]!;
      if (peer.wanted.has(channel)) peer.unsubscribe(channel);
      else peer.subscribe(channel);
    } else {
      nowMs += rng.int(2_000);
    }
    await settle();
    for (const [index, socket] of sockets.entries())
      sequences.check(socket, `seed ${seed} step ${step} socket ${index}`);
    for (const [index, other] of peers.entries()) {
      if (other.book === null) continue;
      expect(other.book.sequence, `seed ${seed} step ${step}: peer ${index} ahead`).toBeLessThanOrEqual(
        market.sequence,
      );
      expect({ bids: other.book.bids, asks: other.book.asks }, `seed ${seed} step ${step}: peer ${index} book`).toEqual(
        market.history.get(other.book.sequence),
      );
    }
  }

  // The network heals: every peer is connected and wants every channel, and everything arrives.
  for (const peer of peers) {
    if (!peer.connected) {
      await peer.connect();
      sockets.push(peer.socket!);
    }
    peer.socket!.bufferedAmount = 0;
    for (const channel of [PRICE, BOOK, 'orders']) if (!peer.wanted.has(channel)) peer.subscribe(channel);
  }
  const deliverAll = async () => {
    for (let round = 0; round < 5; round++) {
      await settle();
      for (const peer of peers) while ((peer.socket?.inFlight.length ?? 0) > 0) peer.carry(false);
    }
  };
  await deliverAll();
  // The market moves once more: a peer that missed the last message of a channel sees the gap now.
  do market.bookCommand(rng);
  while (market.published !== market.sequence);
  market.tick(rng);
  for (const peer of peers) market.orderUpdate(rng, peer.accountId);
  await deliverAll();

  for (const [index, peer] of peers.entries()) {
    const where = `seed ${seed}: peer ${index}`;
    expect(peer.connected, `${where} connected`).toBe(true);
    expect(peer.price, `${where} price`).toBe(market.price);
    expect(peer.book, `${where} book`).toEqual({ sequence: market.sequence, ...market.levels() });
    expect(peer.orders, `${where} orders`).toEqual(market.ordersOf(peer.accountId));
  }
  gateway.close();
}

describe('socket resync, fuzzed against the real gateway', () => {
  it(`every peer converges to the market's price, book and orders (seeds 1..${FUZZ_SEEDS})`, async () => {
    for (let seed = 1; seed <= FUZZ_SEEDS; seed++) await runFuzz(seed);
  });

  // Named seeds. No seed has failed against the gateway yet; this one caught deliberately broken
  // gateways while the fuzzer was written (one that restarted a channel's seq on a resubscribe, one
  // that sent no snapshot on it) and stays as the regression test of the resync path.
  it('seed 1: a resubscribe after a gap keeps the seq going and brings a fresh snapshot', async () => {
    await runFuzz(1);
  });
});
