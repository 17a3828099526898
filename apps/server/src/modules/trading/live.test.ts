import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMessage, TestSocketClient } from '../../realtime/test-client.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { fund, placeOrder, setReferencePrice } from './test-support.ts';

/** Reads messages until one matches; everything before it is returned too, in order. */
async function until(client: TestSocketClient, match: (message: ReceivedMessage) => boolean) {
  const seen: ReceivedMessage[] = [];
  for (;;) {
    const message = await client.next();
    seen.push(message);
    if (match(message)) return { message, seen };
  }
}

const payload = (message: ReceivedMessage) => message.payload as Record<string, unknown>;

// What the exchange publishes, seen through the product socket: the book as a snapshot and then
// deltas with market sequence numbers, the trade tape, and each user's own orders and balances.
describe('live trading data on /ws', () => {
  let server: TestServer;
  let alice: SignedUp;
  let bob: SignedUp;
  const clients: TestSocketClient[] = [];

  beforeAll(async () => {
    server = await startTestServer('pglite', { PRICE_FEED_ENABLED: 'false' });
    setReferencePrice(server, 'BTC_USD', '50000.00');
    alice = await signUp(server);
    bob = await signUp(server);
    await fund(server, alice.session.account_id, 'BTC', '1');
    await fund(server, bob.session.account_id, 'USD', '100000');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });

  it('streams book deltas, trades, and order and balance updates to their owner only', async () => {
    const market = await TestSocketClient.connect(server.url);
    const aliceSocket = await TestSocketClient.connect(server.url, { token: alice.session.token });
    const bobSocket = await TestSocketClient.connect(server.url, { token: bob.session.token });
    clients.push(market, aliceSocket, bobSocket);

    market.send({ type: 'subscribe', channel: 'orderbook.BTC_USD' });
    market.send({ type: 'subscribe', channel: 'trades.BTC_USD' });
    const snapshot = await until(market, (message) => message.type === 'orderbook_update');
    expect(snapshot.message.snapshot).toBe(true);
    expect(payload(snapshot.message)).toMatchObject({ kind: 'snapshot', bids: [], asks: [] });
    const startSequence = payload(snapshot.message).sequence as number;
    await until(market, (message) => message.type === 'subscribed' && message.channel === 'trades.BTC_USD');

    for (const socket of [aliceSocket, bobSocket]) {
      socket.send({ type: 'subscribe', channel: 'orders' });
      await until(socket, (message) => message.type === 'subscribed' && message.channel === 'orders');
      socket.send({ type: 'subscribe', channel: 'balances' });
      await until(socket, (message) => message.type === 'subscribed' && message.channel === 'balances');
    }

    const sell = await placeOrder(server, alice.session.token, {
      trading_pair: 'BTC_USD',
      side: 'sell',
      type: 'limit',
      price: '50000.00',
      quantity: '0.25',
    });
    expect(sell.status).toBe(201);

    const delta = await until(market, (message) => message.type === 'orderbook_update');
    expect(payload(delta.message)).toMatchObject({
      kind: 'delta',
      prev_sequence: startSequence,
      sequence: startSequence + 1,
      asks: [['50000.00', '0.2500000']],
      bids: [],
    });
    const placed = await until(aliceSocket, (message) => message.type === 'order_update');
    expect(payload(placed.message)).toMatchObject({ id: sell.body.id, status: 'pending' });
    const held = await until(aliceSocket, (message) => message.type === 'balance_update');
    expect(payload(held.message)).toMatchObject({ currency: 'BTC', available: '0.75', locked: '0.25' });

    const buy = await placeOrder(server, bob.session.token, {
      trading_pair: 'BTC_USD',
      side: 'buy',
      type: 'market',
      quantity: '0.1',
    });
    expect(buy.status).toBe(201);
    const trade = await until(market, (message) => message.type === 'trade_update');
    expect(payload(trade.message)).toMatchObject({ price: '50000.00', quantity: '0.1000000', side: 'buy' });
    const shrunk = await until(market, (message) => message.type === 'orderbook_update');
    expect(payload(shrunk.message)).toMatchObject({
      prev_sequence: startSequence + 1,
      sequence: startSequence + 2,
      asks: [['50000.00', '0.1500000']],
    });
    // Per-connection sequence numbers on the channel have no gap.
    expect(shrunk.message.seq).toBe((delta.message.seq as number) + 1);

    const partial = await until(aliceSocket, (message) => message.type === 'order_update');
    expect(payload(partial.message)).toMatchObject({
      id: sell.body.id,
      status: 'partial',
      filled_quantity: '0.1000000',
    });
    const bobOrder = await until(bobSocket, (message) => message.type === 'order_update');
    expect(payload(bobOrder.message)).toMatchObject({ id: buy.body.id, status: 'filled' });

    // Nobody receives another user's events: everything Bob saw is his.
    bobSocket.send({ type: 'ping' });
    const { seen } = await until(bobSocket, (message) => message.type === 'pong');
    for (const message of [...seen, bobOrder.message]) {
      if (message.type === 'order_update') expect(payload(message).account_id).toBe(bob.session.account_id);
    }
  });
});
