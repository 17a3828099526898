import { SOCKET_PROTOCOL_VERSION } from '@platform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { SOCKET_LIMITS } from './limits.ts';
import { TestSocketClient } from './test-client.ts';

/** A price update as the markets feed publishes it on `price.{PAIR_ID}`. */
function priceUpdate(symbol: string, price: string) {
  return {
    symbol,
    price,
    change24h: '0',
    changePercent24h: '0',
    volume24h: '12.5',
    high24h: price,
    low24h: price,
    timestamp: Date.now(),
  };
}

/** An order book message as the exchange core publishes it on `orderbook.{PAIR_ID}`. */
function bookUpdate(
  pairId: string,
  kind: 'snapshot' | 'delta',
  sequence: number,
  prevSequence: number,
  bids: [string, string][],
  asks: [string, string][],
) {
  return { trading_pair: pairId, kind, sequence, prev_sequence: prevSequence, bids, asks, timestamp: Date.now() };
}

/** A public trade as the exchange core publishes it on `trades.{PAIR_ID}`. */
function trade(pairId: string, price: string, quantity: string) {
  return {
    id: crypto.randomUUID(),
    trading_pair: pairId,
    symbol: pairId.replace('_', '/'),
    price,
    quantity,
    total: (Number(price) * Number(quantity)).toFixed(4),
    side: 'buy' as const,
    timestamp: Date.now(),
  };
}

