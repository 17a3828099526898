import type { OrderBookView } from '@platform/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, FakeWebSocketServer } from './fake-web-socket.ts';
import { OrderBookFeed } from './order-book-feed.ts';
import { ProductSocket } from './product-socket.ts';

/**
 * A fuzz test of the order book's resync, tldraw style: several peers (each a ProductSocket and an
 * OrderBookFeed, the client code as it runs in the browser) follow one market of a reference server
 * over fake sockets that the fuzzer drives from a seed. It drops, reorders and duplicates messages,
 * breaks connections (the client reconnects with its back-off), answers or fails the HTTP snapshot
 * requests late, and lets time pass (resync timeouts, polling). The server speaks the socket
 * protocol of contracts/socket.ts: a subscribe is answered with 'subscribed' and a snapshot; every
 * change of the book is a delta from prev_sequence to sequence, and the sequence counts every
 * command of the market, not only those that move the book.
 *
 * After every step, a peer's picture at sequence S must be the server's book at S (never ahead,
 * never a mix). Then the network heals, the server makes one more change, and every peer must
 * converge to the server's book. Seeds are deterministic; a failing seed becomes a named test below.
 */

const PAIR = 'BTC_USD';
const CHANNEL = `orderbook.${PAIR}`;
const STEPS = 300;
const PEERS = 3;
const FUZZ_SEEDS = 40;

/** mulberry32: a small seeded generator, so a seed replays the same run. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    chance: (p: number) => next() < p,
  };
}

type Levels = Map<string, string>;
type Book = { bids: Levels; asks: Levels };
type Level = [string, string];

const sorted = (levels: Levels, side: 'bids' | 'asks'): Level[] =>
  [...levels.entries()].sort((a, b) => (side === 'bids' ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0])));

/** The reference server: one market's book, its history by sequence, and each connection's outbox. */
class ReferenceServer {
  book: Book = { bids: new Map(), asks: new Map() };
  sequence = 0;
  /** The sequence of the last published delta (the next one's prev_sequence). */
  published = 0;
  readonly history = new Map<number, { bids: Level[]; asks: Level[] }>([[0, { bids: [], asks: [] }]]);
  readonly connections = new Map<
    FakeWebSocket,
    { read: number; subscribed: boolean; outbox: unknown[]; seq: number }
  >();

  /** One command of the market: most move one level, some move nothing (the sequence moves anyway). */
  command(rng: ReturnType<typeof random>): void {
    this.sequence += 1;
    if (rng.chance(0.25)) {
      this.remember();
      return;
    }
    const side = rng.chance(0.5) ? 'bids' : 'asks';
    const price = `${side === 'bids' ? 90 + rng.int(10) : 101 + rng.int(10)}.00`;
    const quantity = rng.chance(0.3) ? '0' : String(1 + rng.int(9));
    if (quantity === '0') this.book[side].delete(price);
    else this.book[side].set(price, quantity);
    this.remember();
    const delta = {
      trading_pair: PAIR,
      kind: 'delta' as const,
      sequence: this.sequence,
      prev_sequence: this.published,
      bids: side === 'bids' ? [[price, quantity]] : [],
      asks: side === 'asks' ? [[price, quantity]] : [],
      timestamp: 1_700_000_000_000 + this.sequence,
    };
    this.published = this.sequence;
    for (const connection of this.connections.values()) {
      if (connection.subscribed) connection.outbox.push(this.event(connection, delta, false));
    }
  }

  view(): OrderBookView {
    return {
      trading_pair: PAIR,
      symbol: 'BTC/USD',
      sequence: this.sequence,
      bids: sorted(this.book.bids, 'bids'),
      asks: sorted(this.book.asks, 'asks'),
      timestamp: 1_700_000_000_000 + this.sequence,
    };
  }

