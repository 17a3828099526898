import { type Amount, add, decimal, formatDecimal, lte, mul, sub } from '@platform/money';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { balanceOf } from '../ledger/service.ts';
import { fund, placeOrder } from '../trading/test-support.ts';
import {
  available,
  convert,
  estimate,
  houseBalances,
  moved,
  newUser,
  publishReference,
  quickTrade,
  quote,
  setReferencePrices,
  type User,
} from './test-support.ts';

/** The reference BTC_USD price of these tests (REFERENCE_PRICES). */
const BTC_REFERENCE = decimal('50000');

/** What a user holds in BTC and USD (available and locked), valued in USD at the reference price. */
async function worthAtReference(server: TestServer, user: User): Promise<Amount> {
  const btc = await balanceOf(server.db, user.id, 'BTC');
  const usd = await balanceOf(server.db, user.id, 'USD');
  const coins = add(decimal(btc.available), decimal(btc.locked));
  const dollars = add(decimal(usd.available), decimal(usd.locked));
  return add(mul(coins, BTC_REFERENCE), dollars);
}

async function cancel(server: TestServer, user: User, orderId: string) {
  const cancelled = await server.request('POST', `/v1/orders/${orderId}/cancel`, { token: user.token });
  if (cancelled.status !== 200) throw new Error(`cancel failed: ${JSON.stringify(cancelled.body)}`);
}

/**
 * Issue 13, point 2: before, a quote was priced by walking the live book, users' orders included.
 * A user swept the asks, rested a bid just inside the 10 % price band, took a quote (priced at his
 * own bid), cancelled the bid and executed: about 8 % of the amount per cycle, paid by the house.
 */
