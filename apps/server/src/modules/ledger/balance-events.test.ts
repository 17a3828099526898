import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { type BalancesChanged, type EntryInput, ledgerOf, postEntries } from './service.ts';

function deposit(accountId: string, amount: string, reference: string): EntryInput {
  return {
    kind: 'deposit',
    reference,
    postings: [
      { owner: { kind: 'system', name: 'custody' }, currency: 'BTC', bucket: 'available', amount: `-${amount}` },
      { owner: { kind: 'user', accountId }, currency: 'BTC', bucket: 'available', amount },
    ],
  };
}

describeEachDatabase('ledger balances-changed event', (server) => {
  it('announces the balances the statement returned, once committed, in commit order; a rollback announces nothing', async () => {
    const accountId = (await signUp(server())).session.account_id;
    const events: BalancesChanged[] = [];
    const stop = ledgerOf(server().db).onBalancesChanged((event) => events.push(event));
    try {
      await server().db.transaction(async (tx) => {
        await postEntries(tx, [deposit(accountId, '1.50', 'event-1')]);
        expect(events).toEqual([]);
      });
      await expect(
        server().db.transaction(async (tx) => {
          await postEntries(tx, [deposit(accountId, '5', 'event-rolled-back')]);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await postEntries(server().db, [deposit(accountId, '0.25', 'event-2')]);
      const changes = events.flatMap((event) => event.changes.filter((change) => change.accountId === accountId));
      expect(
        changes.map(({ available, locked, availableDelta, superseded }) => ({
          available,
          locked,
          availableDelta,
          superseded,
        })),
      ).toEqual([
        { available: '1.5', locked: '0', availableDelta: '1.5', superseded: false },
        { available: '1.75', locked: '0', availableDelta: '0.25', superseded: false },
      ]);
      expect(changes[1]!.sequence > changes[0]!.sequence).toBe(true);
      expect(events.every((event) => event.writer === 'ledger')).toBe(true);
    } finally {
      stop();
    }
  });

  it('gives one ledger object per database', async () => {
    const other = ledgerOf(server().db);
    expect(ledgerOf(server().db)).toBe(other);
  });
});
