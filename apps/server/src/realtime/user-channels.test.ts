import type { BalanceUpdate, Order } from '@platform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp } from '../modules/auth/test-support.ts';
import { publishNotifications } from '../modules/notifications/index.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { TestSocketClient } from './test-client.ts';

/** An order as the trading module publishes it on `account.{id}.orders`. */
function orderUpdate(accountId: string, overrides: Partial<Order> = {}): Order {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    client_order_id: null,
    account_id: accountId,
    trading_pair: 'BTC_USD',
    symbol: 'BTC/USD',
    side: 'buy',
    type: 'limit',
    status: 'pending',
    time_in_force: 'GTC',
    post_only: false,
    price: '67250.00',
    stop_price: null,
    stop_limit_price: null,
    quantity: '0.5000',
    quote_amount: null,
    filled_quantity: '0.0000',
    remaining_quantity: '0.5000',
    average_price: null,
    total: '0',
    fee: '0',
    fee_currency: 'USD',
    triggered: false,
    reject_reason: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

function balanceUpdate(currency: string, available: string): BalanceUpdate {
  return { currency, available, locked: '0', timestamp: Date.now() };
}

// User channels do not depend on the database kind; the stored notification path is covered on
// both kinds by the notifications module's tests.
describe('user channels on /ws', () => {
  let server: TestServer;
  let alice: SignedUp;
  let bob: SignedUp;
  const clients: TestSocketClient[] = [];
  const ordersTopic = (signedUp: SignedUp) => `account.${signedUp.session.account_id}.orders`;

  beforeAll(async () => {
    server = await startTestServer('pglite', { PRICE_FEED_ENABLED: 'false' });
    alice = await signUp(server);
    bob = await signUp(server);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await server.close();
  });

  /** Connects (with a token in the URL when given) and takes the welcome message. */
  async function connect(token?: string): Promise<TestSocketClient> {
    const client = await TestSocketClient.connect(server.url, token === undefined ? {} : { token });
    clients.push(client);
    expect(await client.next()).toMatchObject({ type: 'welcome' });
    return client;
  }

  async function signedIn(signedUp: SignedUp): Promise<TestSocketClient> {
    const client = await connect(signedUp.session.token);
    expect(await client.next()).toEqual({ type: 'authenticated', account_id: signedUp.session.account_id });
    return client;
  }

  it('refuses user channels on an anonymous connection with UNAUTHORIZED, and keeps it open', async () => {
    const client = await connect();
    for (const channel of ['orders', 'balances', 'notifications', 'order_update']) {
      expect(await client.ask({ type: 'subscribe', channel }), channel).toEqual({
        type: 'error',
        channel,
        payload: { code: 'UNAUTHORIZED', message: expect.stringContaining('Authenticate') },
      });
    }
    await client.expectNothingPending();
  });

  it('authenticates with ?token at connect and subscribes without a snapshot', async () => {
    const client = await signedIn(alice);
    expect(await client.ask({ type: 'subscribe', channel: 'orders' })).toEqual({
      type: 'subscribed',
      channel: 'orders',
      seq: 0,
    });
    await client.expectNothingPending();
  });

  it('authenticates with an auth message; a subscribe sent right behind it already counts', async () => {
    const client = await connect();
    client.send({ type: 'auth', token: bob.session.token });
    client.send({ type: 'subscribe', channel: 'balances' });
    client.send({ type: 'subscribe', channel: 'order_update' });
    expect(await client.take(3)).toEqual([
      { type: 'authenticated', account_id: bob.session.account_id },
      { type: 'subscribed', channel: 'balances', seq: 0 },
      { type: 'subscribed', channel: 'orders', seq: 0 },
    ]);
  });

  it('authenticates with an Authorization header at connect', async () => {
    const client = await TestSocketClient.connect(server.url, {
      headers: { authorization: `Bearer ${alice.session.token}` },
    });
    clients.push(client);
    expect(await client.take(2)).toEqual([
      { type: 'welcome', version: expect.any(Number) },
      { type: 'authenticated', account_id: alice.session.account_id },
    ]);
  });

  it('delivers an account’s events to that account’s connections only, with a sequence each', async () => {
    const aliceSocket = await signedIn(alice);
    const aliceSecondTab = await signedIn(alice);
    const bobSocket = await signedIn(bob);
    for (const client of [aliceSocket, aliceSecondTab, bobSocket]) {
      client.send({ type: 'subscribe', channel: 'orders' });
      client.send({ type: 'subscribe', channel: 'balances' });
      await client.take(2);
    }

    const order = orderUpdate(alice.session.account_id);
    const balance = balanceUpdate('USD', '1000.00');
    server.pubsub.publish(ordersTopic(alice), order);
    server.pubsub.publish(ordersTopic(alice), { ...order, status: 'filled' });
    server.pubsub.publish(`account.${alice.session.account_id}.balances`, balance);
    for (const client of [aliceSocket, aliceSecondTab]) {
      expect(await client.take(3)).toEqual([
        { type: 'order_update', channel: 'orders', seq: 1, payload: order },
        { type: 'order_update', channel: 'orders', seq: 2, payload: { ...order, status: 'filled' } },
        { type: 'balance_update', channel: 'balances', seq: 1, payload: balance },
      ]);
    }
    await bobSocket.expectNothingPending();

    const bobsOrder = orderUpdate(bob.session.account_id);
    server.pubsub.publish(ordersTopic(bob), bobsOrder);
    expect(await bobSocket.next()).toEqual({ type: 'order_update', channel: 'orders', seq: 1, payload: bobsOrder });
    await aliceSocket.expectNothingPending();
  });

  it('pushes stored notifications on the notifications channel', async () => {
    const client = await signedIn(alice);
    const bobSocket = await signedIn(bob);
    for (const socket of [client, bobSocket]) {
      expect(await socket.ask({ type: 'subscribe', channel: 'notifications' })).toMatchObject({ type: 'subscribed' });
    }
    const stored = await server.services.notifications.insert(server.db, [
      {
        accountId: alice.session.account_id,
        type: 'order',
        title: 'Order placed',
        message: 'Buy 0.5 BTC at 67,250.00 USD',
        severity: 'info',
        actionUrl: '/trade?pair=BTC/USD',
        metadata: { tradingPair: 'BTC_USD', amount: '0.5', price: '67250.00' },
        createdAt: server.clock.now,
      },
    ]);
    publishNotifications(server.pubsub, stored);
    const { accountId: _accountId, ...wire } = stored[0]!;
    expect(await client.next()).toEqual({
      type: 'notification_update',
      channel: 'notifications',
      seq: 1,
      payload: wire,
    });
    await bobSocket.expectNothingPending();
  });

  it('answers a bad token with UNAUTHORIZED and leaves the connection anonymous', async () => {
    const inUrl = await connect('not-a-token');
    expect(await inUrl.next()).toEqual({
      type: 'error',
      payload: { code: 'UNAUTHORIZED', message: 'Invalid access token' },
    });
    expect(await inUrl.ask({ type: 'subscribe', channel: 'orders' })).toMatchObject({
      payload: { code: 'UNAUTHORIZED' },
    });

    const byMessage = await connect();
    const forged = `${alice.session.token.slice(0, -4)}AAAA`;
    expect(await byMessage.ask({ type: 'auth', token: forged })).toEqual({
      type: 'error',
      payload: { code: 'UNAUTHORIZED', message: 'Invalid access token' },
    });
    expect(await byMessage.ask({ type: 'auth', token: '' })).toMatchObject({ payload: { code: 'INVALID_MESSAGE' } });
    expect(await byMessage.ask({ type: 'subscribe', channel: 'orders' })).toMatchObject({
      payload: { code: 'UNAUTHORIZED' },
    });
  });

  it('refuses an expired token as expired; a connection already signed in keeps its account', async () => {
    const client = await signedIn(alice);
    expect(await client.ask({ type: 'subscribe', channel: 'orders' })).toMatchObject({ type: 'subscribed' });
    const skipMs = (server.config.accessTokenTtlSeconds + 60) * 1000;
    server.clock.advance(skipMs);
    try {
      expect(await client.ask({ type: 'auth', token: bob.session.token })).toEqual({
        type: 'error',
        payload: { code: 'UNAUTHORIZED', message: 'Access token expired' },
      });
    } finally {
      server.clock.advance(-skipMs);
    }
    const order = orderUpdate(alice.session.account_id);
    server.pubsub.publish(ordersTopic(alice), order);
    expect(await client.next()).toMatchObject({ type: 'order_update', seq: 1, payload: order });
  });

  it('drops the user channels of the previous account when a connection authenticates as another', async () => {
    const client = await signedIn(alice);
    client.send({ type: 'subscribe', channel: 'orders' });
    client.send({ type: 'subscribe', channel: 'notifications' });
    await client.take(2);

    // The same account again changes nothing.
    expect(await client.ask({ type: 'auth', token: alice.session.token })).toEqual({
      type: 'authenticated',
      account_id: alice.session.account_id,
    });
    client.send({ type: 'auth', token: bob.session.token });
    expect(await client.take(3)).toEqual([
      { type: 'unsubscribed', channel: 'orders' },
      { type: 'unsubscribed', channel: 'notifications' },
      { type: 'authenticated', account_id: bob.session.account_id },
    ]);
    server.pubsub.publish(ordersTopic(alice), orderUpdate(alice.session.account_id));
    await client.expectNothingPending();

    expect(await client.ask({ type: 'subscribe', channel: 'orders' })).toEqual({
      type: 'subscribed',
      channel: 'orders',
      seq: 0,
    });
    const bobsOrder = orderUpdate(bob.session.account_id);
    server.pubsub.publish(ordersTopic(bob), bobsOrder);
    expect(await client.next()).toMatchObject({ type: 'order_update', seq: 1, payload: bobsOrder });
  });

  it('counts user channels per account topic at /ws/stats and forgets them on close', async () => {
    const before = (await server.request('GET', '/ws/stats')).body;
    const first = await signedIn(alice);
    const second = await signedIn(alice);
    for (const client of [first, second]) {
      expect(await client.ask({ type: 'subscribe', channel: 'orders' })).toMatchObject({ type: 'subscribed' });
    }
    const during = (await server.request('GET', '/ws/stats')).body;
    expect(during.subscriptions - before.subscriptions).toBe(2);
    expect(during.channels - before.channels).toBe(1);
    expect(server.pubsub.hasSubscribers(ordersTopic(alice))).toBe(true);
    await first.close();
    await second.close();
    const deadline = Date.now() + 3_000;
    while (server.pubsub.hasSubscribers(ordersTopic(alice)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(server.pubsub.hasSubscribers(ordersTopic(alice))).toBe(false);
  });
});
