import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { postEntries } from '../ledger/service.ts';
import { balance, feeBalance, fund, placeOrder, setReferencePrice } from './test-support.ts';

type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };

// The feed is off so that the reference price is whatever a test sets: 50,000.00 USD per BTC.
describeEachDatabase(
  'trading: orders, matching and settlement through HTTP',
  (server) => {
    let alice: SignedUp;
    let bob: SignedUp;
    let carol: SignedUp;
    const token = (user: SignedUp) => user.session.token;
    const id = (user: SignedUp) => user.session.account_id;

    beforeAll(async () => {
      alice = await signUp(server());
      bob = await signUp(server());
      carol = await signUp(server());
    });

    beforeEach(() => {
      setReferencePrice(server(), 'BTC_USD', '50000.00');
    });

    describe('a limit sell meets a limit buy', () => {
      it('rests, trades at the maker price, and settles both sides with 0.1 % fees', async () => {
        await fund(server(), id(alice), 'BTC', '1');
        await fund(server(), id(bob), 'USD', '30000');
        const feesBefore = await feeBalance(server(), 'BTC_USD', 'USD');

        const sell = await placeOrder(server(), token(alice), {
          trading_pair: 'BTC_USD',
          side: 'sell',
          type: 'limit',
          price: '50000.00',
          quantity: '0.5',
        });
        expect(sell.status).toBe(201);
        expect(sell.body).toMatchObject({ status: 'pending', price: '50000.00', quantity: '0.5000000' });
        expect(await balance(server(), id(alice), 'BTC')).toEqual({ currency: 'BTC', available: '0.5', locked: '0.5' });

        const book = await server().request('GET', '/v1/orderbook/BTC_USD');
        expect(book.status).toBe(200);
        expect((book.body as { asks: string[][] }).asks[0]).toEqual(['50000.00', '0.5000000']);

        const buy = await placeOrder(server(), token(bob), {
          symbol: 'BTC/USD',
          side: 'buy',
          type: 'limit',
          price: '50100.00',
          quantity: '0.5',
        });
        expect(buy.status).toBe(201);
        expect(buy.body).toMatchObject({
          status: 'filled',
          filled_quantity: '0.5000000',
          average_price: '50000.00',
          total: '25000',
          fee: '25',
          fee_currency: 'USD',
        });

        // Bob held 0.5 x 50,100 x 1.001 = 25,075.05; he paid 25,000 + 25 and got the rest back.
        expect(await balance(server(), id(bob), 'USD')).toEqual({ currency: 'USD', available: '4975', locked: '0' });
        expect(await balance(server(), id(bob), 'BTC')).toEqual({ currency: 'BTC', available: '0.5', locked: '0' });
        expect(await balance(server(), id(alice), 'USD')).toEqual({ currency: 'USD', available: '24975', locked: '0' });
        expect(await balance(server(), id(alice), 'BTC')).toEqual({ currency: 'BTC', available: '0.5', locked: '0' });
        const feesAfter = await feeBalance(server(), 'BTC_USD', 'USD');
        expect(Number(feesAfter.available) - Number(feesBefore.available)).toBe(50);

        const sold = await server().request('GET', `/v1/orders/${sell.body.id}`, { token: token(alice) });
        expect(sold.body).toMatchObject({ status: 'filled', fee: '25' });

        const trades = await server().request('GET', '/v1/market/BTC_USD/trades');
        expect(trades.status).toBe(200);
        expect((trades.body as unknown[])[0]).toMatchObject({
          price: '50000',
          quantity: '0.5',
          side: 'buy',
          total: '25000',
        });

        const mine = await server().request('GET', `/v1/accounts/${id(alice)}/trades`, { token: token(alice) });
        const trade = (mine.body as { trades: { id: string; side: string; role: string; fee: string }[] }).trades[0]!;
        expect(trade).toMatchObject({ side: 'sell', role: 'maker', fee: '25' });
        const one = await server().request('GET', `/v1/trades/${encodeURIComponent(trade.id)}`, { token: token(bob) });
        expect(one.body).toMatchObject({ side: 'buy', role: 'taker' });
        const stranger = await server().request('GET', `/v1/trades/${encodeURIComponent(trade.id)}`, {
          token: token(carol),
        });
        expect(stranger.status).toBe(404);

        const stats = await server().request('GET', `/v1/accounts/${id(bob)}/trading/statistics`, {
          token: token(bob),
        });
        expect(stats.body).toMatchObject({
          total_trades: 1,
          buy_trades: 1,
          taker_trades: 1,
          fees_by_currency: { USD: '25' },
        });
      });
    });

    describe('holds and errors', () => {
      it("refuses an order the balance cannot cover with 'Insufficient balance' and keeps nothing", async () => {
        const poor = await signUp(server());
        await fund(server(), id(poor), 'USD', '100');
        const response = (await placeOrder(server(), token(poor), {
          trading_pair: 'BTC_USD',
          side: 'buy',
          type: 'limit',
          price: '50000.00',
          quantity: '0.01',
        })) as unknown as { status: number; body: ErrorBody };
        expect(response.status).toBe(422);
        expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance' });
        expect(await balance(server(), id(poor), 'USD')).toEqual({ currency: 'USD', available: '100', locked: '0' });
        const orders = await server().request('GET', `/v1/accounts/${id(poor)}/orders`, { token: token(poor) });
        expect((orders.body as { orders: unknown[] }).orders).toEqual([]);
      });

      it.each([
        [{ quantity: '' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ quantity: '-1' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ quantity: '0' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ quantity: '0.00000001' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ quantity: '1e3' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ quantity: '100000000000000000000000' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ quantity: '1000' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ price: '50000.001' }, 'INVALID_PRICE', 'Invalid price'],
        [{ price: 'abc' }, 'INVALID_PRICE', 'Invalid price'],
        [{ price: '90000.00' }, 'INVALID_PRICE', 'Price must be within 10% of the market price'],
        [{ price: '44999.99' }, 'INVALID_PRICE', 'Price must be within 10% of the market price'],
        [
          { type: 'stop_limit', price: '49000.00', stop_price: '56000.00' },
          'INVALID_PRICE',
          'Stop price must be within 10% of the market price',
        ],
        [{ price: undefined }, 'INVALID_PRICE', 'Invalid price'],
        [{ quantity: true }, 'VALIDATION_ERROR', undefined],
        [{ trading_pair: 'NOPE_USD' }, 'TRADING_PAIR_NOT_FOUND', 'Trading pair not found'],
        [{ side: 'hold' }, 'VALIDATION_ERROR', undefined],
        [{ type: 'market', price: undefined, time_in_force: 'GTC' }, 'VALIDATION_ERROR', undefined],
      ])('refuses %j with %s', async (change, code, message) => {
        await fund(server(), id(carol), 'USD', '1000000');
        const body = {
          trading_pair: 'BTC_USD',
          side: 'buy',
          type: 'limit',
          price: '49000.00',
          quantity: '0.01',
          ...change,
        };
        const response = (await placeOrder(server(), token(carol), body)) as unknown as {
          status: number;
          body: ErrorBody;
        };
        expect(response.body.error.code).toBe(code);
        if (message !== undefined) expect(response.body.error.message).toBe(message);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      });

      it('answers 401 without a token', async () => {
        const response = await server().request('POST', '/v1/orders', { body: { side: 'buy' } });
        expect(response.status).toBe(401);
      });
    });

    describe('cancel, modify and ownership', () => {
      it('cancels an open order and releases its hold; a second cancel is refused', async () => {
        const user = await signUp(server());
        await fund(server(), id(user), 'USD', '10000');
        const placed = await placeOrder(server(), token(user), {
          trading_pair: 'BTC_USD',
          side: 'buy',
          type: 'limit',
          price: '45000.00',
          quantity: '0.1',
        });
        expect(placed.status).toBe(201);
        expect(await balance(server(), id(user), 'USD')).toEqual({
          currency: 'USD',
          available: '5495.5',
          locked: '4504.5',
        });

        // Someone else's order id looks exactly like a missing one.
        for (const [method, path] of [
          ['GET', `/v1/orders/${placed.body.id}`],
          ['POST', `/v1/orders/${placed.body.id}/cancel`],
        ] as const) {
          const response = await server().request(method, path, { token: token(carol) });
          expect(response.status).toBe(404);
          expect((response.body as ErrorBody).error.message).toBe('Order not found');
        }
        const other = await server().request('PUT', `/v1/orders/${placed.body.id}/modify`, {
          token: token(carol),
          body: { quantity: '0.05' },
        });
        expect(other.status).toBe(404);
        const list = await server().request('GET', `/v1/accounts/${id(user)}/orders`, { token: token(carol) });
        expect(list.status).toBe(403);

        const cancelled = await server().request('POST', `/v1/orders/${placed.body.id}/cancel`, { token: token(user) });
        expect(cancelled.status).toBe(200);
        expect(cancelled.body).toMatchObject({ status: 'cancelled', filled_quantity: '0.0000000' });
        expect(await balance(server(), id(user), 'USD')).toEqual({ currency: 'USD', available: '10000', locked: '0' });
        const again = await server().request('POST', `/v1/orders/${placed.body.id}/cancel`, { token: token(user) });
        expect(again.status).toBe(409);
      });

      it('lowering the quantity keeps priority and releases funds; a new price loses priority', async () => {
        const first = await signUp(server());
        const second = await signUp(server());
        const taker = await signUp(server());
        await fund(server(), id(first), 'BTC', '1');
        await fund(server(), id(second), 'BTC', '1');
        await fund(server(), id(taker), 'USD', '100000');
        const sell = (user: SignedUp) =>
          placeOrder(server(), token(user), {
            trading_pair: 'BTC_USD',
            side: 'sell',
            type: 'limit',
            price: '51000.00',
            quantity: '0.2',
          });
        const a = await sell(first);
        const b = await sell(second);
        const reduced = await server().request('PUT', `/v1/orders/${a.body.id}/modify`, {
          token: token(first),
          body: { quantity: '0.1' },
        });
        expect(reduced.status).toBe(200);
        expect(reduced.body).toMatchObject({ quantity: '0.1000000', status: 'pending' });
        expect(await balance(server(), id(first), 'BTC')).toEqual({ currency: 'BTC', available: '0.9', locked: '0.1' });

        // Still first in the queue: a buy of 0.1 fills it, not the second seller.
        const buy = await placeOrder(server(), token(taker), {
          trading_pair: 'BTC_USD',
          side: 'buy',
          type: 'limit',
          price: '51000.00',
          quantity: '0.1',
        });
        expect(buy.body.status).toBe('filled');
        expect((await server().request('GET', `/v1/orders/${a.body.id}`, { token: token(first) })).body).toMatchObject({
          status: 'filled',
        });
        const moved = await server().request('PUT', `/v1/orders/${b.body.id}/modify`, {
          token: token(second),
          body: { price: '51500.00' },
        });
        expect(moved.status).toBe(200);
        expect(moved.body).toMatchObject({ price: '51500.00', status: 'pending' });
        const tooFar = await server().request('PUT', `/v1/orders/${b.body.id}/modify`, {
          token: token(second),
          body: { price: '55000.01' },
        });
        expect(tooFar.status).toBe(400);
        expect((tooFar.body as ErrorBody).error).toMatchObject({
          code: 'INVALID_PRICE',
          message: 'Price must be within 10% of the market price',
          details: { field: 'price', band_percent: '10', reference_price: '50000.00' },
        });
        await server().request('POST', `/v1/orders/${b.body.id}/cancel`, { token: token(second) });
      });
    });

    describe('client order ids', () => {
      it('a retry returns the first order and holds once; other parameters under the same id are refused', async () => {
        const user = await signUp(server());
        await fund(server(), id(user), 'USD', '10000');
        const body = {
          trading_pair: 'BTC_USD',
          side: 'buy',
          type: 'limit',
          price: '46000.00',
          quantity: '0.1',
          client_order_id: 'my-order-1',
        };
        const first = await placeOrder(server(), token(user), body);
        const second = await placeOrder(server(), token(user), body);
        expect(first.status).toBe(201);
        expect(second.status).toBe(200);
        expect(second.body.id).toBe(first.body.id);
        expect(await balance(server(), id(user), 'USD')).toEqual({
          currency: 'USD',
          available: '5395.4',
          locked: '4604.6',
        });
        const conflict = await placeOrder(server(), token(user), { ...body, price: '47000.00' });
        expect(conflict.status).toBe(409);
      });
    });

    describe('market orders', () => {
      it('buys by quote amount against the book and never spends more than asked plus the fee', async () => {
        const maker = await signUp(server());
        const buyer = await signUp(server());
        await fund(server(), id(maker), 'BTC', '2');
        await fund(server(), id(buyer), 'USD', '2000');
        await placeOrder(server(), token(maker), {
          trading_pair: 'BTC_USD',
          side: 'sell',
          type: 'limit',
          price: '50010.00',
          quantity: '1',
        });
        const bought = await placeOrder(server(), token(buyer), {
          trading_pair: 'BTC_USD',
          side: 'buy',
          type: 'market',
          quote_amount: '1000',
        });
        expect(bought.status).toBe(201);
        // 1000 / 50010 = 0.0199960 lots at 7 decimals (whole lots only), cost 999.99996.
        expect(bought.body).toMatchObject({ status: 'completed', filled_quantity: '0.0199960', total: '999.99996' });
        const usd = await balance(server(), id(buyer), 'USD');
        expect(usd.locked).toBe('0');
        expect(usd.available).toBe('999.00004004');
      });

      it('a market order with nothing to trade against expires and releases its hold', async () => {
        const user = await signUp(server());
        await fund(server(), id(user), 'BTC', '1');
        setReferencePrice(server(), 'ETH_USD', '3000.00');
        await fund(server(), id(user), 'ETH', '1');
        const sold = await placeOrder(server(), token(user), {
          trading_pair: 'ETH_USD',
          side: 'sell',
          type: 'market',
          quantity: '0.5',
        });
        expect(sold.status).toBe(201);
        expect(sold.body).toMatchObject({ status: 'expired', filled_quantity: '0.000000' });
        expect(await balance(server(), id(user), 'ETH')).toEqual({ currency: 'ETH', available: '1', locked: '0' });
      });
    });

    describe('stop orders', () => {
      it('a stop-loss sell waits, then triggers on the last trade price and sells at market', async () => {
        const holder = await signUp(server());
        const bidder = await signUp(server());
        const trader = await signUp(server());
        setReferencePrice(server(), 'SOL_USD', '100.00');
        await fund(server(), id(holder), 'SOL', '10');
        await fund(server(), id(bidder), 'USD', '10000');
        await fund(server(), id(trader), 'SOL', '10');
        await fund(server(), id(trader), 'USD', '10000');
        const stop = await placeOrder(server(), token(holder), {
          trading_pair: 'SOL_USD',
          side: 'sell',
          type: 'stop_loss',
          stop_price: '95.00',
          quantity: '2',
        });
        expect(stop.status).toBe(201);
        expect(stop.body).toMatchObject({ status: 'pending', triggered: false });
        await placeOrder(server(), token(bidder), {
          trading_pair: 'SOL_USD',
          side: 'buy',
          type: 'limit',
          price: '94.00',
          quantity: '5',
        });
        // A trade at 94 (at or below the stop) triggers it.
        await placeOrder(server(), token(trader), {
          trading_pair: 'SOL_USD',
          side: 'sell',
          type: 'limit',
          price: '94.00',
          quantity: '1',
        });
        const after = await server().request('GET', `/v1/orders/${stop.body.id}`, { token: token(holder) });
        expect(after.body).toMatchObject({ status: 'filled', triggered: true, filled_quantity: '2.00000' });
        expect(await balance(server(), id(holder), 'SOL')).toEqual({ currency: 'SOL', available: '8', locked: '0' });
      });
    });

    describe('oco orders', () => {
      it('a sell oco rests its limit leg; a fill there ends the stop leg and the order settles once', async () => {
        const holder = await signUp(server());
        const buyer = await signUp(server());
        setReferencePrice(server(), 'ADA_USD', '1.0000');
        await fund(server(), id(holder), 'ADA', '100');
        await fund(server(), id(buyer), 'USD', '1000');
        const oco = await placeOrder(server(), token(holder), {
          trading_pair: 'ADA_USD',
          side: 'sell',
          type: 'oco',
          price: '1.0500',
          stop_price: '0.9500',
          quantity: '100',
        });
        expect(oco.status).toBe(201);
        expect(await balance(server(), id(holder), 'ADA')).toEqual({ currency: 'ADA', available: '0', locked: '100' });
        const book = await server().request('GET', '/v1/orderbook/ADA_USD');
        expect((book.body as { asks: string[][] }).asks).toHaveLength(1);

        const lift = await placeOrder(server(), token(buyer), {
          trading_pair: 'ADA_USD',
          side: 'buy',
          type: 'limit',
          price: '1.0500',
          quantity: '100',
        });
        expect(lift.body.status).toBe('filled');
        const done = await server().request('GET', `/v1/orders/${oco.body.id}`, { token: token(holder) });
        expect(done.body).toMatchObject({ status: 'filled', triggered: false });
        // 100 x 1.05 = 105, less the 0.1 % fee.
        expect(await balance(server(), id(holder), 'USD')).toEqual({
          currency: 'USD',
          available: '104.895',
          locked: '0',
        });
        expect(await balance(server(), id(holder), 'ADA')).toEqual({ currency: 'ADA', available: '0', locked: '0' });
      });

      it('a buy oco holds the dearer of its two legs', async () => {
        const user = await signUp(server());
        setReferencePrice(server(), 'ADA_USD', '1.0000');
        await fund(server(), id(user), 'USD', '1000');
        const oco = await placeOrder(server(), token(user), {
          trading_pair: 'ADA_USD',
          side: 'buy',
          type: 'oco',
          price: '0.9500',
          stop_price: '1.0700',
          stop_limit_price: '1.0800',
          quantity: '100',
        });
        expect(oco.status).toBe(201);
        // The stop leg may buy at 1.08: 108 + 0.1 % = 108.108 is held. (ADA last traded at 1.05 above.)
        expect(await balance(server(), id(user), 'USD')).toEqual({
          currency: 'USD',
          available: '891.892',
          locked: '108.108',
        });
        await server().request('POST', `/v1/orders/${oco.body.id}/cancel`, { token: token(user) });
        expect(await balance(server(), id(user), 'USD')).toEqual({ currency: 'USD', available: '1000', locked: '0' });
      });
    });

    describe('the payment-provider facade (spec §7.4)', () => {
      it('places, lists, cancels and shows history through /v1/triple-a/trade on the same engine', async () => {
        const user = await signUp(server());
        await fund(server(), id(user), 'USD', '10000');
        const placed = await server().request('POST', '/v1/triple-a/trade/order', {
          token: token(user),
          body: { symbol: 'BTC_USD', side: 'buy', type: 'limit', price: '48000.00', quantity: '0.05' },
        });
        expect(placed.status).toBe(201);
        const orderId = (placed.body as { id: string }).id;
        const open = await server().request('GET', '/v1/triple-a/trade/orders/open?symbol=BTC_USD', {
          token: token(user),
        });
        expect((open.body as { id: string }[]).map((order) => order.id)).toEqual([orderId]);
        const one = await server().request('GET', `/v1/triple-a/trade/order/${orderId}`, { token: token(user) });
        expect(one.body).toMatchObject({ id: orderId, status: 'pending' });
        const notMine = await server().request('GET', `/v1/triple-a/trade/order/${orderId}`, { token: token(carol) });
        expect(notMine.status).toBe(404);
        const cancelled = await server().request('DELETE', `/v1/triple-a/trade/order/${orderId}/cancel`, {
          token: token(user),
        });
        expect(cancelled.body).toMatchObject({ status: 'cancelled' });
        const history = await server().request('GET', '/v1/triple-a/trade/orders/history?limit=5', {
          token: token(user),
        });
        expect((history.body as { id: string; status: string }[])[0]).toMatchObject({
          id: orderId,
          status: 'cancelled',
        });
        expect(await balance(server(), id(user), 'USD')).toEqual({ currency: 'USD', available: '10000', locked: '0' });
      });
    });

    describe('concurrency', () => {
      it('200 simultaneous orders from an account funded for 100 accept exactly 100', async () => {
        const user = await signUp(server());
        // Each order holds 0.001 x 46,000 x 1.001 = 46.046 USD.
        await fund(server(), id(user), 'USD', '4604.6');
        const results = await Promise.all(
          Array.from({ length: 200 }, () =>
            placeOrder(server(), token(user), {
              trading_pair: 'BTC_USD',
              side: 'buy',
              type: 'limit',
              price: '46000.00',
              quantity: '0.001',
            }),
          ),
        );
        const accepted = results.filter((response) => response.status === 201);
        const refused = results.filter((response) => response.status === 422);
        expect(accepted).toHaveLength(100);
        expect(refused).toHaveLength(100);
        for (const response of refused) expect(response.body.error?.message).toBe('Insufficient balance');
        expect(await balance(server(), id(user), 'USD')).toEqual({ currency: 'USD', available: '0', locked: '4604.6' });
        expect(await checkLedgerInvariants(server().db)).toEqual([]);
      });

      it('two markets racing for the same funds never overspend: exactly the affordable orders are accepted', async () => {
        const user = await signUp(server());
        setReferencePrice(server(), 'ETH_USD', '2300.00');
        // Every order below holds 46.046 USD, on either market; the account can pay for 60 of them.
        await fund(server(), id(user), 'USD', '2762.76');
        const order = (pair: string, price: string, quantity: string) =>
          placeOrder(server(), token(user), { trading_pair: pair, side: 'buy', type: 'limit', price, quantity });
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, index) =>
            index % 2 === 0 ? order('BTC_USD', '46000.00', '0.001') : order('ETH_USD', '2300.00', '0.02'),
          ),
        );
        expect(results.filter((response) => response.status === 201)).toHaveLength(60);
        for (const response of results.filter((item) => item.status !== 201)) {
          expect(response.status).toBe(422);
          expect(response.body.error?.message).toBe('Insufficient balance');
        }
        expect(await balance(server(), id(user), 'USD')).toEqual({
          currency: 'USD',
          available: '0',
          locked: '2762.76',
        });
        expect(await checkLedgerInvariants(server().db)).toEqual([]);
      });
    });

    describe('the in-memory funds follow the ledger', () => {
      const buy = (user: SignedUp, quantity: string) =>
        placeOrder(server(), token(user), {
          trading_pair: 'BTC_USD',
          side: 'buy',
          type: 'limit',
          price: '46000.00',
          quantity,
        });

      it('a deposit that lands after the balance was read can be spent at once', async () => {
        const user = await signUp(server());
        await fund(server(), id(user), 'USD', '100');
        // 0.001 BTC at 46,000 holds 46.046 USD: the balance is now in memory.
        expect((await buy(user, '0.001')).status).toBe(201);
        expect((await buy(user, '0.002')).status).toBe(422);
        await fund(server(), id(user), 'USD', '100');
        const spent = await buy(user, '0.002');
        expect(spent.status).toBe(201);
        expect(await balance(server(), id(user), 'USD')).toEqual({
          currency: 'USD',
          available: '61.862',
          locked: '138.138',
        });
      });

      it('a balance taken behind its back makes the write fail; the market reloads and answers Insufficient balance', async () => {
        const user = await signUp(server());
        await fund(server(), id(user), 'USD', '100');
        expect((await buy(user, '0.001')).status).toBe(201);
        // 50 USD leave without telling trading (as a writer that skips the announcement would):
        // memory still says 53.954 USD are free.
        await postEntries(
          server().db,
          [
            {
              kind: 'test_withdrawal',
              reference: `stale:${id(user)}`,
              postings: [
                { owner: { kind: 'user', accountId: id(user) }, currency: 'USD', bucket: 'available', amount: '-50' },
                { owner: { kind: 'system', name: 'custody' }, currency: 'USD', bucket: 'available', amount: '50' },
              ],
            },
          ],
          { notify: false },
        );
        const refused = await buy(user, '0.001');
        expect(refused.status).toBe(422);
        expect(refused.body.error?.message).toBe('Insufficient balance');
        // The market reloaded from the database and goes on: 3.954 USD are really free.
        const small = await buy(user, '0.00005');
        expect(small.status).toBe(201);
        expect(await balance(server(), id(user), 'USD')).toEqual({
          currency: 'USD',
          available: '1.6517',
          locked: '48.3483',
        });
        const book = await server().request('GET', '/v1/orderbook/BTC_USD');
        expect((book.body as { bids: string[][] }).bids.some(([price]) => price === '46000.00')).toBe(true);
        expect(await checkLedgerInvariants(server().db)).toEqual([]);
      });
    });
  },
  // Registration is rate limited per address; this file signs up more users than the limit allows.
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
