import type { FuturesOrder, MarkPriceView } from '@platform/contracts';
import { futuresOrderSchema, markPriceSchema, positionUpdateSchema } from '@platform/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type SignedUp, signUp } from '../modules/auth/test-support.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { parseChannel } from './channels.ts';
import { TestSocketClient } from './test-client.ts';

type PositionUpdate = z.infer<typeof positionUpdateSchema>;

/** A mark message as the futures module publishes it on `mark.{MARKET}` (retained). */
function markUpdate(market: string, mark: string, index: string): MarkPriceView {
  return markPriceSchema.parse({
    market,
    mark_price: mark,
    index_price: index,
    funding_rate: '0.0001',
    next_funding_time: 1_700_006_400_000,
    timestamp: Date.now(),
  });
}

function positionUpdate(market: string): PositionUpdate {
  const now = new Date().toISOString();
  return positionUpdateSchema.parse({
    market,
    position: {
      market,
      side: 'long',
      size: '0.5',
      entry_price: '60000.0',
      mark_price: '60010.0',
      liquidation_price: '54300.0',
      bankruptcy_price: '54000.0',
      margin_mode: 'cross',
      leverage: 10,
      notional: '30005',
      margin: '3000.5',
      maintenance_margin: '120.02',
      margin_ratio: '0.04',
      unrealised_pnl: '5',
      roe: '0.0016',
      realised_pnl: '0',
      adl_rank: 2,
      take_profit_price: null,
      stop_loss_price: null,
      updated_at: now,
    },
    account: {
      currency: 'USD',
      wallet_balance: '3000',
      unrealised_pnl: '5',
      margin_balance: '3005',
      cross_initial_margin: '3000.5',
      cross_maintenance_margin: '120.02',
      isolated_margin: '0',
      order_margin: '0',
      available_balance: '0',
      transferable: '0',
      margin_ratio: '0.0399',
    },
    reason: 'fill',
  });
}

function futuresOrder(market: string): FuturesOrder {
  const now = new Date().toISOString();
  return futuresOrderSchema.parse({
    id: crypto.randomUUID(),
    client_order_id: null,
    market,
    side: 'buy',
    type: 'limit',
    status: 'pending',
    time_in_force: 'GTC',
    post_only: false,
    reduce_only: false,
    close_position: false,
    price: '60000.0',
    stop_price: null,
    quantity: '0.5',
    filled_quantity: '0',
    average_price: null,
    fee: '0',
    realised_pnl: '0',
    triggered: false,
    origin: 'user',
    reject_reason: null,
    created_at: now,
    updated_at: now,
  });
}

describe('perpetual channel names', () => {
  it('accepts orderbook, trades and mark for perpetual ids, in any case', () => {
    expect(parseChannel('mark.btc_usd_perp')).toEqual({
      scope: 'market',
      name: 'mark.BTC_USD_PERP',
      kind: 'mark',
      market: 'BTC_USD_PERP',
      updateType: 'mark_update',
    });
    expect(parseChannel('orderbook.ETH_USD_PERP')).toMatchObject({ name: 'orderbook.ETH_USD_PERP' });
    expect(parseChannel('trades.SOL_USD_PERP')).toMatchObject({ name: 'trades.SOL_USD_PERP' });
  });

  it('refuses price on a perpetual and mark on a spot pair', () => {
    expect(parseChannel('price.BTC_USD_PERP')).toBeUndefined();
    expect(parseChannel('mark.BTC_USD')).toBeUndefined();
    expect(parseChannel('mark.BTC_EUR_PERP')).toBeUndefined();
  });

  it('knows the futures user channels and their update-type aliases', () => {
    expect(parseChannel('positions')).toEqual({ scope: 'user', name: 'positions', updateType: 'position_update' });
    expect(parseChannel('futures_order_update')).toEqual({
      scope: 'user',
      name: 'futures_orders',
      updateType: 'futures_order_update',
    });
  });
});