  /** Reads what each open connection sent: a subscribe is answered with 'subscribed' and a snapshot. */
  readClients(): void {
    for (const [socket, connection] of this.connections) {
      if (socket.readyState !== FakeWebSocket.OPEN) continue;
      for (const message of socket.sent.slice(connection.read) as { type: string; channel?: string }[]) {
        if (message.type === 'subscribe' && message.channel === CHANNEL) {
          connection.subscribed = true;
          connection.outbox.push({ type: 'subscribed', channel: CHANNEL, seq: connection.seq });
          const { symbol: _symbol, ...view } = this.view();
          connection.outbox.push(
            this.event(connection, { ...view, kind: 'snapshot', prev_sequence: this.sequence }, true),
          );
        } else if (message.type === 'unsubscribe' && message.channel === CHANNEL) {
          connection.subscribed = false;
        } else if (message.type === 'ping') {
          connection.outbox.push({ type: 'pong', timestamp: 0 });
        }
      }
      connection.read = socket.sent.length;
    }
  }

  private event(connection: { seq: number }, payload: unknown, snapshot: boolean) {
    connection.seq += 1;
    return {
      type: 'orderbook_update',
      channel: CHANNEL,
      seq: connection.seq,
      ...(snapshot ? { snapshot: true } : {}),
      payload,
    };
  }

  private remember(): void {
    const view = this.view();
    this.history.set(this.sequence, { bids: view.bids, asks: view.asks });
  }
}

type Peer = {
  sockets: FakeWebSocketServer;
  socket: ProductSocket;
  feed: OrderBookFeed;
  http: { resolve: () => void; reject: () => void }[];
};

function picture(feed: OrderBookFeed) {
  feed.flush();
  const current = feed.getPicture();
  const levels = (side: readonly { price: string; quantity: string }[]): Level[] =>
    side.map((level) => [level.price, level.quantity]);
  return { sequence: current.sequence, bids: levels(current.bids), asks: levels(current.asks) };
}

/** A peer's picture must be the server's book as it stood at the picture's sequence. */
function expectConsistent(server: ReferenceServer, peers: Peer[], where: string): void {
  for (const [index, peer] of peers.entries()) {
    const seen = picture(peer.feed);
    if (seen.sequence === null) continue;
    expect(seen.sequence, `${where}: peer ${index} ahead of the server`).toBeLessThanOrEqual(server.sequence);
    expect({ bids: seen.bids, asks: seen.asks }, `${where}: peer ${index} at ${seen.sequence}`).toEqual(
      server.history.get(seen.sequence),
    );
  }
}

/** Delivers one message of a connection's outbox: the next one, or (reordered) any one. */
function deliver(socket: FakeWebSocket, outbox: unknown[], index: number): void {
  const [message] = outbox.splice(index, 1);
  if (socket.readyState === FakeWebSocket.OPEN && message !== undefined) socket.receive(message);
}

