import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { account, futuresTrader, order, positions, setIndex, type Trader } from './test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

type OrderBody = Record<string, unknown> & { id: string };

const getOrder = async (server: TestServer, trader: Trader, id: string) =>
  (await server.request('GET', `/v1/futures/orders/${id}`, { token: trader.token })).body as OrderBody;

const openOrders = async (server: TestServer, trader: Trader, market = 'BTC_USD_PERP') =>
  (await server.request('GET', `/v1/futures/orders?status=open&market=${market}`, { token: trader.token })).body
    .orders as OrderBody[];

async function placed(server: TestServer, trader: Trader, body: Record<string, unknown>): Promise<OrderBody> {
  const response = await order(server, trader, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as OrderBody;
}

/** One trade of the smallest size at `price` between two accounts of their own (it sets the last price). */
async function print(server: TestServer, buyer: Trader, seller: Trader, price: string, market = 'BTC_USD_PERP') {
  const quantity = market === 'BTC_USD_PERP' ? '0.001' : '0.01';
  await placed(server, buyer, { market, side: 'buy', type: 'limit', price, quantity });
  const taken = await placed(server, seller, {
    market,
    side: 'sell',
    type: 'limit',
    price,
    quantity,
    time_in_force: 'IOC',
  });
  expect(taken).toMatchObject({ status: 'filled', average_price: expect.stringMatching(new RegExp(`^${price}`)) });
}

/**
 * Stop and take-profit orders trigger in the futures exchange (triggers.ts), each checked and
 * entered like a new order at that moment, so that a triggered close passes the same guards as one
 * placed by hand: above all, it never trades beyond the position's bankruptcy price.
 */
describeEachDatabase(
  'futures: stop and take-profit triggers',
  (server) => {
    let printBuyer: Trader;
    let printSeller: Trader;
    const fund = async () => (await server().request('GET', '/v1/futures/insurance-fund')).body.balance as string;

    beforeAll(async () => {
      await server().services.futures.workers.funding.stop();
      printBuyer = await futuresTrader(server(), '100000');
      printSeller = await futuresTrader(server(), '100000');
    });

    it('a triggered stop-market close never sells beyond the bankruptcy price: the insurance fund pays nothing', async () => {
      setIndex(server(), 'BTC', '50000');
      const victim = await futuresTrader(server(), '1000');
      const accomplice = await futuresTrader(server(), '100000');
      const maker = await futuresTrader(server(), '100000');
      const leverage = await server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/leverage', {
        token: victim.token,
        body: { leverage: 100 },
      });
      expect(leverage.status).toBe(200);
      await placed(server(), maker, { side: 'sell', type: 'limit', price: '50000', quantity: '0.5' });
      expect((await placed(server(), victim, { side: 'buy', type: 'market', quantity: '0.5' })).status).toBe('filled');
      // Cross: 1,000 - 10 fee behind 0.5 BTC bought at 50,000: bankrupt at 48,020.
      const stop = await placed(server(), victim, {
        side: 'sell',
        type: 'stop_market',
        stop_price: '49000',
        quantity: '0.5',
        reduce_only: true,
      });
      const tpsl = await server().request('PUT', '/v1/futures/positions/BTC_USD_PERP/tpsl', {
        token: victim.token,
        body: { stop_loss_price: '49500' },
      });
      expect(tpsl.status, JSON.stringify(tpsl.body)).toBe(200);
      const stopLoss = (await openOrders(server(), victim)).find((o) => o.origin === 'tpsl')!;
      expect(stopLoss).toMatchObject({ type: 'stop_market', stop_price: '49500', quantity: '0.5', triggered: false });
      // The accomplice's bids: a little above the bankruptcy price, and far below it (9.8 % under the
      // mark, within the band around the stop, where an untriggered stop-market used to sell to).
      await placed(server(), accomplice, { side: 'buy', type: 'limit', price: '48500', quantity: '0.2' });
      await placed(server(), accomplice, { side: 'buy', type: 'limit', price: '45100', quantity: '0.5' });
      const before = await fund();
      await print(server(), printBuyer, printSeller, '49000');
      // The stop (placed first) closes what it can at or above 48,020, and the rest expires.
      expect(await getOrder(server(), victim, stop.id)).toMatchObject({
        status: 'expired',
        triggered: true,
        filled_quantity: '0.2',
        price: '48020',
      });
      // The stop-loss followed the position down to 0.3, then triggered: its bound is the new
      // bankruptcy price (686.12 behind 0.3 BTC: 47,712.94, rounded up); nothing to sell to there.
      expect(await getOrder(server(), victim, stopLoss.id)).toMatchObject({
        status: 'expired',
        triggered: true,
        quantity: '0.3',
        filled_quantity: '0',
        price: '47713',
      });
      expect(await fund()).toBe(before);
      expect(await positions(server(), victim)).toMatchObject([{ side: 'long', size: '0.3' }]);
      expect((await account(server(), victim)).wallet_balance).toBe('686.12');
      expect(await positions(server(), accomplice)).toMatchObject([{ side: 'long', size: '0.2' }]);
      const book = (await server().request('GET', '/v1/futures/markets/BTC_USD_PERP/orderbook')).body;
      expect(book.bids).toEqual([['45100', '0.5']]);
      await server().request('DELETE', '/v1/futures/orders?market=BTC_USD_PERP', { token: accomplice.token });
    });

    it('waiting stops survive a reload from the committed rows and trigger afterwards; a cancelled one never does', async () => {
      setIndex(server(), 'ETH', '3000');
      const trader = await futuresTrader(server(), '10000');
      const maker = await futuresTrader(server(), '100000');
      const eth = { market: 'ETH_USD_PERP' };
      await print(server(), printBuyer, printSeller, '3000', 'ETH_USD_PERP');
      const stopMarket = await placed(server(), trader, {
        ...eth,
        side: 'buy',
        type: 'stop_market',
        stop_price: '3100',
        quantity: '1',
      });
      const stopLimit = await placed(server(), trader, {
        ...eth,
        side: 'buy',
        type: 'stop_limit',
        stop_price: '3050',
        price: '3060',
        quantity: '1',
      });
      const cancelled = await placed(server(), trader, {
        ...eth,
        side: 'sell',
        type: 'stop_market',
        stop_price: '2900',
        quantity: '1',
      });
      const marginBefore = (await account(server(), trader)).order_margin;
      const cancel = await server().request('DELETE', `/v1/futures/orders/${cancelled.id}`, { token: trader.token });
      expect(cancel.body).toMatchObject({ status: 'cancelled', triggered: false });
      expect(Number((await account(server(), trader)).order_margin)).toBeLessThan(Number(marginBefore));
      const modified = await server().request('PUT', `/v1/futures/orders/${stopMarket.id}`, {
        token: trader.token,
        body: { stop_price: '3110' },
      });
      expect(modified.body, JSON.stringify(modified.body)).toMatchObject({ stop_price: '3110', triggered: false });
      // Nothing waiting shows in the book.
      expect((await server().request('GET', '/v1/futures/markets/ETH_USD_PERP/orderbook')).body.bids).toEqual([]);
      await reloadFromRows(server(), trader);
      const open = await openOrders(server(), trader, 'ETH_USD_PERP');
      expect(open.map((o) => [o.id, o.status, o.triggered]).sort()).toEqual(
        [
          [stopMarket.id, 'pending', false],
          [stopLimit.id, 'pending', false],
        ].sort(),
      );
      await placed(server(), maker, { ...eth, side: 'sell', type: 'limit', price: '3120', quantity: '1' });
      await print(server(), printBuyer, printSeller, '3050', 'ETH_USD_PERP');
      // The stop-limit rests at 3,060 (below the ask); the stop-market, at 3,110, waits on.
      expect(await getOrder(server(), trader, stopLimit.id)).toMatchObject({ status: 'pending', triggered: true });
      expect((await server().request('GET', '/v1/futures/markets/ETH_USD_PERP/orderbook')).body.bids).toEqual([
        ['3060', '1'],
      ]);
      expect(await getOrder(server(), trader, stopMarket.id)).toMatchObject({ status: 'pending', triggered: false });
      await print(server(), printBuyer, printSeller, '3110', 'ETH_USD_PERP');
      expect(await getOrder(server(), trader, stopMarket.id)).toMatchObject({
        status: 'filled',
        triggered: true,
        average_price: expect.stringMatching(/^3120(\.0*)?$/),
      });
      // The triggered stop-limit rests in the book and cancels from there; the stop cancelled while
      // it waited stays cancelled when the market reaches it.
      const resting = await server().request('DELETE', `/v1/futures/orders/${stopLimit.id}`, { token: trader.token });
      expect(resting.body).toMatchObject({ status: 'cancelled', triggered: true });
      await print(server(), printBuyer, printSeller, '2900', 'ETH_USD_PERP');
      expect(await getOrder(server(), trader, cancelled.id)).toMatchObject({
        status: 'cancelled',
        filled_quantity: '0',
      });
      expect(await positions(server(), trader)).toMatchObject([{ market: 'ETH_USD_PERP', side: 'long', size: '1' }]);
    });

    it('TP/SL orders wait off the book, follow the position size and go when it closes', async () => {
      setIndex(server(), 'SOL', '100');
      const trader = await futuresTrader(server(), '10000');
      const maker = await futuresTrader(server(), '100000');
      const sol = { market: 'SOL_USD_PERP' };
      await placed(server(), maker, { ...sol, side: 'sell', type: 'limit', price: '100', quantity: '10' });
      await placed(server(), trader, {
        ...sol,
        side: 'buy',
        type: 'market',
        quantity: '4',
        take_profit_price: '110',
        stop_loss_price: '95',
      });
      const quantities = async () =>
        (await openOrders(server(), trader, 'SOL_USD_PERP'))
          .filter((o) => o.origin === 'tpsl')
          .map((o) => [o.type, o.quantity, o.triggered])
          .sort();
      expect(await quantities()).toEqual([
        ['stop_market', '4', false],
        ['take_profit_market', '4', false],
      ]);
      expect((await server().request('GET', '/v1/futures/markets/SOL_USD_PERP/orderbook')).body.asks).toEqual([
        ['100', '6'],
      ]);
      await placed(server(), trader, { ...sol, side: 'buy', type: 'market', quantity: '2' });
      expect(await quantities()).toEqual([
        ['stop_market', '6', false],
        ['take_profit_market', '6', false],
      ]);
      await placed(server(), maker, { ...sol, side: 'buy', type: 'limit', price: '99', quantity: '1' });
      await placed(server(), trader, { ...sol, side: 'sell', type: 'market', quantity: '1', reduce_only: true });
      expect(await quantities()).toEqual([
        ['stop_market', '5', false],
        ['take_profit_market', '5', false],
      ]);
      // The take-profit triggers on a trade at 110 and closes the position; the stop-loss goes with it.
      await server().request('DELETE', '/v1/futures/orders?market=SOL_USD_PERP', { token: maker.token });
      await placed(server(), printBuyer, { ...sol, side: 'buy', type: 'limit', price: '109', quantity: '5' });
      await placed(server(), printBuyer, { ...sol, side: 'buy', type: 'limit', price: '110', quantity: '0.01' });
      await placed(server(), printSeller, { ...sol, side: 'sell', type: 'market', quantity: '0.01' });
      expect(await positions(server(), trader)).toEqual([]);
      expect(await quantities()).toEqual([]);
      const closed = (
        await server().request('GET', '/v1/futures/orders?status=closed&market=SOL_USD_PERP', {
          token: trader.token,
        })
      ).body.orders as OrderBody[];
      expect(
        closed
          .filter((o) => o.origin === 'tpsl')
          .map((o) => [o.type, o.status, o.triggered, o.filled_quantity])
          .sort(),
      ).toEqual([
        ['stop_market', 'cancelled', false, '0'],
        ['take_profit_market', 'filled', true, '5'],
      ]);
    });
  },
  ENVIRONMENT,
);

/**
 * Makes the next batch's write fail: the exchange drops its memory and reads it back from the
 * committed rows (load.ts), exactly as at start.
 */
async function reloadFromRows(server: TestServer, trader: Trader): Promise<void> {
  const db = server.db;
  const original = db.transaction.bind(db);
  db.transaction = (async () => {
    db.transaction = original;
    throw new Error('disk full');
  }) as typeof db.transaction;
  const failed = await server.request('PUT', '/v1/futures/markets/XRP_USD_PERP/leverage', {
    token: trader.token,
    body: { leverage: 5 },
  });
  db.transaction = original;
  expect(failed.status).toBe(503);
}
