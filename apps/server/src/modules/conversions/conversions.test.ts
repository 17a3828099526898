import type {
  Conversion,
  ConversionHistoryResponse,
  ConversionPairsResponse,
  QuickTradeHistoryResponse,
  WalletTransactionsResponse,
} from '@platform/contracts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { accountBalancesTopic } from '../trading/index.ts';
import { fund, placeOrder } from '../trading/test-support.ts';
import {
  available,
  convert,
  type ErrorBody,
  estimate,
  houseBalances,
  moved,
  newUser,
  quickTrade,
  quote,
  setReferencePrices,
  type User,
} from './test-support.ts';

// The feed is off: reference prices are what setReferencePrices publishes (BTC 50,000, ETH 2,500,
// ADA 0.5, DOT 5 USD). The ETH_USD book gets resting orders, which pricing must ignore.
describeEachDatabase(
  'conversions and quick trades through HTTP',
  (server) => {
    let alice: User;
    let bob: User;

    beforeAll(async () => {
      alice = await newUser(server());
      bob = await newUser(server());
    });

    beforeEach(() => {
      setReferencePrices(server());
    });

    describe('estimates and conversions at the reference price', () => {
      it('quotes 0.1 BTC -> USD at 50,000 less 0.5 %, and settles exactly that, the spread to the fees', async () => {
        await fund(server(), alice.id, 'BTC', '1');
        const before = server().clock.now.getTime();
        const offer = await quote(server(), alice, 'btc', 'usd', '0.1');
        expect(offer).toMatchObject({
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.1',
          to_amount: '4975',
          rate: '49750',
          spread: { percent: '0.5', amount: '25', currency: 'USD' },
          price_source: 'reference',
          route: ['BTC', 'USD'],
          valid_for_seconds: 15,
        });
        const expiresIn = new Date(offer.expires_at).getTime() - before;
        expect(expiresIn).toBeGreaterThanOrEqual(15_000);
        expect(expiresIn).toBeLessThan(16_000);

        const house = await houseBalances(server(), ['BTC', 'USD']);
        const done = await convert(server(), alice, {
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.1',
          quote_id: offer.quote_id,
        });
        expect(done.status).toBe(201);
        expect(done.body).toMatchObject({
          kind: 'conversion',
          status: 'completed',
          quote_id: offer.quote_id,
          from_amount: '0.1',
          to_amount: '4975',
          rate: '49750',
          spread: offer.spread,
          price_source: 'reference',
        });
        expect(await available(server(), alice, 'BTC')).toBe('0.9');
        expect(await available(server(), alice, 'USD')).toBe('4975');
        // The disclosed spread is what the fee account gained; the desk took the BTC and paid the gross.
        const after = await houseBalances(server(), ['BTC', 'USD']);
        expect(moved(house.USD!.fees, after.USD!.fees)).toBe(offer.spread.amount);
        expect(moved(house.USD!.desk, after.USD!.desk)).toBe('-5000');
        expect(moved(house.BTC!.desk, after.BTC!.desk)).toBe('0.1');

        const one = await server().request('GET', `/api/v1/conversions/${done.body.id}`, { token: alice.token });
        expect(one.status).toBe(200);
        expect(one.body).toEqual(done.body);

        const history = await server().request('GET', '/v1/wallet/transactions?type=conversion', {
          token: alice.token,
        });
        const rows = (history.body as WalletTransactionsResponse).transactions;
        expect(rows.map((row) => [row.type, row.currency, row.amount, row.reference]).sort()).toEqual([
          ['conversion', 'BTC', '-0.1', done.body.id],
          ['conversion', 'USD', '4975', done.body.id],
        ]);
      });

      it('without quote_id uses the latest unexpired quote for exactly that from/to/amount', async () => {
        await fund(server(), bob.id, 'USD', '1000');
        await quote(server(), bob, 'USD', 'BTC', '100');
        const latest = await quote(server(), bob, 'USD', 'BTC', '100');
        await quote(server(), bob, 'USD', 'BTC', '200');
        const done = await convert(server(), bob, { from_currency: 'usd', to_currency: 'btc', from_amount: 100 });
        expect(done.status).toBe(201);
        // 100 USD / 50,000 = 0.002 BTC, less 0.5 % = 0.00199 BTC.
        expect(done.body).toMatchObject({ quote_id: latest.quote_id, to_amount: '0.00199' });
        expect(await available(server(), bob, 'BTC')).toBe('0.00199');
        expect(await available(server(), bob, 'USD')).toBe('900');
      });

      it('goes through USD when no market joins the two currencies (ADA -> DOT)', async () => {
        await fund(server(), alice.id, 'ADA', '500');
        const offer = await quote(server(), alice, 'ADA', 'DOT', '100');
        // 100 ADA = 50 USD = 10 DOT; the spread 0.05 DOT.
        expect(offer).toMatchObject({
          to_amount: '9.95',
          spread: { percent: '0.5', amount: '0.05', currency: 'DOT' },
          route: ['ADA', 'USD', 'DOT'],
          price_source: 'reference',
        });
        const house = await houseBalances(server(), ['ADA', 'DOT', 'USD']);
        const done = await convert(server(), alice, {
          from_currency: 'ADA',
          to_currency: 'DOT',
          from_amount: '100',
          quote_id: offer.quote_id,
        });
        expect(done.status).toBe(201);
        expect(await available(server(), alice, 'DOT')).toBe('9.95');
        const after = await houseBalances(server(), ['ADA', 'DOT', 'USD']);
        expect(moved(house.ADA!.desk, after.ADA!.desk)).toBe('100');
        expect(moved(house.DOT!.desk, after.DOT!.desk)).toBe('-10');
        expect(moved(house.DOT!.fees, after.DOT!.fees)).toBe('0.05');
        // USD is only the yardstick of the cross: nothing moves in it.
        expect(after.USD).toEqual(house.USD);
      });
    });

    describe('the live book', () => {
      let maker: User;

      beforeAll(async () => {
        setReferencePrices(server());
        maker = await newUser(server());
        await fund(server(), maker.id, 'ETH', '10');
        await fund(server(), maker.id, 'USD', '10000');
        const orders = [
          { side: 'sell', price: '2500.00', quantity: '1' },
          { side: 'sell', price: '2510.00', quantity: '1' },
          { side: 'sell', price: '2520.00', quantity: '2' },
          { side: 'buy', price: '2490.00', quantity: '1' },
          { side: 'buy', price: '2480.00', quantity: '1' },
        ];
        for (const order of orders) {
          const placed = await placeOrder(server(), maker.token, { trading_pair: 'ETH_USD', type: 'limit', ...order });
          if (placed.status !== 201) throw new Error(`order not placed: ${JSON.stringify(placed.body)}`);
        }
      });

      it("prices at the reference whatever users' orders rest on the book, buying and selling", async () => {
        // The asks start at 2,500 and the bids at 2,490: the desk pays 2,500 per ETH either way.
        // 5,262 USD / 2,500 = 2.1048 ETH, less 0.010524.
        const buying = await quote(server(), alice, 'USD', 'ETH', '5262');
        expect(buying).toMatchObject({
          to_amount: '2.094276',
          spread: { amount: '0.010524', currency: 'ETH' },
          price_source: 'reference',
          route: ['USD', 'ETH'],
        });
        // 1.5 ETH x 2,500 = 3,750 USD, less 18.75; the bids (2,490, 2,480) are not looked at.
        const selling = await quote(server(), alice, 'ETH', 'USD', '1.5');
        expect(selling).toMatchObject({ to_amount: '3731.25', spread: { amount: '18.75' }, price_source: 'reference' });
        const beyond = await quote(server(), alice, 'ETH', 'USD', '3');
        expect(beyond).toMatchObject({ to_amount: '7462.5', spread: { amount: '37.5' }, price_source: 'reference' });
      });
    });

    describe('quotes expire and are used once', () => {
      it('refuses an expired quote with QUOTE_EXPIRED and writes nothing', async () => {
        const carol = await newUser(server());
        await fund(server(), carol.id, 'BTC', '0.5');
        const offer = await quote(server(), carol, 'BTC', 'USD', '0.01');
        server().clock.advance(16_000);
        const late = await convert(server(), carol, {
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.01',
          quote_id: offer.quote_id,
        });
        expect(late.status).toBe(409);
        expect(late.body.error).toMatchObject({
          code: 'QUOTE_EXPIRED',
          message: 'The quote has expired. Please get a new estimate.',
        });
        const implicit = await convert(server(), carol, {
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.01',
        });
        expect(implicit.body.error?.code).toBe('QUOTE_EXPIRED');
        expect(await available(server(), carol, 'BTC')).toBe('0.5');
        expect(await available(server(), carol, 'USD')).toBe('0');
      });

      it('executes a quote once: again is QUOTE_ALREADY_USED, and without quote_id QUOTE_EXPIRED', async () => {
        const dave = await newUser(server());
        await fund(server(), dave.id, 'BTC', '0.5');
        const offer = await quote(server(), dave, 'BTC', 'USD', '0.01');
        const body = { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.01', quote_id: offer.quote_id };
        expect((await convert(server(), dave, body)).status).toBe(201);
        const again = await convert(server(), dave, body);
        expect(again.status).toBe(409);
        expect(again.body.error.code).toBe('QUOTE_ALREADY_USED');
        const implicit = await convert(server(), dave, {
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.01',
        });
        expect(implicit.body.error.code).toBe('QUOTE_EXPIRED');
        expect(await available(server(), dave, 'BTC')).toBe('0.49');
      });

      it("refuses someone else's quote, a quote for another conversion, and an unknown quote id", async () => {
        await fund(server(), bob.id, 'BTC', '0.1');
        const offer = await quote(server(), alice, 'BTC', 'USD', '0.01');
        const body = { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.01', quote_id: offer.quote_id };
        const stolen = await convert(server(), bob, body);
        expect(stolen.status).toBe(404);
        expect(stolen.body.error.code).toBe('QUOTE_NOT_FOUND');
        const other = await convert(server(), alice, { ...body, from_amount: '0.02' });
        expect(other.status).toBe(409);
        expect(other.body.error.code).toBe('QUOTE_MISMATCH');
        const unknown = await convert(server(), alice, { ...body, quote_id: 'not-a-quote' });
        expect(unknown.body.error.code).toBe('QUOTE_NOT_FOUND');
      });
    });

    describe('bad inputs', () => {
      const query = { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.1' };

      it.each([
        [{ from_amount: '0' }, 'AMOUNT_NOT_POSITIVE', 'Amount must be greater than zero'],
        [{ from_amount: '-1' }, 'AMOUNT_NOT_POSITIVE', 'Amount must be greater than zero'],
        [{ from_amount: 'abc' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ from_amount: '' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ from_amount: '0.123456789' }, 'INVALID_AMOUNT', 'Amount has more than 8 decimals for BTC'],
        [{ from_amount: '99999999999999999999' }, 'INVALID_AMOUNT', 'Amount is too large'],
        [{ from_amount: '1e5' }, 'INVALID_AMOUNT', 'Invalid amount'],
        [{ from_currency: 'XYZ' }, 'CURRENCY_NOT_SUPPORTED', 'Currency XYZ is not supported'],
        [{ to_currency: 'doge2' }, 'CURRENCY_NOT_SUPPORTED', 'Currency DOGE2 is not supported'],
        [{ to_currency: '' }, 'CURRENCY_NOT_SUPPORTED', 'Currency is not supported'],
        [{ to_currency: 'btc' }, 'CONVERSION_NOT_SUPPORTED', 'Choose two different currencies to convert between'],
        [{ from_amount: '0.00001' }, 'AMOUNT_BELOW_MINIMUM', 'Minimum conversion amount is 0.00002 BTC'],
        [
          { from_currency: 'USD', to_currency: 'BTC', from_amount: '0.99' },
          'AMOUNT_BELOW_MINIMUM',
          'Minimum conversion amount is 1 USD',
        ],
        [{ from_currency: 'SOL' }, 'PRICE_UNAVAILABLE', 'No price is available for this pair right now'],
      ])('estimate %j -> %s', async (change, code, message) => {
        const answer = await estimate(server(), alice, { ...query, ...change });
        expect(answer.body.error).toMatchObject({ code, message });
        expect(answer.status).toBe(code === 'PRICE_UNAVAILABLE' ? 503 : 400);
      });

      it('needs a signed-in caller and every query field', async () => {
        expect((await estimate(server(), null, query)).status).toBe(401);
        const missing = await estimate(server(), alice, { from_currency: 'BTC', to_currency: 'USD' });
        expect(missing.status).toBe(400);
        expect(missing.body.error.code).toBe('VALIDATION_ERROR');
      });

      it.each([
        [{ from_amount: true }, 400, 'VALIDATION_ERROR'],
        [{ from_amount: { value: 1 } }, 400, 'VALIDATION_ERROR'],
        [{ from_currency: 7 }, 400, 'VALIDATION_ERROR'],
        [{ quote_id: 12 }, 400, 'VALIDATION_ERROR'],
        [{ from_amount: '0' }, 400, 'AMOUNT_NOT_POSITIVE'],
        [{ from_amount: '1.5', from_currency: 'BTCX' }, 400, 'CURRENCY_NOT_SUPPORTED'],
        [{ idempotency_key: 'has spaces' }, 400, 'VALIDATION_ERROR'],
      ])('POST %j -> %s %s', async (change, status, code) => {
        const answer = await convert(server(), alice, { ...query, ...change });
        expect(answer.status).toBe(status);
        expect(answer.body.error.code).toBe(code);
      });

      it("refuses what the balance cannot cover with 'Insufficient balance' and writes nothing", async () => {
        const poor = await newUser(server());
        await fund(server(), poor.id, 'BTC', '0.05');
        const offer = await quote(server(), poor, 'BTC', 'USD', '0.1');
        const refused = await convert(server(), poor, { ...query, quote_id: offer.quote_id });
        expect(refused.status).toBe(422);
        expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance' });
        expect(await available(server(), poor, 'BTC')).toBe('0.05');
        const history = await server().request('GET', '/api/v1/conversions/history', { token: poor.token });
        expect((history.body as ConversionHistoryResponse).conversions).toEqual([]);
        // Nothing was written, so the quote is still there to use once the balance covers it.
        await fund(server(), poor.id, 'BTC', '0.05');
        expect((await convert(server(), poor, { ...query, quote_id: offer.quote_id })).status).toBe(201);
      });

      it("answers CONVERSION_NOT_FOUND for someone else's conversion and for any unknown id", async () => {
        const mine = await server().request('GET', '/api/v1/conversions/history?limit=1', { token: alice.token });
        const id = (mine.body as ConversionHistoryResponse).conversions[0]!.id;
        for (const path of [id, '00000000-0000-4000-8000-000000000000', 'nonsense']) {
          const answer = await server().request('GET', `/api/v1/conversions/${path}`, { token: bob.token });
          expect(answer.status).toBe(404);
          expect((answer.body as ErrorBody).error.code).toBe('CONVERSION_NOT_FOUND');
        }
        expect((await server().request('GET', `/api/v1/conversions/${id}`)).status).toBe(401);
      });

      it('checks the history limit', async () => {
        for (const limit of ['0', '101', 'x']) {
          const answer = await server().request('GET', `/api/v1/conversions/history?limit=${limit}`, {
            token: alice.token,
          });
          expect(answer.status).toBe(400);
        }
      });

      it('refuses a key reused for a different conversion', async () => {
        await fund(server(), bob.id, 'BTC', '0.1');
        await quote(server(), bob, 'BTC', 'USD', '0.01');
        const first = await convert(server(), bob, { ...query, from_amount: '0.01' }, 'bob-key-1');
        expect(first.status).toBe(201);
        const other = await convert(server(), bob, { ...query, from_amount: '0.02' }, 'bob-key-1');
        expect(other.status).toBe(409);
        expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
        const same = await convert(server(), bob, { ...query, from_amount: '0.010' }, 'bob-key-1');
        expect(same.status).toBe(200);
        expect(same.body.id).toBe(first.body.id);
      });
    });

    describe('pairs and the support check', () => {
      it('lists every currency and route, without a sign-in', async () => {
        const answer = await server().request('GET', '/api/v1/conversions/pairs');
        expect(answer.status).toBe(200);
        const body = answer.body as ConversionPairsResponse;
        expect(body.currencies).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USD', 'USDT', 'ADA', 'DOT']));
        const route = (from: string, to: string) =>
          body.pairs.find((pair) => pair.from_currency === from && pair.to_currency === to)?.route;
        expect(route('BTC', 'USD')).toEqual(['BTC', 'USD']);
        expect(route('BTC', 'ETH')).toEqual(['BTC', 'ETH']);
        expect(route('ADA', 'DOT')).toEqual(['ADA', 'USD', 'DOT']);
        expect(route('BTC', 'BTC')).toBeUndefined();
      });

      it.each([
        ['from_currency=btc&to_currency=usd', true],
        ['from_currency=ADA&to_currency=DOT', true],
        ['from_currency=BTC&to_currency=BTC', false],
        ['from_currency=BTC&to_currency=NOPE', false],
        ['from_currency=BTC', false],
        ['', false],
        [`from_currency=${'X'.repeat(500)}&to_currency=USD`, false],
        ['from_currency=BTC&from_currency=ETH&to_currency=USD', false],
      ])('supported?%s -> %s', async (search, supported) => {
        const answer = await server().request('GET', `/api/v1/conversions/supported?${search}`);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ supported });
      });
    });

    describe('quick trades', () => {
      it("executes a market trade at the current price: 'trade executed', listed as a conversion in the wallet", async () => {
        const erin = await newUser(server());
        await fund(server(), erin.id, 'BTC', '1');
        const house = await houseBalances(server(), ['USD']);
        const done = await quickTrade(server(), erin, {
          sell_currency: 'btc',
          buy_currency: 'usd',
          sell_amount: '0.2',
          target_amount: '9900',
          trade_type: 'market',
        });
        expect(done.status).toBe(201);
        expect(done.body).toMatchObject({
          message: 'trade executed',
          trade: {
            status: 'completed',
            trade_type: 'market',
            sell_currency: 'BTC',
            buy_currency: 'USD',
            sell_amount: '0.2',
            buy_amount: '9950',
            target_amount: '9900',
            spread: { percent: '0.5', amount: '50', currency: 'USD' },
            price_source: 'reference',
          },
        });
        expect(await available(server(), erin, 'USD')).toBe('9950');
        const after = await houseBalances(server(), ['USD']);
        expect(moved(house.USD!.fees, after.USD!.fees)).toBe('50');

        const history = await server().request('GET', '/api/v1/trade/history?limit=5', { token: erin.token });
        expect((history.body as QuickTradeHistoryResponse).trades.map((trade) => trade.id)).toEqual([
          done.body.trade.id,
        ]);
        const one = await server().request('GET', `/api/v1/conversions/${done.body.trade.id}`, { token: erin.token });
        expect((one.body as Conversion).kind).toBe('trade');
        const conversions = await server().request('GET', '/api/v1/conversions/history', { token: erin.token });
        expect((conversions.body as ConversionHistoryResponse).conversions).toEqual([]);
        const wallet = await server().request('GET', '/v1/wallet/transactions', { token: erin.token });
        const types = (wallet.body as WalletTransactionsResponse).transactions
          .filter((row) => row.reference === done.body.trade.id)
          .map((row) => row.type);
        expect(types).toEqual(['conversion', 'conversion']);
      });

      it('refuses below target_amount with SLIPPAGE_EXCEEDED, and an unknown trade type, writing nothing', async () => {
        const fay = await newUser(server());
        await fund(server(), fay.id, 'BTC', '1');
        const body = { sell_currency: 'BTC', buy_currency: 'USD', sell_amount: '0.2' };
        const slipped = await quickTrade(server(), fay, { ...body, target_amount: '9950.01' });
        expect(slipped.status).toBe(409);
        expect(slipped.body.error).toMatchObject({
          code: 'SLIPPAGE_EXCEEDED',
          details: { target_amount: '9950.01', buy_amount: '9950' },
        });
        for (const [change, code] of [
          [{ trade_type: 'limit' }, 'VALIDATION_ERROR'],
          [{ target_amount: '-1' }, 'INVALID_AMOUNT'],
          [{ target_amount: '1.001' }, 'INVALID_AMOUNT'],
          [{ sell_amount: '0' }, 'AMOUNT_NOT_POSITIVE'],
          [{ buy_currency: 'BTC' }, 'CONVERSION_NOT_SUPPORTED'],
          [{ sell_amount: '2' }, 'INSUFFICIENT_BALANCE'],
        ] as const) {
          const answer = await quickTrade(server(), fay, { ...body, ...change });
          expect(answer.body.error?.code).toBe(code);
        }
        expect(await available(server(), fay, 'BTC')).toBe('1');
        const history = await server().request('GET', '/api/v1/trade/history', { token: fay.token });
        expect((history.body as QuickTradeHistoryResponse).trades).toEqual([]);
        // No type and a zero target mean 'market' with no floor.
        const plain = await quickTrade(server(), fay, { ...body, target_amount: '0', trade_type: null });
        expect(plain.status).toBe(201);
        expect(plain.body.trade).toMatchObject({ trade_type: 'market', target_amount: null });
      });
    });

    describe('live balances', () => {
      it('pushes balance_update and the order book sees the new balance at once', async () => {
        const gus = await newUser(server());
        await fund(server(), gus.id, 'BTC', '1');
        const order = { trading_pair: 'BTC_USD', side: 'buy', type: 'limit', price: '45000.00', quantity: '0.1' };
        // Trading reads the USD balance (zero) into its funds book and refuses the order.
        const early = await placeOrder(server(), gus.token, order);
        expect(early.status).toBe(422);

        const updates: { currency: string; available: string }[] = [];
        const stop = server().pubsub.subscribe(accountBalancesTopic(gus.id), (message) => {
          updates.push(message as { currency: string; available: string });
        });
        try {
          const done = await quickTrade(server(), gus, {
            sell_currency: 'BTC',
            buy_currency: 'USD',
            sell_amount: '0.1',
          });
          expect(done.status).toBe(201);
          const deadline = Date.now() + 5_000;
          while (updates.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
          expect(updates.map((update) => [update.currency, update.available]).sort()).toEqual([
            ['BTC', '0.9'],
            ['USD', '4975'],
          ]);
        } finally {
          stop();
        }
        // The funds book followed the conversion: the same order now fits.
        const later = await placeOrder(server(), gus.token, order);
        expect(later.status).toBe(201);
        const cancelled = await server().request('POST', `/v1/orders/${later.body.id}/cancel`, { token: gus.token });
        expect(cancelled.status).toBe(200);
      });
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