describe('perpetual channels on /ws', () => {
  let server: TestServer;
  let alice: SignedUp;
  let bob: SignedUp;
  const clients: TestSocketClient[] = [];

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

  async function connect(token?: string): Promise<TestSocketClient> {
    const client = await TestSocketClient.connect(server.url, token === undefined ? {} : { token });
    clients.push(client);
    expect(await client.next()).toMatchObject({ type: 'welcome' });
    if (token !== undefined) expect(await client.next()).toMatchObject({ type: 'authenticated' });
    return client;
  }

  it('answers UNKNOWN_CHANNEL for a perpetual with no mark yet', async () => {
    const client = await connect();
    expect(await client.ask({ type: 'subscribe', channel: 'mark.TON_USD_PERP' })).toMatchObject({
      type: 'error',
      payload: { code: 'UNKNOWN_CHANNEL' },
    });
    expect(await client.ask({ type: 'subscribe', channel: 'orderbook.TON_USD_PERP' })).toMatchObject({
      type: 'error',
      payload: { code: 'UNKNOWN_CHANNEL' },
    });
  });

  it('sends the retained mark at once, then every published one, each valid against the contract', async () => {
    const first = markUpdate('BTC_USD_PERP', '60012.5', '60000.0');
    server.pubsub.publish('mark.BTC_USD_PERP', first, { retain: true });
    const client = await connect();
    expect(await client.ask({ type: 'subscribe', channel: 'mark.BTC_USD_PERP' })).toEqual({
      type: 'subscribed',
      channel: 'mark.BTC_USD_PERP',
      seq: 0,
    });
    expect(await client.next()).toEqual({
      type: 'mark_update',
      channel: 'mark.BTC_USD_PERP',
      seq: 1,
      snapshot: true,
      payload: first,
    });
    const second = markUpdate('BTC_USD_PERP', '60020.0', '60005.0');
    server.pubsub.publish('mark.BTC_USD_PERP', second, { retain: true });
    expect(await client.next()).toEqual({ type: 'mark_update', channel: 'mark.BTC_USD_PERP', seq: 2, payload: second });
  });

  it('accepts the order book and trades of a perpetual whose mark is known', async () => {
    server.pubsub.publish('mark.ETH_USD_PERP', markUpdate('ETH_USD_PERP', '3000.00', '3000.00'), { retain: true });
    const client = await connect();
    for (const channel of ['orderbook.ETH_USD_PERP', 'trades.ETH_USD_PERP']) {
      expect(await client.ask({ type: 'subscribe', channel })).toEqual({ type: 'subscribed', channel, seq: 0 });
    }
    await client.expectNothingPending();
  });

  it('routes positions and futures orders to their own account only', async () => {
    const aliceSocket = await connect(alice.session.token);
    const bobSocket = await connect(bob.session.token);
    for (const socket of [aliceSocket, bobSocket]) {
      socket.send({ type: 'subscribe', channel: 'positions' });
      socket.send({ type: 'subscribe', channel: 'futures_orders' });
      expect(await socket.take(2)).toEqual([
        { type: 'subscribed', channel: 'positions', seq: 0 },
        { type: 'subscribed', channel: 'futures_orders', seq: 0 },
      ]);
    }
    const position = positionUpdate('BTC_USD_PERP');
    const order = futuresOrder('BTC_USD_PERP');
    server.pubsub.publish(`account.${alice.session.account_id}.positions`, position);
    server.pubsub.publish(`account.${alice.session.account_id}.futures_orders`, order);
    expect(await aliceSocket.take(2)).toEqual([
      { type: 'position_update', channel: 'positions', seq: 1, payload: position },
      { type: 'futures_order_update', channel: 'futures_orders', seq: 1, payload: order },
    ]);
    await bobSocket.expectNothingPending();
  });

  it('refuses the futures user channels without a token', async () => {
    const client = await connect();
    expect(await client.ask({ type: 'subscribe', channel: 'positions' })).toMatchObject({
      type: 'error',
      payload: { code: 'UNAUTHORIZED' },
    });
  });
});
