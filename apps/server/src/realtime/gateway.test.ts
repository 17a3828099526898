import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { type GatewaySocket, SocketGateway, type TokenCheck } from './gateway.ts';
import type { SocketLimits } from './limits.ts';
import { InProcessPubSub } from './pubsub.ts';

/** A socket that records what the gateway does to it. */
class FakeSocket implements GatewaySocket {
  readyState = 1;
  bufferedAmount = 0;
  pings = 0;
  terminated = false;
  closedWith: { code: number | undefined; reason: string | undefined } | undefined;
  readonly sent: any[] = [];

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  ping(): void {
    this.pings += 1;
  }
  close(code?: number, reason?: string): void {
    this.readyState = 2;
    this.closedWith = { code, reason };
  }
  terminate(): void {
    this.readyState = 3;
    this.terminated = true;
  }
  /** Messages sent since the last call. */
  drain(): any[] {
    return this.sent.splice(0);
  }
}

function setup(limits: Partial<SocketLimits> = {}, verifyToken?: (token: string) => Promise<TokenCheck>) {
  const pubsub = new InProcessPubSub();
  let nowMs = 1_700_000_000_000;
  const clock = {
    now: () => new Date(nowMs),
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
  const gateway = new SocketGateway({
    pubsub,
    clock: clock.now,
    log: pino({ level: 'silent' }),
    limits,
    ...(verifyToken ? { verifyToken } : {}),
  });
  const open = (address = '10.0.0.1') => {
    const socket = new FakeSocket();
    const connection = gateway.open(socket, { address });
    socket.drain();
    return { socket, connection };
  };
  pubsub.publish('price.BTC_USD', { price: '1' }, { retain: true });
  return { pubsub, clock, gateway, open };
}

describe('SocketGateway', () => {
  it('welcomes a connection', () => {
    const { gateway } = setup();
    const socket = new FakeSocket();
    gateway.open(socket, { address: '10.0.0.1' });
    expect(socket.sent).toEqual([{ type: 'welcome', version: 1 }]);
  });

  it('refuses connections past the per-address and the total limit with 1013', () => {
    const { gateway, open } = setup({ maxConnectionsPerIp: 2, maxConnections: 3 });
    expect(open('10.0.0.1').connection).toBeDefined();
    expect(open('10.0.0.1').connection).toBeDefined();
    const third = open('10.0.0.1');
    expect(third.connection).toBeUndefined();
    expect(third.socket.closedWith).toEqual({ code: 1013, reason: 'too many connections' });
    const other = open('10.0.0.2');
    expect(other.connection).toBeDefined();
    const overflow = open('10.0.0.3');
    expect(overflow.socket.closedWith).toEqual({ code: 1013, reason: 'server full' });
    expect(gateway.stats().connections).toBe(3);

    // A closed connection frees its place for its address.
    gateway.disconnect(other.connection!);
    expect(open('10.0.0.3').connection).toBeDefined();
  });

  it('pings every connection and terminates the ones that did not answer the previous ping', () => {
    const { gateway, open } = setup();
    const answering = open();
    const silent = open();
    gateway.heartbeat();
    expect([answering.socket.pings, silent.socket.pings]).toEqual([1, 1]);
    answering.connection!.pong();
    gateway.heartbeat();
    expect(answering.socket.terminated).toBe(false);
    expect(answering.socket.pings).toBe(2);
    expect(silent.socket.terminated).toBe(true);
    expect(gateway.stats().connections).toBe(1);
  });

  it('drops a slow consumer with 1013 and stops all work for it', () => {
    const { gateway, pubsub, open } = setup({ maxSendBufferBytes: 1000 });
    const { socket, connection } = open();
    connection!.receive(JSON.stringify({ type: 'subscribe', channel: 'price.BTC_USD' }));
    expect(socket.drain()).toHaveLength(2);
    socket.bufferedAmount = 1001;
    pubsub.publish('price.BTC_USD', { price: '2' });
    expect(socket.closedWith).toEqual({ code: 1013, reason: 'slow consumer' });
    expect(socket.drain()).toEqual([]);
    expect(gateway.stats()).toEqual({ connections: 0, subscriptions: 0, channels: 0 });
    // Frames still arriving before the close completes are ignored.
    connection!.receive(JSON.stringify({ type: 'subscribe', channel: 'price.BTC_USD' }));
    expect(gateway.stats().channels).toBe(0);
  });

  it('keeps one pub/sub listener per channel and releases it with the last subscriber', () => {
    const { gateway, pubsub, open } = setup();
    const a = open();
    const b = open();
    for (const { connection } of [a, b]) {
      connection!.receive(JSON.stringify({ type: 'subscribe', channel: 'price.BTC_USD' }));
    }
    expect(gateway.stats()).toEqual({ connections: 2, subscriptions: 2, channels: 1 });
    let listeners = 0;
    const counting = pubsub.subscribe('price.BTC_USD', () => {
      listeners += 1;
    });
    gateway.disconnect(a.connection!);
    gateway.disconnect(b.connection!);
    expect(gateway.stats()).toEqual({ connections: 0, subscriptions: 0, channels: 0 });
    pubsub.publish('price.BTC_USD', { price: '3' });
    expect(listeners).toBe(1);
    expect(b.socket.drain().filter((message) => message.payload?.price === '3')).toEqual([]);
    counting();
  });

  it('ignores client messages past the budget of the window, with one RATE_LIMITED error', () => {
    const { clock, open } = setup({ maxClientMessagesPerWindow: 3, clientMessageWindowMs: 1_000 });
    const { socket, connection } = open();
    for (let index = 0; index < 6; index++) connection!.receive('{"type":"ping"}');
    const answers = socket.drain();
    expect(answers.map((message) => message.type)).toEqual(['pong', 'pong', 'pong', 'error']);
    expect(answers[3]).toMatchObject({ payload: { code: 'RATE_LIMITED' } });
    clock.advance(1_000);
    connection!.receive('{"type":"ping"}');
    expect(socket.drain()).toEqual([{ type: 'pong', timestamp: clock.now().getTime() }]);
  });

  it('never sends to a socket that is no longer open', () => {
    const { pubsub, open } = setup();
    const { socket, connection } = open();
    connection!.receive(JSON.stringify({ type: 'subscribe', channel: 'price.BTC_USD' }));
    socket.drain();
    socket.readyState = 2;
    pubsub.publish('price.BTC_USD', { price: '4' });
    expect(socket.sent).toEqual([]);
  });

  it('skips a published message that has no JSON form', () => {
    const { pubsub, open } = setup();
    const { socket, connection } = open();
    connection!.receive(JSON.stringify({ type: 'subscribe', channel: 'price.BTC_USD' }));
    socket.drain();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    pubsub.publish('price.BTC_USD', cyclic);
    pubsub.publish('price.BTC_USD', { price: '5' });
    expect(socket.drain()).toEqual([
      { type: 'price_update', channel: 'price.BTC_USD', seq: 2, payload: { price: '5' } },
    ]);
  });
});

/** A token check the test answers when it chooses, to see what happens meanwhile. */
function pendingChecks() {
  const waiting: Array<{ token: string; answer: (check: TokenCheck) => void }> = [];
  const verifyToken = (token: string) =>
    new Promise<TokenCheck>((resolve) => {
      waiting.push({ token, answer: resolve });
    });
  /** Answers the oldest check and lets the gateway finish with it. */
  const answer = async (check: TokenCheck) => {
    waiting.shift()?.answer(check);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { verifyToken, waiting, answer };
}

const ALICE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const frame = (message: unknown) => JSON.stringify(message);

describe('SocketGateway authentication', () => {
  it('holds the frames that arrive during a token check and handles them after it, in order', async () => {
    const checks = pendingChecks();
    const { open } = setup({}, checks.verifyToken);
    const { socket, connection } = open();
    connection!.receive(frame({ type: 'auth', token: 't-alice' }));
    connection!.receive(frame({ type: 'subscribe', channel: 'orders' }));
    connection!.receive(frame({ type: 'ping' }));
    expect(socket.drain()).toEqual([]);
    await checks.answer({ ok: true, accountId: ALICE });
    expect(socket.drain().map((message) => message.type)).toEqual(['authenticated', 'subscribed', 'pong']);
  });

  it(`refuses frames past the held limit during a check with RATE_LIMITED`, async () => {
    const checks = pendingChecks();
    const { open } = setup({ maxFramesHeldDuringAuth: 2 }, checks.verifyToken);
    const { socket, connection } = open();
    connection!.receive(frame({ type: 'auth', token: 't' }));
    for (let index = 0; index < 3; index++) connection!.receive(frame({ type: 'ping' }));
    expect(socket.drain()).toEqual([{ type: 'error', payload: { code: 'RATE_LIMITED', message: expect.any(String) } }]);
    await checks.answer({ ok: true, accountId: ALICE });
    expect(socket.drain().map((message) => message.type)).toEqual(['authenticated', 'pong', 'pong']);
  });

  it('refuses a user channel on an anonymous connection and a market channel stays open to it', () => {
    const { open } = setup();
    const { socket, connection } = open();
    connection!.receive(frame({ type: 'subscribe', channel: 'balances' }));
    connection!.receive(frame({ type: 'subscribe', channel: 'price.BTC_USD' }));
    expect(socket.drain().map((message) => message.payload?.code ?? message.type)).toEqual([
      'UNAUTHORIZED',
      'subscribed',
      'price_update',
    ]);
  });

  it('refuses every token without a verifier, and when the verifier fails', async () => {
    const withoutVerifier = setup().open();
    withoutVerifier.connection!.receive(frame({ type: 'auth', token: 't' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(withoutVerifier.socket.drain()).toMatchObject([{ type: 'error', payload: { code: 'UNAUTHORIZED' } }]);

    const failing = setup({}, () => Promise.reject(new Error('key store down'))).open();
    failing.connection!.receive(frame({ type: 'auth', token: 't' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failing.socket.drain()).toMatchObject([{ type: 'error', payload: { code: 'UNAUTHORIZED' } }]);
    expect(failing.connection!.accountId).toBeNull();
  });

  it('sends nothing when the connection closes during the check', async () => {
    const checks = pendingChecks();
    const { gateway, open } = setup({}, checks.verifyToken);
    const { socket, connection } = open();
    connection!.receive(frame({ type: 'auth', token: 't' }));
    connection!.receive(frame({ type: 'subscribe', channel: 'orders' }));
    gateway.disconnect(connection!);
    await checks.answer({ ok: true, accountId: ALICE });
    expect(socket.drain()).toEqual([]);
    expect(gateway.stats()).toEqual({ connections: 0, subscriptions: 0, channels: 0 });
  });

  it('moves user channels to the new account: nothing of the old one arrives afterwards', async () => {
    const checks = pendingChecks();
    const { gateway, pubsub, open } = setup({}, checks.verifyToken);
    const { socket, connection } = open();
    connection!.receive(frame({ type: 'auth', token: 't-alice' }));
    await checks.answer({ ok: true, accountId: ALICE });
    connection!.receive(frame({ type: 'subscribe', channel: 'orders' }));
    connection!.receive(frame({ type: 'subscribe', channel: 'price.BTC_USD' }));
    socket.drain();
    connection!.receive(frame({ type: 'auth', token: 't-bob' }));
    await checks.answer({ ok: true, accountId: BOB });
    expect(socket.drain()).toEqual([
      { type: 'unsubscribed', channel: 'orders' },
      { type: 'authenticated', account_id: BOB },
    ]);
    expect(pubsub.hasSubscribers(`account.${ALICE}.orders`)).toBe(false);
    // Public channels are the same for every account and stay.
    expect(gateway.stats()).toEqual({ connections: 1, subscriptions: 1, channels: 1 });
    pubsub.publish(`account.${ALICE}.orders`, { id: 'old' });
    expect(socket.drain()).toEqual([]);
  });

  it('ends the user channels when the token expires, until a fresh token is sent', async () => {
    const checks = pendingChecks();
    const { clock, gateway, pubsub, open } = setup({}, checks.verifyToken);
    const { socket, connection } = open();
    connection!.receive(frame({ type: 'auth', token: 't-alice' }));
    await checks.answer({ ok: true, accountId: ALICE, expiresAtMs: clock.now().getTime() + 60_000 });
    connection!.receive(frame({ type: 'subscribe', channel: 'orders' }));
    socket.drain();

    clock.advance(59_000);
    gateway.heartbeat();
    pubsub.publish(`account.${ALICE}.orders`, { id: 'still valid' });
    expect(socket.drain()).toEqual([
      { type: 'order_update', channel: 'orders', seq: 1, payload: { id: 'still valid' } },
    ]);

    connection!.pong();
    clock.advance(1_000);
    gateway.heartbeat();
    expect(socket.drain()).toEqual([
      { type: 'unsubscribed', channel: 'orders' },
      { type: 'error', payload: { code: 'UNAUTHORIZED', message: 'Access token expired' } },
    ]);
    pubsub.publish(`account.${ALICE}.orders`, { id: 'after expiry' });
    expect(socket.drain()).toEqual([]);
    connection!.receive(frame({ type: 'subscribe', channel: 'orders' }));
    expect(socket.drain()).toEqual([
      expect.objectContaining({ type: 'error', payload: expect.objectContaining({ code: 'UNAUTHORIZED' }) }),
    ]);
  });
});

describe('SocketGateway limits per client', () => {
  const subscribe = (channel: string) => frame({ type: 'subscribe', channel });

  it('holds at most maxSubscriptionsPerIp channels over all connections of an address', () => {
    const { pubsub, open } = setup({ maxSubscriptionsPerIp: 3 });
    pubsub.publish('price.ETH_USD', { price: '1' }, { retain: true });
    const first = open('10.0.0.1');
    const second = open('10.0.0.1');
    first.connection!.receive(subscribe('price.BTC_USD'));
    first.connection!.receive(subscribe('price.ETH_USD'));
    second.connection!.receive(subscribe('price.BTC_USD'));
    first.socket.drain();
    second.socket.drain();
    second.connection!.receive(subscribe('price.ETH_USD'));
    expect(second.socket.drain()).toEqual([
      {
        type: 'error',
        channel: 'price.ETH_USD',
        payload: { code: 'TOO_MANY_SUBSCRIPTIONS', message: 'At most 3 subscriptions per address' },
      },
    ]);
    // Another address has a budget of its own, and an unsubscribe frees a place.
    const other = open('10.0.0.2');
    other.connection!.receive(subscribe('price.ETH_USD'));
    expect(other.socket.drain()[0]).toMatchObject({ type: 'subscribed' });
    first.connection!.receive(frame({ type: 'unsubscribe', channel: 'price.ETH_USD' }));
    second.connection!.receive(subscribe('price.ETH_USD'));
    expect(second.socket.drain()[0]).toMatchObject({ type: 'subscribed' });
  });

  it('frees an address’s subscriptions when its connection closes', () => {
    const { gateway, open } = setup({ maxSubscriptionsPerIp: 1 });
    const first = open('10.0.0.1');
    first.connection!.receive(subscribe('price.BTC_USD'));
    gateway.disconnect(first.connection!);
    const second = open('10.0.0.1');
    second.connection!.receive(subscribe('price.BTC_USD'));
    expect(second.socket.drain()[0]).toMatchObject({ type: 'subscribed' });
  });

  it('closes a connection that authenticates past maxConnectionsPerAccount, from any address', async () => {
    const verifyToken = async (token: string): Promise<TokenCheck> => ({ ok: true, accountId: token });
    const { gateway, open } = setup({ maxConnectionsPerAccount: 2 }, verifyToken);
    const first = open('10.0.0.1');
    const second = open('10.0.0.2');
    const third = open('10.0.0.3');
    await first.connection!.authenticate(ALICE);
    await second.connection!.authenticate(ALICE);
    await third.connection!.authenticate(ALICE);
    expect(third.socket.closedWith).toEqual({ code: 1013, reason: 'too many connections for this account' });
    expect(third.socket.drain()).toEqual([]);
    // Authenticating again as the same account does not count twice; another account is apart.
    await first.connection!.authenticate(ALICE);
    expect(first.socket.drain().at(-1)).toMatchObject({ type: 'authenticated' });
    const bobs = open('10.0.0.3');
    await bobs.connection!.authenticate(BOB);
    expect(bobs.socket.drain()).toMatchObject([{ type: 'authenticated' }]);
    // A closed connection, or one that moves to another account, frees its place.
    gateway.disconnect(second.connection!);
    await first.connection!.authenticate(BOB);
    const fourth = open('10.0.0.4');
    const fifth = open('10.0.0.5');
    await fourth.connection!.authenticate(ALICE);
    await fifth.connection!.authenticate(ALICE);
    expect([fourth.socket.closedWith, fifth.socket.closedWith]).toEqual([undefined, undefined]);
    expect(gateway.stats().connections).toBe(4);
  });
});
