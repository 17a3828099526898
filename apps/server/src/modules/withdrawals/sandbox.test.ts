import type { Notification } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { balance, fund } from '../trading/test-support.ts';
import type { Member } from '../wallet/test-support.ts';
import { ADDRESSES, sent, verifiedMember, waitForWithdrawal, withdraw } from './test-support.ts';

/**
 * End to end through the embedded sandbox provider: the payout walks creating -> waiting ->
 * processing -> finished on its own, and its signed webhooks reach us through the payments module.
 */
describeEachDatabase(
  'withdrawals through the sandbox provider',
  (server) => {
    let member: Member;

    beforeAll(async () => {
      member = await verifiedMember(server());
      await fund(server(), member.id, 'ETH', '3');
    });

    it('completes a withdrawal by the sandbox webhooks: amount + fee leave the balance once', async () => {
      const answer = await withdraw(server(), member, { currency: 'eth', amount: '1', address: ADDRESSES.ETH });
      expect(answer.status).toBe(201);
      const done = await waitForWithdrawal(server(), member, answer.body.id, (item) => item.status === 'completed');
      expect(done).toMatchObject({ provider_status: 'finished', amount: '1', fee: '0.002' });
      expect(done.hash).not.toBeNull();
      expect(await balance(server(), member.id, 'ETH')).toEqual({ currency: 'ETH', available: '1.998', locked: '0' });
      const notes = await server().request('GET', '/v1/notifications', { token: member.token });
      const titles = (notes.body as { notifications: Notification[] }).notifications.map((note) => note.title);
      expect(titles.slice(0, 2)).toEqual(['Withdrawal completed', 'Withdrawal submitted']);
    });

    it('gives the hold back when the sandbox payout fails', async () => {
      const answer = await withdraw(server(), member, { currency: 'eth', amount: '0.5', address: ADDRESSES.ETH });
      await sent(server(), member, answer.body.id);
      const row = await server().db.query<{ provider_reference: string }>(
        'SELECT provider_reference FROM withdrawals WHERE id = $1',
        [answer.body.id],
      );
      const failed = await server().request('POST', `/sandbox/payouts/${row.rows[0]?.provider_reference}/fail`);
      expect(failed.status).toBe(200);
      const done = await waitForWithdrawal(server(), member, answer.body.id, (item) => item.status === 'failed');
      expect(done.provider_status).toBe('failed');
      expect(await balance(server(), member.id, 'ETH')).toEqual({ currency: 'ETH', available: '1.998', locked: '0' });
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });
  },
  { RATE_LIMIT_ENABLED: 'false', PRICE_FEED_ENABLED: 'false', SANDBOX_PAYOUT_STEP_MS: '400' },
);
