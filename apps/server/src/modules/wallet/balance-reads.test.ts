import type { WalletBalance } from '@platform/contracts';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { heldAfterNextQuery } from '../../test/held-database.ts';
import { BalanceCache } from '../ledger/balance-cache.ts';
import { balanceOf, type EntryInput, postEntries } from '../ledger/service.ts';
import { fund, placeOrder, setReferencePrice } from '../trading/test-support.ts';
import { type Member, sendTransfer, settled, signUpMember } from './test-support.ts';

function deposit(accountId: string, currency: string, amount: string): EntryInput {
  return {
    kind: 'deposit',
    reference: `balance-reads:${accountId}:${amount}:${Math.random()}`,
    postings: [
      { owner: { kind: 'system', name: 'custody' }, currency, bucket: 'available', amount: `-${amount}` },
      { owner: { kind: 'user', accountId }, currency, bucket: 'available', amount },
    ],
  };
}

describeEachDatabase(
  'balance reads: from memory, never stale',
  (server) => {
    let alice: Member;
    let bob: Member;

    async function walletBalance(member: Member, currency: string): Promise<WalletBalance | undefined> {
      const response = await server().request('GET', '/v1/wallet/balances', { token: member.token });
      expect(response.status).toBe(200);
      return (response.body as { balances: WalletBalance[] }).balances.find((row) => row.currency === currency);
    }
    async function accountBalance(member: Member, currency: string) {
      const response = await server().request('GET', `/v1/accounts/${member.id}/balance`, { token: member.token });
      expect(response.status).toBe(200);
      const rows = (response.body as { balances: (WalletBalance & { total: string })[] }).balances;
      return rows.find((row) => row.currency === currency);
    }
    /** Both balance reads agree and show available/locked. */
    async function expectBalance(member: Member, currency: string, available: string, locked: string) {
      expect(await walletBalance(member, currency)).toEqual({ currency, available, locked });
      const row = await accountBalance(member, currency);
      // This read lists only the currencies the account ever held.
      if (row !== undefined || available !== '0' || locked !== '0')
        expect(row).toMatchObject({ currency, available, locked });
    }

    beforeEach(async () => {
      alice = await signUpMember(server());
      bob = await signUpMember(server());
      setReferencePrice(server(), 'BTC_USD', '50000.00');
    });

    it('answers from memory until a change: a write the ledger does not announce is not seen', async () => {
      await fund(server(), alice.id, 'BTC', '1');
      await expectBalance(alice, 'BTC', '1', '0');
      // Behind the cache's back (tests only): the cached balances still answer.
      await postEntries(server().db, [deposit(alice.id, 'BTC', '2')], { notify: false });
      await expectBalance(alice, 'BTC', '1', '0');
      await fund(server(), alice.id, 'BTC', '0.5');
      await expectBalance(alice, 'BTC', '3.5', '0');
    });

    it('shows a deposit credit at once', async () => {
      await expectBalance(alice, 'USD', '0', '0');
      await fund(server(), alice.id, 'USD', '125.5');
      await expectBalance(alice, 'USD', '125.5', '0');
    });

    it('shows a transfer held on the sender at once, then settled on both sides', async () => {
      await fund(server(), alice.id, 'BTC', '1');
      await expectBalance(alice, 'BTC', '1', '0');
      await expectBalance(bob, 'BTC', '0', '0');
      const sent = await sendTransfer(server(), alice, { to_username: bob.username, currency: 'BTC', amount: '0.25' });
      expect(sent.status).toBe(201);
      // Held, or already settled by the settler in the background: never the balance before it.
      expect([
        { currency: 'BTC', available: '0.75', locked: '0.25' },
        { currency: 'BTC', available: '0.75', locked: '0' },
      ]).toContainEqual(await walletBalance(alice, 'BTC'));
      await settled(server(), bob, sent.body.id);
      await expectBalance(alice, 'BTC', '0.75', '0');
      await expectBalance(bob, 'BTC', '0.25', '0');
    });

    it('shows the funds an order holds as soon as it is answered, and both sides of its fill', async () => {
      await fund(server(), alice.id, 'BTC', '1');
      await fund(server(), bob.id, 'USD', '30000');
      await expectBalance(alice, 'BTC', '1', '0');
      await expectBalance(bob, 'USD', '30000', '0');
      const sell = await placeOrder(server(), alice.token, {
        trading_pair: 'BTC_USD',
        side: 'sell',
        type: 'limit',
        price: '50000.00',
        quantity: '0.5',
      });
      expect(sell.status).toBe(201);
      await expectBalance(alice, 'BTC', '0.5', '0.5');
      await expectBalance(alice, 'USD', '0', '0');

      const buy = await placeOrder(server(), bob.token, {
        trading_pair: 'BTC_USD',
        side: 'buy',
        type: 'limit',
        price: '50000.00',
        quantity: '0.5',
      });
      expect(buy.body.status).toBe('filled');
      // What the ledger holds now (fees included), and not what either side held before the fill.
      for (const [member, currency] of [
        [alice, 'BTC'],
        [alice, 'USD'],
        [bob, 'BTC'],
        [bob, 'USD'],
      ] as const) {
        const truth = await balanceOf(server().db, member.id, currency);
        await expectBalance(member, currency, truth.available, truth.locked);
      }
      expect((await walletBalance(alice, 'BTC'))?.locked).toBe('0');
      expect((await walletBalance(alice, 'USD'))?.available).not.toBe('0');
      expect((await walletBalance(bob, 'BTC'))?.available).not.toBe('0');
      expect((await walletBalance(bob, 'USD'))?.available).not.toBe('30000');
    });

    it('does not keep what a read that straddled a change read', async () => {
      const held = heldAfterNextQuery(server().db);
      const cache = new BalanceCache(held.db);
      await postEntries(held.db, [deposit(alice.id, 'BTC', '1')]);
      held.holdNext();
      // The read runs now and sees 1 BTC, but answers only after the deposit below has been announced.
      const straddling = cache.balances(alice.id);
      await postEntries(held.db, [deposit(alice.id, 'BTC', '2')]);
      held.release();
      expect(await straddling).toEqual([{ currency: 'BTC', available: '1', locked: '0' }]);
      expect(await cache.balances(alice.id)).toEqual([{ currency: 'BTC', available: '3', locked: '0' }]);
      cache.stop();
    });
  },
  // The feed is off so that the reference price is whatever a test sets.
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