describeEachDatabase(
  'conversions cannot be moved by a user',
  (server) => {
    beforeEach(() => {
      setReferencePrices(server());
    });

    /** A maker rests 1 BTC of asks just above the reference, for the attacker to sweep. */
    async function restAsks(): Promise<void> {
      const maker = await newUser(server());
      await fund(server(), maker.id, 'BTC', '1');
      for (const price of ['50100.00', '50500.00']) {
        const placed = await placeOrder(server(), maker.token, {
          trading_pair: 'BTC_USD',
          side: 'sell',
          type: 'limit',
          price,
          quantity: '0.5',
        });
        if (placed.status !== 201) throw new Error(`ask not placed: ${JSON.stringify(placed.body)}`);
      }
    }

    /** The attacker's buy at 54,950 (inside the band, 55,000 at most) sweeps the asks and rests 1 BTC as a bid. */
    async function sweepAndRestBid(attacker: User): Promise<string> {
      const bid = await placeOrder(server(), attacker.token, {
        trading_pair: 'BTC_USD',
        side: 'buy',
        type: 'limit',
        price: '54950.00',
        quantity: '2',
      });
      expect(bid.status).toBe(201);
      const book = await server().request('GET', '/v1/orderbook/BTC_USD');
      expect(JSON.stringify(book.body)).toContain('54950');
      return bid.body.id;
    }

    it('sweep the asks, rest a bid inside the band, quote, cancel, execute: the quote is the reference less the spread, and the attacker loses', async () => {
      await restAsks();
      const attacker = await newUser(server());
      await fund(server(), attacker.id, 'BTC', '1');
      await fund(server(), attacker.id, 'USD', '200000');
      const before = await worthAtReference(server(), attacker);

      const bidId = await sweepAndRestBid(attacker);
      // The book's best bid is now the attacker's 54,950; the old desk would have paid 54,675.25 for 1 BTC.
      const offer = await quote(server(), attacker, 'BTC', 'USD', '1');
      expect(offer).toMatchObject({
        to_amount: '49750',
        rate: '49750',
        spread: { percent: '0.5', amount: '250', currency: 'USD' },
        price_source: 'reference',
      });
      await cancel(server(), attacker, bidId);

      const house = await houseBalances(server(), ['BTC', 'USD']);
      const usdBefore = await available(server(), attacker, 'USD');
      const done = await convert(server(), attacker, {
        from_currency: 'BTC',
        to_currency: 'USD',
        from_amount: '1',
        quote_id: offer.quote_id,
      });
      expect(done.status).toBe(201);
      expect(done.body).toMatchObject({ to_amount: '49750', price_source: 'reference' });

      // The ledger: the desk paid exactly the reference for the BTC; the fees gained exactly the spread;
      // the attacker received the reference less the spread and nothing more.
      const after = await houseBalances(server(), ['BTC', 'USD']);
      expect(moved(house.BTC!.desk, after.BTC!.desk)).toBe('1');
      expect(moved(house.USD!.desk, after.USD!.desk)).toBe('-50000');
      expect(moved(house.USD!.fees, after.USD!.fees)).toBe('250');
      expect(moved(usdBefore, await available(server(), attacker, 'USD'))).toBe('49750');

      // Over the whole cycle the attacker is worse off, at the reference, by at least the spread.
      const worth = await worthAtReference(server(), attacker);
      const loss = sub(before, worth);
      expect(lte(decimal('250'), loss), `lost ${formatDecimal(loss)}`).toBe(true);
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });

    it('the same cycle through a quick trade pays the reference less the spread', async () => {
      await restAsks();
      const attacker = await newUser(server());
      await fund(server(), attacker.id, 'BTC', '1');
      await fund(server(), attacker.id, 'USD', '200000');
      const before = await worthAtReference(server(), attacker);
      const bidId = await sweepAndRestBid(attacker);
      const trade = await quickTrade(server(), attacker, {
        sell_currency: 'BTC',
        buy_currency: 'USD',
        sell_amount: '1',
      });
      await cancel(server(), attacker, bidId);
      expect(trade.status).toBe(201);
      expect(trade.body.trade).toMatchObject({ buy_amount: '49750', price_source: 'reference' });
      // A target at the attacker's own bid is refused: the desk never pays the bid.
      const greedy = await quickTrade(server(), attacker, {
        sell_currency: 'BTC',
        buy_currency: 'USD',
        sell_amount: '0.5',
        target_amount: '27000',
      });
      expect(greedy.body.error?.code).toBe('SLIPPAGE_EXCEEDED');
      const loss = sub(before, await worthAtReference(server(), attacker));
      expect(lte(decimal('250'), loss), `lost ${formatDecimal(loss)}`).toBe(true);
    });

    describe('a stale reference', () => {
      it("refuses to quote or trade from a reference older than two minutes: 'Live prices are delayed'", async () => {
        const user = await newUser(server());
        await fund(server(), user.id, 'BTC', '1');
        publishReference(server(), 'BTC_USD', '50000.00', 121_000);
        const refused = await estimate(server(), user, {
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.1',
        });
        expect(refused.status).toBe(503);
        expect(refused.body.error).toMatchObject({
          code: 'PRICE_STALE',
          message: 'Live prices are delayed right now. Please try again in a moment.',
          details: { pair: 'BTC_USD', age_seconds: 121, max_age_seconds: 120 },
        });
        const trade = await quickTrade(server(), user, {
          sell_currency: 'BTC',
          buy_currency: 'USD',
          sell_amount: '0.1',
        });
        expect(trade.status).toBe(503);
        expect(trade.body.error.code).toBe('PRICE_STALE');
        // A reference just under two minutes old is still quoted from.
        publishReference(server(), 'BTC_USD', '50000.00', 119_000);
        expect(
          (await estimate(server(), user, { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.1' })).status,
        ).toBe(200);
        expect(await available(server(), user, 'BTC')).toBe('1');
      });

      it('refuses to execute a quote when the reference went stale after it was given, writing nothing', async () => {
        const user = await newUser(server());
        await fund(server(), user.id, 'BTC', '1');
        const offer = await quote(server(), user, 'BTC', 'USD', '0.1');
        // The feed stopped: its last price is now older than the limit, the quote is still valid.
        publishReference(server(), 'BTC_USD', '50000.00', 121_000);
        const late = await convert(server(), user, {
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.1',
          quote_id: offer.quote_id,
        });
        expect(late.status).toBe(503);
        expect(late.body.error.code).toBe('PRICE_STALE');
        expect(await available(server(), user, 'BTC')).toBe('1');
        // Once the feed is back, the same quote executes at its own price.
        setReferencePrices(server());
        const done = await convert(server(), user, {
          from_currency: 'BTC',
          to_currency: 'USD',
          from_amount: '0.1',
          quote_id: offer.quote_id,
        });
        expect(done.status).toBe(201);
        expect(done.body.to_amount).toBe('4975');
      });
    });

    describe('the re-check at execution', () => {
      const body = { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.1' };

      it("refuses a quote the market moved against the house by more than 0.1 %: 'The price has moved'", async () => {
        const user = await newUser(server());
        await fund(server(), user.id, 'BTC', '1');
        const offer = await quote(server(), user, 'BTC', 'USD', '0.1');
        expect(offer.to_amount).toBe('4975');
        // At 49,940 the desk would pay 4,969.03 now: the quote's 4,975 is 0.12 % more.
        publishReference(server(), 'BTC_USD', '49940.00');
        const refused = await convert(server(), user, { ...body, quote_id: offer.quote_id });
        expect(refused.status).toBe(409);
        expect(refused.body.error).toMatchObject({
          code: 'PRICE_MOVED',
          message: 'The price has moved since your quote. Please get a new estimate.',
          details: { quoted_amount: '4975', current_amount: '4969.03', currency: 'USD', tolerance_percent: '0.1' },
        });
        expect(await available(server(), user, 'BTC')).toBe('1');
        // A new estimate is at the new price.
        const fresh = await quote(server(), user, 'BTC', 'USD', '0.1');
        expect(fresh.to_amount).toBe('4969.03');
      });

      it('honours a quote within the tolerance, and one the market has since moved in the caller’s favour, at its own price', async () => {
        const user = await newUser(server());
        await fund(server(), user.id, 'BTC', '1');
        // At 49,960 the desk would pay 4,971.02: the quote's 4,975 is less than 0.1 % more, so it stands.
        const within = await quote(server(), user, 'BTC', 'USD', '0.1');
        publishReference(server(), 'BTC_USD', '49960.00');
        const first = await convert(server(), user, { ...body, quote_id: within.quote_id });
        expect(first.status).toBe(201);
        expect(first.body.to_amount).toBe('4975');
        // The price rose after the quote: the quote is firm, it settles at 4,975, not at the new price.
        setReferencePrices(server());
        const firm = await quote(server(), user, 'BTC', 'USD', '0.1');
        publishReference(server(), 'BTC_USD', '52000.00');
        const second = await convert(server(), user, { ...body, quote_id: firm.quote_id });
        expect(second.status).toBe(201);
        expect(second.body.to_amount).toBe('4975');
        expect(await available(server(), user, 'USD')).toBe('9950');
      });

      it('re-checks a quote through two legs (ADA -> USD -> DOT) against both references', async () => {
        const user = await newUser(server());
        await fund(server(), user.id, 'ADA', '1000');
        const offer = await quote(server(), user, 'ADA', 'DOT', '100');
        expect(offer.to_amount).toBe('9.95');
        // DOT rose 1 %: 100 ADA buy 1 % fewer DOT now, so the quote pays the caller too much.
        publishReference(server(), 'DOT_USD', '5.05000');
        const refused = await convert(server(), user, {
          from_currency: 'ADA',
          to_currency: 'DOT',
          from_amount: '100',
          quote_id: offer.quote_id,
        });
        expect(refused.body.error?.code).toBe('PRICE_MOVED');
        expect(await available(server(), user, 'ADA')).toBe('1000');
      });
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
