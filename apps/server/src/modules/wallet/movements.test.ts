import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { type EntryInput, hold, postEntries, release } from '../ledger/service.ts';
import { accountMovements } from './movements.ts';

function deposit(accountId: string, currency: string, amount: string): EntryInput {
  return {
    kind: 'deposit',
    reference: `movements:${randomUUID()}`,
    postings: [
      { owner: { kind: 'system', name: 'custody' }, currency, bucket: 'available', amount: `-${amount}` },
      { owner: { kind: 'user', accountId }, currency, bucket: 'available', amount },
    ],
  };
}

describeEachDatabase('wallet movements after a cursor', (server, kind) => {
  let accountId: string;
  beforeEach(async () => {
    accountId = (await signUp(server())).session.account_id;
  });

  const amounts = (page: Awaited<ReturnType<typeof accountMovements>>) =>
    page.movements.map((movement) => `${movement.currency} ${movement.amount}`);

  it('gives only what came after the cursor; holds and releases move the cursor but are no movements', async () => {
    const db = server().db;
    await postEntries(db, [deposit(accountId, 'BTC', '1'), deposit(accountId, 'USD', '100')]);
    const first = await accountMovements(db, accountId);
    expect(amounts(first)).toEqual(['BTC 1', 'USD 100']);
    expect(Object.keys(first.cursor).sort()).toEqual(['BTC', 'USD']);

    expect((await accountMovements(db, accountId, first.cursor)).movements).toEqual([]);
    await hold(db, accountId, 'BTC', '0.5', 'order_hold', `hold:${randomUUID()}`);
    await release(db, accountId, 'BTC', '0.5', 'order_release', `release:${randomUUID()}`);
    await postEntries(db, [deposit(accountId, 'ETH', '3')]);
    const second = await accountMovements(db, accountId, first.cursor);
    expect(amounts(second)).toEqual(['ETH 3']);
    expect(BigInt(second.cursor.BTC!)).toBeGreaterThan(BigInt(first.cursor.BTC!));
    expect(second.cursor.USD).toBe(first.cursor.USD);
    expect((await accountMovements(db, accountId, second.cursor)).movements).toEqual([]);
    // The whole history is still the same without a cursor.
    expect(amounts(await accountMovements(db, accountId))).toEqual(['BTC 1', 'USD 100', 'ETH 3']);
  });

  it('refuses a cursor out of shape (a bug in the caller, never user input)', async () => {
    await expect(accountMovements(server().db, accountId, { btc: '1' })).rejects.toThrow('cursor');
    await expect(accountMovements(server().db, accountId, { BTC: '-1' })).rejects.toThrow('cursor');
    await expect(accountMovements(server().db, accountId, { BTC: "1'; DROP" })).rejects.toThrow('cursor');
  });

  it.skipIf(kind !== 'postgres')(
    'misses nothing when two balances commit out of id order (a BTC deposit drawn first, committed last)',
    async () => {
      const db = server().db;
      await postEntries(db, [deposit(accountId, 'BTC', '1'), deposit(accountId, 'ETH', '1')]);
      const start = await accountMovements(db, accountId);
      let letGo: () => void = () => {};
      const waiting = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      let drawn: () => void = () => {};
      const drawnYet = new Promise<void>((resolve) => {
        drawn = resolve;
      });
      // The BTC deposit draws its ids, then its transaction stays open.
      const slow = db.transaction(async (tx) => {
        await postEntries(tx, [deposit(accountId, 'BTC', '2')]);
        drawn();
        await waiting;
      });
      await drawnYet;
      await postEntries(db, [deposit(accountId, 'ETH', '5')]);
      const middle = await accountMovements(db, accountId, start.cursor);
      expect(amounts(middle)).toEqual(['ETH 5']);
      letGo();
      await slow;
      const after = await accountMovements(db, accountId, middle.cursor);
      expect(amounts(after)).toEqual(['BTC 2']);
      // And the BTC entry's id is below the ETH one's: one id for the whole account would have missed it.
      expect(BigInt(after.movements[0]!.entryId)).toBeLessThan(BigInt(middle.movements[0]!.entryId));
    },
  );
});
