import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { balance, fund, placeOrder, setReferencePrice } from './test-support.ts';

const SCALE = 10n ** 8n;
/** A decimal text as an integer count of 10^-8. */
const scaled = (text: string) => {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(8, '0'));
};

/**
 * Attacks on the hold a modify adds. A modify's extra hold is sized when the request arrives, but
 * other modifies of the same order may apply first: each must be sized against the order as it is
 * when the sequencer applies it, or a resting buy ends up holding less than it can spend.
 */
describeEachDatabase(
  'trading: the hold behind a modified order',
  (server) => {
    const token = (user: SignedUp) => user.session.token;
    const id = (user: SignedUp) => user.session.account_id;
    const modify = (user: SignedUp, orderId: string, body: Record<string, unknown>) =>
      server().request('PUT', `/v1/orders/${orderId}/modify`, { token: token(user), body });

    /** A buyer with 100,000 USD resting a bid of 0.1 BTC at 46,000, and a seller holding `sellerBtc`. */
    const restingBid = async (sellerBtc: string) => {
      const buyer = await signUp(server());
      const seller = await signUp(server());
      await fund(server(), id(buyer), 'USD', '100000');
      await fund(server(), id(seller), 'BTC', sellerBtc);
      const bid = await placeOrder(server(), token(buyer), {
        trading_pair: 'BTC_USD',
        side: 'buy',
        type: 'limit',
        price: '46000.00',
        quantity: '0.1',
      });
      expect(bid.status).toBe(201);
      return { buyer, seller, orderId: String(bid.body.id) };
    };

    beforeEach(() => {
      setReferencePrice(server(), 'BTC_USD', '50000.00');
    });

    it('a price rise and a quantity rise sent together hold for both, and the order then fills', async () => {
      const { buyer, seller, orderId } = await restingBid('1');
      // Both are read against the order at 46,000 x 0.1 before either applies.
      const [up, more] = await Promise.all([
        modify(buyer, orderId, { price: '54000.00' }),
        modify(buyer, orderId, { quantity: '0.3' }),
      ]);
      expect([up.status, more.status]).toEqual([200, 200]);
      const order = await server().request('GET', `/v1/orders/${orderId}`, { token: token(buyer) });
      expect(order.body).toMatchObject({ price: '54000.00', quantity: '0.3000000', status: 'pending' });
      // 54,000 x 0.3 = 16,200 plus the 0.1 % fee at most.
      expect(await balance(server(), id(buyer), 'USD')).toEqual({
        currency: 'USD',
        available: '83783.8',
        locked: '16216.2',
      });
      const sell = await placeOrder(server(), token(seller), {
        trading_pair: 'BTC_USD',
        side: 'sell',
        type: 'limit',
        price: '54000.00',
        quantity: '0.3',
      });
      expect(sell.status).toBe(201);
      expect(sell.body).toMatchObject({ status: 'filled' });
      expect(await balance(server(), id(buyer), 'USD')).toEqual({
        currency: 'USD',
        available: '83783.8',
        locked: '0',
      });
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });

    it('300 modifies at once, up and down, leave the order holding exactly what it can spend', async () => {
      const { buyer, seller, orderId } = await restingBid('2');
      const changes = Array.from({ length: 300 }, (_, index) =>
        index % 2 === 0 ? { price: `${46000 + ((index * 37) % 8000)}.00` } : { quantity: `0.${1 + (index % 9)}` },
      );
      const answers = await Promise.all(changes.map((change) => modify(buyer, orderId, change)));
      // A change to what the order already is is refused as nothing to change; everything else applies.
      const refused = answers.filter((answer) => answer.status !== 200);
      for (const answer of refused) {
        expect(answer.status).toBe(422);
        expect(answer.body).toMatchObject({ error: { details: { reason: 'invalid_modification' } } });
      }
      expect(refused.length).toBeLessThan(100);
      const order = (await server().request('GET', `/v1/orders/${orderId}`, { token: token(buyer) })).body as {
        price: string;
        quantity: string;
      };
      // The hold is the order's notional plus the 0.1 % fee: nothing more, nothing less.
      const notional = (scaled(order.price) * scaled(order.quantity)) / SCALE;
      const held = await balance(server(), id(buyer), 'USD');
      expect(scaled(held.locked)).toBe(notional + notional / 1000n);
      const sell = await placeOrder(server(), token(seller), {
        trading_pair: 'BTC_USD',
        side: 'sell',
        type: 'limit',
        price: order.price,
        quantity: order.quantity,
      });
      expect(sell.body).toMatchObject({ status: 'filled' });
      expect((await balance(server(), id(buyer), 'USD')).locked).toBe('0');
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
