import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { futuresTrader, order, positions, setIndex } from './test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

describeEachDatabase(
  'futures market data, preview and TP/SL',
  (server) => {
    beforeAll(() => server().services.futures.workers.funding.stop());

    it('lists the ten perpetuals with their tiers, book and mark', async () => {
      setIndex(server(), 'SOL', '150');
      const list = await server().request('GET', '/v1/futures/markets');
      expect(list.status).toBe(200);
      expect(list.body.markets.map((m: { id: string }) => m.id)).toEqual(
        ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'TON'].map((base) => `${base}_USD_PERP`),
      );
      const sol = await server().request('GET', '/v1/futures/markets/sol_usd_perp');
      expect(sol.body).toMatchObject({
        tick_size: '0.01',
        lot_size: '0.01',
        max_leverage: 75,
        taker_fee_rate: '0.0004',
      });
      const tiers = await server().request('GET', '/v1/futures/markets/BTC_USD_PERP/tiers');
      expect(tiers.body.tiers[0]).toMatchObject({
        notional_cap: '50000',
        max_leverage: 100,
        maintenance_margin_rate: '0.005',
      });
      // cum_n = floor_n x (mmr_n - mmr_n-1) + cum_n-1: 50,000 x 0.5 % = 250, then 250,000 x 1.5 % + 250 = 4,000.
      expect(tiers.body.tiers[1]).toMatchObject({ notional_floor: '50000', maintenance_amount: '250' });
      expect(tiers.body.tiers[2]).toMatchObject({ notional_floor: '250000', maintenance_amount: '4000' });
      const mark = await server().request('GET', '/v1/futures/markets/SOL_USD_PERP/mark');
      expect(mark.body).toMatchObject({ market: 'SOL_USD_PERP', index_price: '150' });
      const book = await server().request('GET', '/v1/futures/markets/SOL_USD_PERP/orderbook?depth=5');
      expect(book.body).toMatchObject({ market: 'SOL_USD_PERP', bids: [], asks: [] });
      expect((await server().request('GET', '/v1/futures/markets/NOPE_USD_PERP')).body.error.code).toBe(
        'FUTURES_MARKET_NOT_FOUND',
      );
      expect((await server().request('GET', '/v1/futures/insurance-fund')).body.currency).toBe('USD');
    });

    it('previews the margin, fee and liquidation price of an order before it is sent', async () => {
      setIndex(server(), 'BTC', '50000');
      const a = await futuresTrader(server(), '1000');
      const preview = await server().request('POST', '/v1/futures/orders/preview', {
        token: a.token,
        body: { market: 'BTC_USD_PERP', side: 'buy', type: 'limit', price: '50000', quantity: '0.1' },
      });
      expect(preview.status).toBe(200);
      // 5,000 at 20x: 250 of margin and a 2 fee (taker, the worst case).
      expect(preview.body).toMatchObject({
        notional: '5000',
        initial_margin: '250',
        fee: '2',
        cost: '252',
        resulting_side: 'long',
        resulting_size: '0.1',
        resulting_entry_price: '50000',
        error: null,
      });
      expect(preview.body.liquidation_price).not.toBeNull();
      const tooBig = await server().request('POST', '/v1/futures/orders/preview', {
        token: a.token,
        body: { market: 'BTC_USD_PERP', side: 'buy', type: 'limit', price: '50000', quantity: '1' },
      });
      expect(tooBig.body.error).toMatchObject({ code: 'INSUFFICIENT_MARGIN' });
      const nul = await server().request('POST', '/v1/futures/orders', {
        token: a.token,
        body: { market: 'BTC_USD_PERP', side: 'buy', type: 'limit', price: '50000\u0000', quantity: '0.1' },
      });
      expect(nul.body.error.code).toBe('VALIDATION_ERROR');
      const fine = await server().request('POST', '/v1/futures/orders', {
        token: a.token,
        body: { market: 'BTC_USD_PERP', side: 'buy', type: 'limit', price: '50000.05', quantity: '0.1' },
      });
      expect(fine.body.error.code).toBe('VALIDATION_ERROR');
      expect((await server().request('GET', '/v1/futures/orders', { token: a.token })).body.orders).toEqual([]);
    });

    it('turns TP/SL into reduce-only orders that follow the position and go when it closes', async () => {
      setIndex(server(), 'ETH', '3000');
      const a = await futuresTrader(server(), '2000');
      const b = await futuresTrader(server(), '2000');
      const ask = await order(server(), b, {
        market: 'ETH_USD_PERP',
        side: 'sell',
        type: 'limit',
        price: '3000',
        quantity: '1',
      });
      expect(ask.status).toBe(201);
      const bought = await order(server(), a, {
        market: 'ETH_USD_PERP',
        side: 'buy',
        type: 'market',
        quantity: '0.4',
        take_profit_price: '3300',
        stop_loss_price: '2800',
      });
      expect(bought.body.status).toBe('filled');
      const [position] = await positions(server(), a);
      expect(position).toMatchObject({ size: '0.4', take_profit_price: '3300', stop_loss_price: '2800' });
      const open = async () =>
        (await server().request('GET', '/v1/futures/orders?status=open', { token: a.token })).body.orders as {
          type: string;
          quantity: string;
          origin: string;
          reduce_only: boolean;
        }[];
      let tpsl = await open();
      expect(tpsl.map((o) => [o.type, o.quantity, o.origin, o.reduce_only]).sort()).toEqual([
        ['stop_market', '0.4', 'tpsl', true],
        ['take_profit_market', '0.4', 'tpsl', true],
      ]);
      // The position grows: the TP/SL follow it.
      await order(server(), a, { market: 'ETH_USD_PERP', side: 'buy', type: 'market', quantity: '0.2' });
      tpsl = await open();
      expect(tpsl.map((o) => o.quantity)).toEqual(['0.6', '0.6']);
      const wrong = await server().request('PUT', '/v1/futures/positions/ETH_USD_PERP/tpsl', {
        token: a.token,
        body: { stop_loss_price: '3100' },
      });
      expect(wrong.body.error.code).toBe('INVALID_PRICE');
      // Closed through the book (b's bid under its own ask): the TP/SL orders are cancelled with it.
      const bid = await order(server(), b, {
        market: 'ETH_USD_PERP',
        side: 'buy',
        type: 'limit',
        price: '2990',
        quantity: '0.6',
      });
      expect(bid.status).toBe(201);
      const closed = await order(server(), a, {
        market: 'ETH_USD_PERP',
        side: 'sell',
        type: 'market',
        close_position: true,
      });
      expect(closed.body.status, JSON.stringify([bid.body, closed.body])).toBe('filled');
      expect(await positions(server(), a)).toEqual([]);
      expect(await open()).toEqual([]);
    });

    it('publishes the book, the trades and the user channels once a batch has committed', async () => {
      setIndex(server(), 'LINK', '15');
      const a = await futuresTrader(server(), '500');
      const b = await futuresTrader(server(), '500');
      const seen = new Map<string, unknown[]>();
      const topics = [
        'orderbook.LINK_USD_PERP',
        'trades.LINK_USD_PERP',
        `account.${a.id}.positions`,
        `account.${a.id}.futures_orders`,
      ];
      const stops = topics.map((topic) =>
        server().pubsub.subscribe(topic, (message) => seen.set(topic, [...(seen.get(topic) ?? []), message])),
      );
      await order(server(), b, { market: 'LINK_USD_PERP', side: 'sell', type: 'limit', price: '15', quantity: '2' });
      await order(server(), a, { market: 'LINK_USD_PERP', side: 'buy', type: 'market', quantity: '2' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const stop of stops) stop();
      expect(seen.get('orderbook.LINK_USD_PERP')?.[0]).toMatchObject({ trading_pair: 'LINK_USD_PERP', kind: 'delta' });
      expect(seen.get('trades.LINK_USD_PERP')).toEqual([
        expect.objectContaining({
          trading_pair: 'LINK_USD_PERP',
          price: '15',
          quantity: '2',
          total: '30',
          side: 'buy',
        }),
      ]);
      expect(seen.get(`account.${a.id}.positions`)).toEqual([
        expect.objectContaining({
          market: 'LINK_USD_PERP',
          reason: 'fill',
          position: expect.objectContaining({ size: '2' }),
        }),
      ]);
      expect(seen.get(`account.${a.id}.futures_orders`)).toEqual([expect.objectContaining({ status: 'filled' })]);
    });

    it('modifies an open order (price and quantity) after checking it again', async () => {
      setIndex(server(), 'AVAX', '30');
      const a = await futuresTrader(server(), '100');
      const placed = await order(server(), a, {
        market: 'AVAX_USD_PERP',
        side: 'buy',
        type: 'limit',
        price: '29',
        quantity: '10',
      });
      expect(placed.status).toBe(201);
      const modify = (body: Record<string, unknown>) =>
        server().request('PUT', `/v1/futures/orders/${placed.body.id}`, { token: a.token, body });
      const repriced = await modify({ price: '29.5' });
      expect(repriced.body).toMatchObject({ price: '29.5', quantity: '10', status: 'pending' });
      const resized = await modify({ quantity: '20' });
      expect(resized.body).toMatchObject({ price: '29.5', quantity: '20' });
      // 20 x 29.5 = 590 at 20x: 29.5 of margin plus a 0.236 taker fee.
      expect((await server().request('GET', '/v1/futures/account', { token: a.token })).body.order_margin).toBe(
        '29.736',
      );
      const tooBig = await modify({ quantity: '100' });
      expect(tooBig.body.error.code).toBe('INSUFFICIENT_MARGIN');
      expect((await modify({ quantity: '-1' })).body.error.code).toBe('VALIDATION_ERROR');
      expect((await modify({ price: '29.5001' })).body.error.code).toBe('VALIDATION_ERROR');
    });

    it('trims a reduce-only order when the position shrinks under it', async () => {
      setIndex(server(), 'TON', '5');
      const a = await futuresTrader(server(), '100');
      const b = await futuresTrader(server(), '100');
      const ton = (trader: typeof a, body: Record<string, unknown>) =>
        order(server(), trader, { market: 'TON_USD_PERP', ...body });
      await ton(b, { side: 'sell', type: 'limit', price: '5', quantity: '20' });
      expect((await ton(a, { side: 'buy', type: 'market', quantity: '20' })).body.status).toBe('filled');
      const takeProfit = await ton(a, { side: 'sell', type: 'limit', price: '5.4', quantity: '20', reduce_only: true });
      expect(takeProfit.status).toBe(201);
      const more = await ton(a, { side: 'sell', type: 'limit', price: '5.5', quantity: '1', reduce_only: true });
      expect(more.body.error.code).toBe('REDUCE_ONLY_WOULD_INCREASE');
      // Half the position goes at market: the reduce-only order keeps only what the rest allows.
      await ton(b, { side: 'buy', type: 'limit', price: '5', quantity: '12' });
      expect((await ton(a, { side: 'sell', type: 'market', quantity: '12' })).body.status).toBe('filled');
      const trimmed = await server().request('GET', `/v1/futures/orders/${takeProfit.body.id}`, { token: a.token });
      expect(trimmed.body).toMatchObject({ quantity: '8', status: 'pending', reduce_only: true });
    });
  },
  ENVIRONMENT,
);