async function eventually(check: () => Promise<void>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

// The socket does not touch the database, so one database kind is enough here.
describe('product socket /ws', () => {
  let server: TestServer;
  const clients: TestSocketClient[] = [];

  beforeAll(async () => {
    // Test markets (quoted in TST) are ones the price feed never publishes, so every message a
    // test sees is one it published itself.
    server = await startTestServer('pglite', { PRICE_FEED_ENABLED: 'false' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await server.close();
  });

  /** Connects and takes the welcome message. */
  async function connect(): Promise<TestSocketClient> {
    const client = await TestSocketClient.connect(server.url);
    clients.push(client);
    expect(await client.next()).toEqual({ type: 'welcome', version: SOCKET_PROTOCOL_VERSION });
    return client;
  }

  /** Gives the server a market: its first retained price. */
  function priceMarket(pairId: string, price = '100.00') {
    const update = priceUpdate(pairId.replace('_', '/'), price);
    server.pubsub.publish(`price.${pairId}`, update, { retain: true });
    return update;
  }

  it('welcomes a new connection with the protocol version', async () => {
    await connect();
  });

  it('answers a price subscription with a snapshot, then forwards every update with consecutive seq', async () => {
    const retained = priceMarket('BTC_TST', '64000.10');
    const client = await connect();
    const [subscribed, snapshot] = await (async () => {
      client.send({ type: 'subscribe', channel: 'price.BTC_TST' });
      return client.take(2);
    })();
    expect(subscribed).toEqual({ type: 'subscribed', channel: 'price.BTC_TST', seq: 0 });
    expect(snapshot).toEqual({
      type: 'price_update',
      channel: 'price.BTC_TST',
      seq: 1,
      snapshot: true,
      payload: retained,
    });

    const live = ['64001.00', '64002.50', '63999.99'].map((price) => priceUpdate('BTC/TST', price));
    for (const update of live) server.pubsub.publish('price.BTC_TST', update, { retain: true });
    const received = await client.take(3);
    expect(received).toEqual(
      live.map((payload, index) => ({ type: 'price_update', channel: 'price.BTC_TST', seq: 2 + index, payload })),
    );
    await client.expectNothingPending();
  });

  it('reads BTC/TST and lower case as the pair id and answers with the normalised channel', async () => {
    priceMarket('ETH_TST');
    const client = await connect();
    client.send({ type: 'subscribe', channel: 'price.eth/tst' });
    const [subscribed, snapshot] = await client.take(2);
    expect(subscribed).toEqual({ type: 'subscribed', channel: 'price.ETH_TST', seq: 0 });
    expect(snapshot).toMatchObject({ channel: 'price.ETH_TST', seq: 1, snapshot: true });
    expect(await client.ask({ type: 'unsubscribe', channel: 'price.ETH/TST' })).toEqual({
      type: 'unsubscribed',
      channel: 'price.ETH_TST',
    });
  });

  it('keeps a sequence per connection and channel', async () => {
    priceMarket('SOL_TST');
    priceMarket('ADA_TST');
    const early = await connect();
    early.send({ type: 'subscribe', channel: 'price.SOL_TST' });
    await early.take(2);
    server.pubsub.publish('price.SOL_TST', priceUpdate('SOL/TST', '150.00'));
    expect(await early.next()).toMatchObject({ seq: 2 });

    const late = await connect();
    late.send({ type: 'subscribe', channel: 'price.SOL_TST' });
    expect(await late.take(2)).toMatchObject([{ seq: 0 }, { seq: 1, snapshot: true }]);
    late.send({ type: 'subscribe', channel: 'price.ADA_TST' });
    expect(await late.take(2)).toMatchObject([
      { channel: 'price.ADA_TST', seq: 0 },
      { channel: 'price.ADA_TST', seq: 1 },
    ]);

    server.pubsub.publish('price.SOL_TST', priceUpdate('SOL/TST', '151.00'));
    expect(await early.next()).toMatchObject({ channel: 'price.SOL_TST', seq: 3 });
    expect(await late.next()).toMatchObject({ channel: 'price.SOL_TST', seq: 2 });
  });

  it('resends a snapshot when a client subscribes again, and the sequence goes on', async () => {
    priceMarket('DOT_TST');
    const client = await connect();
    client.send({ type: 'subscribe', channel: 'price.DOT_TST' });
    await client.take(2);
    client.send({ type: 'subscribe', channel: 'price.DOT_TST' });
    expect(await client.take(2)).toMatchObject([
      { type: 'subscribed', seq: 2 },
      { type: 'price_update', seq: 3, snapshot: true },
    ]);
  });

  it('stops delivering a channel after unsubscribe', async () => {
    priceMarket('LINK_TST');
    const client = await connect();
    client.send({ type: 'subscribe', channel: 'price.LINK_TST' });
    await client.take(2);
    expect(await client.ask({ type: 'unsubscribe', channel: 'price.LINK_TST' })).toEqual({
      type: 'unsubscribed',
      channel: 'price.LINK_TST',
    });
    server.pubsub.publish('price.LINK_TST', priceUpdate('LINK/TST', '15.00'), { retain: true });
    await client.expectNothingPending();
    // Unsubscribing again is not an error; a new subscription starts a new sequence.
    expect(await client.ask({ type: 'unsubscribe', channel: 'price.LINK_TST' })).toMatchObject({
      type: 'unsubscribed',
    });
    client.send({ type: 'subscribe', channel: 'price.LINK_TST' });
    expect(await client.take(2)).toMatchObject([{ seq: 0 }, { seq: 1, payload: { price: '15.00' } }]);
  });

  it('accepts order book and trade channels of a priced market and forwards what the exchange core publishes', async () => {
    priceMarket('AVAX_TST');
    const client = await connect();
    expect(await client.ask({ type: 'subscribe', channel: 'orderbook.AVAX_TST' })).toEqual({
      type: 'subscribed',
      channel: 'orderbook.AVAX_TST',
      seq: 0,
    });
    expect(await client.ask({ type: 'subscribe', channel: 'trades.AVAX/TST' })).toEqual({
      type: 'subscribed',
      channel: 'trades.AVAX_TST',
      seq: 0,
    });
    await client.expectNothingPending();
    const delta = bookUpdate('AVAX_TST', 'delta', 2, 1, [['30.00', '1.5']], []);
    const executed = trade('AVAX_TST', '30.01', '0.2');
    server.pubsub.publish('orderbook.AVAX_TST', delta);
    server.pubsub.publish('trades.AVAX_TST', executed);
    expect(await client.take(2)).toEqual([
      { type: 'orderbook_update', channel: 'orderbook.AVAX_TST', seq: 1, payload: delta },
      { type: 'trade_update', channel: 'trades.AVAX_TST', seq: 1, payload: executed },
    ]);
  });

  it('starts an order book subscription from the retained full book, then sends deltas with the next seq', async () => {
    priceMarket('XRP_TST');
    // The exchange core keeps the full book as the retained message and publishes only deltas.
    const snapshot = bookUpdate('XRP_TST', 'snapshot', 7, 7, [['0.50', '100']], [['0.51', '40']]);
    server.pubsub.retain('orderbook.XRP_TST', snapshot);
    const client = await connect();
    client.send({ type: 'subscribe', channel: 'orderbook.XRP/TST' });
    expect(await client.take(2)).toEqual([
      { type: 'subscribed', channel: 'orderbook.XRP_TST', seq: 0 },
      { type: 'orderbook_update', channel: 'orderbook.XRP_TST', seq: 1, snapshot: true, payload: snapshot },
    ]);

    const delta = bookUpdate('XRP_TST', 'delta', 8, 7, [['0.50', '0']], [['0.52', '10']]);
    server.pubsub.publish('orderbook.XRP_TST', delta);
    server.pubsub.retain('orderbook.XRP_TST', bookUpdate('XRP_TST', 'snapshot', 8, 8, [], [['0.51', '40']]));
    expect(await client.next()).toEqual({
      type: 'orderbook_update',
      channel: 'orderbook.XRP_TST',
      seq: 2,
      payload: delta,
    });

    // A client that saw a gap subscribes again: the latest full book, and the sequence goes on.
    client.send({ type: 'subscribe', channel: 'orderbook.XRP_TST' });
    expect(await client.take(2)).toMatchObject([
      { type: 'subscribed', seq: 3 },
      { type: 'orderbook_update', seq: 4, snapshot: true, payload: { kind: 'snapshot', sequence: 8, bids: [] } },
    ]);
  });

  it('accepts the order book and trades of an exchange market the price feed does not cover', async () => {
    const snapshot = bookUpdate('ONLY_BOOK', 'snapshot', 1, 1, [], []);
    server.pubsub.retain('orderbook.ONLY_BOOK', snapshot);
    const client = await connect();
    client.send({ type: 'subscribe', channel: 'orderbook.ONLY_BOOK' });
    expect(await client.take(2)).toMatchObject([{ type: 'subscribed' }, { snapshot: true, payload: snapshot }]);
    // A market whose book the exchange publishes exists: its trades channel too (silent until a trade).
    expect(await client.ask({ type: 'subscribe', channel: 'trades.ONLY_BOOK' })).toEqual({
      type: 'subscribed',
      channel: 'trades.ONLY_BOOK',
      seq: 0,
    });
    expect(await client.ask({ type: 'subscribe', channel: 'trades.NO_BOOK' })).toMatchObject({
      type: 'error',
      payload: { code: 'UNKNOWN_CHANNEL' },
    });
  });

  it('refuses unknown and malformed channels with UNKNOWN_CHANNEL and keeps the connection', async () => {
    const client = await connect();
    const unknownChannels = ['price.NOPE_USD', 'orderbook.NOPE_USD', 'candles.BTC_TST', 'price.BTCUSD', 'price.', ''];
    for (const channel of unknownChannels) {
      expect(await client.ask({ type: 'subscribe', channel }), channel).toEqual({
        type: 'error',
        channel,
        payload: { code: 'UNKNOWN_CHANNEL', message: 'Unknown channel' },
      });
    }
    expect(await client.ask({ type: 'unsubscribe', channel: 'nonsense' })).toMatchObject({
      type: 'error',
      payload: { code: 'UNKNOWN_CHANNEL' },
    });
    await client.expectNothingPending();
  });

  it('answers ping with pong and the server time', async () => {
    const client = await connect();
    const before = server.clock.now.getTime();
    const pong = await client.ask({ type: 'ping' });
    expect(pong).toEqual({ type: 'pong', timestamp: expect.any(Number) });
    expect(pong.timestamp).toBeGreaterThanOrEqual(before);
    expect(pong.timestamp).toBeLessThanOrEqual(server.clock.now.getTime());
  });

  it('answers protocol pings (ws ping frames) from the client', async () => {
    const client = await connect();
    const pong = new Promise<string>((resolve) => client.socket.once('pong', (data) => resolve(String(data))));
    client.socket.ping('are-you-there');
    expect(await pong).toBe('are-you-there');
  });

  it('answers bad JSON, unknown types, missing fields and binary frames with an error and stays open', async () => {
    const client = await connect();
    const cases: Array<[unknown, string]> = [
      ['{"type":', 'INVALID_JSON'],
      ['not json at all', 'INVALID_JSON'],
      [{ type: 'dance' }, 'INVALID_MESSAGE'],
      [{ type: 'subscribe' }, 'INVALID_MESSAGE'],
      [{ type: 'subscribe', channel: 42 }, 'INVALID_MESSAGE'],
      [['subscribe', 'price.BTC_TST'], 'INVALID_MESSAGE'],
      ['null', 'INVALID_MESSAGE'],
    ];
    for (const [message, code] of cases) {
      const answer = await client.ask(message);
      expect(answer, JSON.stringify(message)).toEqual({
        type: 'error',
        payload: { code, message: expect.any(String) },
      });
    }
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next()).toMatchObject({ type: 'error', payload: { code: 'INVALID_MESSAGE' } });
    await client.expectNothingPending();
  });

  it(`refuses more than ${SOCKET_LIMITS.maxSubscriptionsPerConnection} subscriptions on one connection`, async () => {
    const limit = SOCKET_LIMITS.maxSubscriptionsPerConnection;
    const marketCount = Math.ceil((limit + 1) / 2);
    const channels: string[] = [];
    for (let index = 0; index < marketCount; index++) {
      const pairId = `LIM${index}_USD`;
      priceMarket(pairId);
      channels.push(`orderbook.${pairId}`, `trades.${pairId}`);
    }
    const client = await connect();
    for (const channel of channels.slice(0, limit)) client.send({ type: 'subscribe', channel });
    const answers = await client.take(limit);
    expect(answers.every((answer) => answer.type === 'subscribed')).toBe(true);

    const extra = channels[limit]!;
    expect(await client.ask({ type: 'subscribe', channel: extra })).toEqual({
      type: 'error',
      channel: extra,
      payload: { code: 'TOO_MANY_SUBSCRIPTIONS', message: `At most ${limit} subscriptions per connection` },
    });
    // A channel already held is still fine, and unsubscribing frees a place.
    expect(await client.ask({ type: 'subscribe', channel: channels[0] })).toMatchObject({ type: 'subscribed' });
    await client.ask({ type: 'unsubscribe', channel: channels[0] });
    expect(await client.ask({ type: 'subscribe', channel: extra })).toMatchObject({ type: 'subscribed', seq: 0 });
  });

  it(`closes with 1009 a client message over ${SOCKET_LIMITS.maxMessageBytes} bytes`, async () => {
    const client = await connect();
    client.send({ type: 'subscribe', channel: 'x'.repeat(SOCKET_LIMITS.maxMessageBytes) });
    expect((await client.closed).code).toBe(1009);
  });

  it('drops a consumer that stops reading with 1013 slow consumer', async () => {
    priceMarket('BNB_TST');
    const client = await connect();
    client.send({ type: 'subscribe', channel: 'price.BNB_TST' });
    await client.take(2);
    // Stop reading: the kernel buffers fill, then the server's send buffer grows past its limit.
    const rawSocket = (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    rawSocket.pause();
    const bulky = { ...priceUpdate('BNB/TST', '600.00'), padding: 'x'.repeat(64 * 1024) };
    for (let index = 0; index < 400; index++) {
      server.pubsub.publish('price.BNB_TST', bulky);
      await new Promise((resolve) => setImmediate(resolve));
    }
    rawSocket.resume();
    const closed = await client.closed;
    expect(closed).toEqual({ code: 1013, reason: 'slow consumer' });
  });

  it('counts connections, subscriptions and channels at /ws/stats', async () => {
    const stats = async () => (await server.request('GET', '/ws/stats')).body;
    await eventually(async () => expect(await stats()).toEqual({ connections: 0, subscriptions: 0, channels: 0 }));

    priceMarket('MATIC_TST');
    priceMarket('USDT_TST');
    const first = await connect();
    const second = await connect();
    first.send({ type: 'subscribe', channel: 'price.MATIC_TST' });
    first.send({ type: 'subscribe', channel: 'trades.MATIC_TST' });
    await first.take(3);
    second.send({ type: 'subscribe', channel: 'price.MATIC_TST' });
    second.send({ type: 'subscribe', channel: 'price.USDT_TST' });
    await second.take(4);
    const response = await server.request('GET', '/ws/stats');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ connections: 2, subscriptions: 4, channels: 3 });

    await first.close();
    await eventually(async () => expect(await stats()).toEqual({ connections: 1, subscriptions: 2, channels: 2 }));
  });

  it('answers a plain HTTP GET /ws (no upgrade) with 404', async () => {
    const response = await server.request('GET', '/ws');
    expect(response.status).toBe(404);
  });
});