async function runFuzz(seed: number): Promise<void> {
  const rng = random(seed);
  const server = new ReferenceServer();
  const logger = { warn: () => {} };
  const peers: Peer[] = [];
  for (let i = 0; i < PEERS; i++) {
    const sockets = new FakeWebSocketServer();
    const http: Peer['http'] = [];
    const fetchSnapshot = () =>
      new Promise<OrderBookView>((resolve, reject) => {
        // The server answers when the fuzzer lets it, with the book as it is then.
        http.push({ resolve: () => resolve(server.view()), reject: () => reject(new Error('HTTP failed')) });
      });
    const create = (url: string) => {
      const socket = sockets.create(url);
      server.connections.set(socket, { read: 0, subscribed: false, outbox: [], seq: 0 });
      return socket;
    };
    const socket = new ProductSocket({ url: () => 'ws://test/ws', createSocket: create, logger });
    const feed = new OrderBookFeed({
      pairId: PAIR,
      socket,
      fetchSnapshot,
      schedule: () => () => {},
      logger,
    });
    feed.retain();
    peers.push({ sockets, socket, feed, http });
  }
  const connectionsOf = (peer: Peer) =>
    peer.sockets.sockets.map((socket) => ({ socket, connection: server.connections.get(socket)! }));

  for (let step = 0; step < STEPS; step++) {
    const peer = peers[rng.int(PEERS)]!;
    const live = connectionsOf(peer).filter(({ socket }) => socket.readyState === FakeWebSocket.OPEN);
    const current = live.at(-1);
    const roll = rng.next();
    if (roll < 0.25) {
      server.command(rng);
    } else if (roll < 0.55) {
      if (current && current.connection.outbox.length > 0) deliver(current.socket, current.connection.outbox, 0);
    } else if (roll < 0.62) {
      // Reordered: a later message overtakes the ones before it.
      if (current && current.connection.outbox.length > 0)
        deliver(current.socket, current.connection.outbox, rng.int(current.connection.outbox.length));
    } else if (roll < 0.68) {
      // Dropped: a gap in the sequence.
      if (current && current.connection.outbox.length > 0)
        current.connection.outbox.splice(rng.int(current.connection.outbox.length), 1);
    } else if (roll < 0.71) {
      // Duplicated.
      const message = current?.connection.outbox[0];
      if (current && message !== undefined) current.connection.outbox.splice(1, 0, message);
    } else if (roll < 0.74) {
      // The connection breaks; the client reconnects after its back-off.
      if (current) current.socket.dropWith(1006);
    } else if (roll < 0.8) {
      const connecting = peer.sockets.sockets.filter((socket) => socket.readyState === FakeWebSocket.CONNECTING);
      const opening = connecting.at(-1);
      if (opening) {
        if (rng.chance(0.8)) opening.acceptOpen();
        else opening.dropWith(1006);
      }
    } else if (roll < 0.86) {
      const request = peer.http.splice(rng.int(peer.http.length), 1)[0];
      if (request) {
        if (rng.chance(0.85)) request.resolve();
        else request.reject();
      }
    } else {
      await vi.advanceTimersByTimeAsync(rng.int(4_000));
    }
    server.readClients();
    await vi.advanceTimersByTimeAsync(0);
    expectConsistent(server, peers, `seed ${seed} step ${step}`);
  }

  // The network heals: every connection opens, every message arrives in order, HTTP answers.
  server.command(rng);
  for (let round = 0; round < 20; round++) {
    for (const peer of peers) {
      if (peer.socket.status === 'failed') peer.socket.reconnect();
      for (const socket of peer.sockets.sockets)
        if (socket.readyState === FakeWebSocket.CONNECTING) socket.acceptOpen();
      server.readClients();
      for (const { socket, connection } of connectionsOf(peer)) {
        while (connection.outbox.length > 0) deliver(socket, connection.outbox, 0);
      }
      for (const request of peer.http.splice(0)) request.resolve();
    }
    await vi.advanceTimersByTimeAsync(1_000);
    server.readClients();
  }
  // One more change, delivered to all: a peer that missed the last one sees the gap now.
  server.command(rng);
  while (server.published !== server.sequence) server.command(rng);
  for (let round = 0; round < 10; round++) {
    server.readClients();
    for (const peer of peers) {
      for (const { socket, connection } of connectionsOf(peer)) {
        while (connection.outbox.length > 0) deliver(socket, connection.outbox, 0);
      }
      for (const request of peer.http.splice(0)) request.resolve();
    }
    await vi.advanceTimersByTimeAsync(4_000);
  }
  const truth = server.view();
  for (const [index, peer] of peers.entries()) {
    expect(picture(peer.feed), `seed ${seed}: peer ${index} converged`).toEqual({
      sequence: truth.sequence,
      bids: truth.bids,
      asks: truth.asks,
    });
  }
}

describe('order book resync, fuzzed', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`every peer converges to the server's book (seeds 1..${FUZZ_SEEDS})`, async () => {
    for (let seed = 1; seed <= FUZZ_SEEDS; seed++) await runFuzz(seed);
  });

  // Named seeds. No seed has failed against the product code yet; these two caught deliberately
  // broken clients while the fuzzer was written, and stay as regression tests of those paths.

  it('seed 1: a delta whose prev_sequence is past the picture is a gap, never applied', async () => {
    // Caught a client that applied deltas across a gap (order-book.ts without its 'gap' check).
    await runFuzz(1);
  });

  it('seed 6: a resubscribe whose snapshot is lost falls back to HTTP after the resync timeout', async () => {
    // Caught a client whose resync waited forever for a snapshot the network dropped.
    await runFuzz(6);
  });
});
