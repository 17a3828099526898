import {
  type Amount,
  add,
  formatDecimal,
  gte,
  isZero,
  negate,
  parseDecimal,
  stripTrailingZeros,
  sub,
} from '@platform/money';
import fc from 'fast-check';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { sqlState, type Transaction } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { checkLedgerInvariants } from './invariants.ts';
import {
  balanceOf,
  balancesOf,
  type EntryInput,
  hold,
  type LedgerOwner,
  postEntries,
  release,
  SYSTEM_ACCOUNTS_ALLOWED_NEGATIVE,
  systemBalance,
} from './service.ts';

const custody: LedgerOwner = { kind: 'system', name: 'custody' };
const fees: LedgerOwner = { kind: 'system', name: 'fees' };
const user = (accountId: string): LedgerOwner => ({ kind: 'user', accountId });

/** custody -> user, as the payments module books a confirmed deposit. */
function depositEntry(accountId: string, currency: string, amount: string, reference = 'deposit-test'): EntryInput {
  return {
    kind: 'deposit',
    reference,
    postings: [
      { owner: custody, currency, bucket: 'available', amount: negated(amount) },
      { owner: user(accountId), currency, bucket: 'available', amount },
    ],
  };
}

function transferEntry(from: string, to: string, currency: string, amount: string): EntryInput {
  return {
    kind: 'transfer',
    reference: `transfer-${from}-${to}`,
    postings: [
      { owner: user(from), currency, bucket: 'available', amount: negated(amount) },
      { owner: user(to), currency, bucket: 'available', amount },
    ],
  };
}

function negated(amount: string): string {
  return formatDecimal(negate(decimalOf(amount)));
}

function decimalOf(text: string): Amount {
  const parsed = parseDecimal(text, { allowNegative: true });
  if (!parsed.ok) throw new Error(`bad decimal ${text}`);
  return parsed.value;
}

/** The canonical form balances come back in. */
function canonical(value: Amount): string {
  return formatDecimal(stripTrailingZeros(value));
}

describeEachDatabase(
  'ledger',
  (server, kind) => {
    const users: string[] = [];
    const db = () => server().db;

    /** Everything the ledger holds, to prove that a failed call left no trace. */
    async function snapshot() {
      const entries = await db().query('SELECT count(*)::text AS count FROM ledger_entries');
      const postings = await db().query('SELECT count(*)::text AS count FROM ledger_postings');
      const accounts = await db().query(
        'SELECT id::text, available::text, locked::text FROM ledger_accounts ORDER BY id',
      );
      return { entries: entries.rows, postings: postings.rows, accounts: accounts.rows };
    }

    async function expectInsufficient(promise: Promise<unknown>) {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('INSUFFICIENT_BALANCE');
    }

    beforeAll(async () => {
      for (let index = 0; index < 3; index++) users.push((await signUp(server())).session.account_id);
    });

    // Every test leaves the books sound, locked funds included (no reserves exist yet).
    afterEach(async () => {
      expect(await checkLedgerInvariants(db())).toEqual([]);
    });

    it('posts balanced entries and updates balances exactly, big and tiny decimals alike', async () => {
      const [alice, bob] = users as [string, string];
      const big = '12345678901234567890.123456789012345678';
      const tiny = '0.000000000000000001';
      await db().transaction((tx) =>
        postEntries(tx, [
          depositEntry(alice, 'BIG', big),
          depositEntry(alice, 'BIG', tiny),
          depositEntry(bob, 'TINY', tiny),
          depositEntry(bob, 'TINY', '2.500'),
        ]),
      );
      expect(await balanceOf(db(), alice, 'BIG')).toEqual({
        currency: 'BIG',
        available: '12345678901234567890.123456789012345679',
        locked: '0',
      });
      expect(await balanceOf(db(), bob, 'TINY')).toEqual({
        currency: 'TINY',
        available: '2.500000000000000001',
        locked: '0',
      });
      expect(await systemBalance(db(), 'custody', 'BIG')).toEqual({
        currency: 'BIG',
        available: '-12345678901234567890.123456789012345679',
        locked: '0',
      });

      await db().transaction((tx) => postEntries(tx, [transferEntry(alice, bob, 'BIG', '0.123456789012345679')]));
      expect((await balanceOf(db(), alice, 'BIG')).available).toBe('12345678901234567890');
      expect((await balanceOf(db(), bob, 'BIG')).available).toBe('0.123456789012345679');
      expect(await balancesOf(db(), bob)).toEqual([
        { currency: 'BIG', available: '0.123456789012345679', locked: '0' },
        { currency: 'TINY', available: '2.500000000000000001', locked: '0' },
      ]);
      // Never held: zeros, no row.
      expect(await balanceOf(db(), alice, 'NONE')).toEqual({ currency: 'NONE', available: '0', locked: '0' });
      expect(await systemBalance(db(), 'fees', 'NONE')).toEqual({ currency: 'NONE', available: '0', locked: '0' });
    });

    it('writes one entry per input with its postings, skipping zero amounts, and keeps the metadata', async () => {
      const [alice] = users as [string];
      const before = await snapshot();
      await db().transaction((tx) =>
        postEntries(tx, [
          {
            kind: 'deposit',
            reference: 'meta-1',
            metadata: { txid: '0xabc', confirmations: 3 },
            postings: [
              { owner: custody, currency: 'META', bucket: 'available', amount: '-1' },
              { owner: user(alice), currency: 'META', bucket: 'available', amount: '1' },
              { owner: fees, currency: 'META', bucket: 'available', amount: '0.000' },
            ],
          },
          // Nothing moves: not written at all.
          {
            kind: 'fee',
            reference: 'meta-2',
            postings: [{ owner: fees, currency: 'META', bucket: 'available', amount: '0' }],
          },
        ]),
      );
      const entries = await db().query<{ kind: string; metadata: unknown; postings: string }>(
        `SELECT e.kind, e.metadata, (SELECT count(*) FROM ledger_postings p WHERE p.entry_id = e.id)::text AS postings
         FROM ledger_entries e WHERE e.reference LIKE 'meta-%'`,
      );
      expect(entries.rows).toEqual([{ kind: 'deposit', metadata: { txid: '0xabc', confirmations: 3 }, postings: '2' }]);
      const after = await snapshot();
      expect(Number(after.entries[0]?.count)).toBe(Number(before.entries[0]?.count) + 1);
    });

    it('refuses unbalanced entries as a bug and changes nothing', async () => {
      const [alice, bob] = users as [string, string];
      const before = await snapshot();
      const unbalanced: EntryInput[][] = [
        [
          {
            kind: 'transfer',
            reference: 'bad-1',
            postings: [
              { owner: user(alice), currency: 'BIG', bucket: 'available', amount: '-1' },
              { owner: user(bob), currency: 'BIG', bucket: 'available', amount: '0.999999999999999999' },
            ],
          },
        ],
        // Balanced in total but not per currency.
        [
          {
            kind: 'conversion',
            reference: 'bad-2',
            postings: [
              { owner: user(alice), currency: 'BIG', bucket: 'available', amount: '-1' },
              { owner: user(alice), currency: 'TINY', bucket: 'available', amount: '1' },
            ],
          },
        ],
        // One good entry does not carry a bad one.
        [
          depositEntry(alice, 'BIG', '5'),
          {
            kind: 'fee',
            reference: 'bad-3',
            postings: [{ owner: fees, currency: 'BIG', bucket: 'available', amount: '1' }],
          },
        ],
      ];
      for (const entries of unbalanced) {
        await expect(db().transaction((tx) => postEntries(tx, entries))).rejects.toThrow(/does not balance/);
      }
      const malformed: EntryInput[] = [
        {
          kind: 'x',
          reference: 'r',
          postings: [{ owner: custody, currency: 'btc', bucket: 'available', amount: '1' }],
        },
        {
          kind: 'x',
          reference: 'r',
          postings: [{ owner: custody, currency: 'BTC', bucket: 'available', amount: '1e5' }],
        },
        {
          kind: 'x',
          reference: 'r',
          postings: [{ owner: custody, currency: 'BTC', bucket: 'available', amount: '0.0000000000000000001' }],
        },
        {
          kind: 'x',
          reference: 'r',
          postings: [{ owner: custody, currency: 'BTC', bucket: 'frozen' as never, amount: '1' }],
        },
        {
          kind: 'x',
          reference: 'r',
          postings: [{ owner: user('not-a-uuid'), currency: 'BTC', bucket: 'available', amount: '1' }],
        },
        {
          kind: 'x',
          reference: 'r',
          postings: [
            { owner: { kind: 'system', name: 'Bad Name' }, currency: 'BTC', bucket: 'available', amount: '1' },
          ],
        },
        { kind: '', reference: 'r', postings: [] },
      ];
      for (const entry of malformed) {
        const error = await db()
          .transaction((tx) => postEntries(tx, [entry]))
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(AppError);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a spend beyond the available balance with INSUFFICIENT_BALANCE and leaves nothing behind', async () => {
      const [alice, bob] = users as [string, string];
      await db().transaction((tx) => postEntries(tx, [depositEntry(alice, 'SPEND', '10')]));
      const before = await snapshot();
      await expectInsufficient(
        db().transaction((tx) => postEntries(tx, [transferEntry(alice, bob, 'SPEND', '10.000000000000000001')])),
      );
      // The other entries of the same call, and earlier writes of the same transaction, roll back too.
      await expectInsufficient(
        db().transaction(async (tx) => {
          await postEntries(tx, [depositEntry(bob, 'SPEND', '3')]);
          // Checked on the net change of the call: alice gets 1 and pays 11.5 of her 10.
          await postEntries(tx, [transferEntry(bob, alice, 'SPEND', '1'), transferEntry(alice, bob, 'SPEND', '11.5')]);
        }),
      );
      // The fees account is not allowed to go negative either.
      await expectInsufficient(
        db().transaction((tx) =>
          postEntries(tx, [
            {
              kind: 'adjustment',
              reference: 'fees-overdraw',
              postings: [
                { owner: fees, currency: 'SPEND', bucket: 'available', amount: '-1' },
                { owner: user(bob), currency: 'SPEND', bucket: 'available', amount: '1' },
              ],
            },
          ]),
        ),
      );
      expect(await snapshot()).toEqual(before);
      // Exactly the whole balance is fine.
      await db().transaction((tx) => postEntries(tx, [transferEntry(alice, bob, 'SPEND', '10')]));
      expect(await balanceOf(db(), alice, 'SPEND')).toEqual({ currency: 'SPEND', available: '0', locked: '0' });
    });

    it('has the database refuse a negative user balance written directly', async () => {
      const [alice] = users as [string];
      await db().transaction((tx) => postEntries(tx, [depositEntry(alice, 'DIRECT', '1')]));
      const statements = [
        `UPDATE ledger_accounts SET available = -0.000000000000000001 WHERE account_id = $1 AND currency = 'DIRECT'`,
        `UPDATE ledger_accounts SET locked = -1 WHERE account_id = $1 AND currency = 'DIRECT'`,
        `UPDATE ledger_accounts SET allow_negative = true WHERE account_id = $1 AND currency = 'DIRECT'`,
        `INSERT INTO ledger_accounts (owner_kind, account_id, currency, available) VALUES ('user', $1, 'OTHER', -1)`,
        `INSERT INTO ledger_accounts (owner_kind, account_id, system_name, currency) VALUES ('user', $1, 'fees', 'OTHER')`,
      ];
      for (const sql of statements) {
        const error = await db()
          .query(sql, [alice])
          .catch((caught: unknown) => caught);
        expect(sqlState(error), sql).toBe('23514');
      }
      expect(await balanceOf(db(), alice, 'DIRECT')).toEqual({ currency: 'DIRECT', available: '1', locked: '0' });
    });

    it('holds and releases funds between the buckets', async () => {
      const [alice] = users as [string];
      await db().transaction((tx) => postEntries(tx, [depositEntry(alice, 'HOLD', '100')]));
      await db().transaction((tx) => hold(tx, alice, 'HOLD', '30.5', 'order_hold', 'order-1'));
      await db().transaction((tx) => hold(tx, alice, 'HOLD', '69.5', 'order_hold', 'order-2'));
      expect(await balanceOf(db(), alice, 'HOLD')).toEqual({ currency: 'HOLD', available: '0', locked: '100' });
      // Locked funds cannot be spent or held twice.
      await expectInsufficient(
        db().transaction((tx) => postEntries(tx, [transferEntry(alice, users[1]!, 'HOLD', '1')])),
      );
      await expectInsufficient(db().transaction((tx) => hold(tx, alice, 'HOLD', '0.1', 'order_hold', 'order-3')));

      await db().transaction((tx) => release(tx, alice, 'HOLD', '30.5', 'order_release', 'order-1'));
      expect(await balanceOf(db(), alice, 'HOLD')).toEqual({ currency: 'HOLD', available: '30.5', locked: '69.5' });
      await expectInsufficient(
        db().transaction((tx) => release(tx, alice, 'HOLD', '69.6', 'order_release', 'order-2')),
      );
      for (const amount of ['0', '-1', 'abc']) {
        await expect(
          db().transaction((tx) => hold(tx, alice, 'HOLD', amount, 'order_hold', 'order-4')),
        ).rejects.toThrow(/positive|invalid amount/);
      }
      const entries = await db().query<{ kind: string; reference: string; postings: string }>(
        `SELECT e.kind, e.reference, string_agg(p.bucket || ' ' || trim_scale(p.amount)::text, ', ' ORDER BY p.id) AS postings
         FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id
         WHERE e.reference = 'order-1' GROUP BY e.id ORDER BY e.id`,
      );
      expect(entries.rows).toEqual([
        { kind: 'order_hold', reference: 'order-1', postings: 'available -30.5, locked 30.5' },
        { kind: 'order_release', reference: 'order-1', postings: 'locked -30.5, available 30.5' },
      ]);

      // Locked funds with no reserve behind them are a violation of the books.
      const violations = await checkLedgerInvariants(db());
      expect(violations).toEqual([
        { kind: 'reserve_mismatch', details: `user ${alice} HOLD: locked 69.5, but the reserves add up to 0` },
      ]);
      await db().transaction((tx) => release(tx, alice, 'HOLD', '69.5', 'order_release', 'order-2'));
    });

    it('lets custody and market making go negative, and no other system account', async () => {
      expect([...SYSTEM_ACCOUNTS_ALLOWED_NEGATIVE].sort()).toEqual(['custody', 'futures_clearing', 'market_making']);
      await db().transaction((tx) =>
        postEntries(tx, [
          {
            kind: 'funding',
            reference: 'capital-1',
            postings: [
              { owner: { kind: 'system', name: 'market_making' }, currency: 'SYS', bucket: 'available', amount: '-50' },
              { owner: { kind: 'system', name: 'conversion' }, currency: 'SYS', bucket: 'available', amount: '50' },
            ],
          },
        ]),
      );
      expect(await systemBalance(db(), 'market_making', 'SYS')).toEqual({
        currency: 'SYS',
        available: '-50',
        locked: '0',
      });
      await expectInsufficient(
        db().transaction((tx) =>
          postEntries(tx, [
            {
              kind: 'conversion',
              reference: 'conversion-overdraw',
              postings: [
                {
                  owner: { kind: 'system', name: 'conversion' },
                  currency: 'SYS',
                  bucket: 'available',
                  amount: '-50.1',
                },
                { owner: custody, currency: 'SYS', bucket: 'available', amount: '50.1' },
              ],
            },
          ]),
        ),
      );
      const flags = await db().query<{ system_name: string; allow_negative: boolean }>(
        `SELECT system_name, allow_negative FROM ledger_accounts WHERE currency = 'SYS' ORDER BY system_name`,
      );
      expect(flags.rows).toEqual([
        { system_name: 'conversion', allow_negative: false },
        { system_name: 'market_making', allow_negative: true },
      ]);
    });

    it('recovers when a cached ledger account id belongs to a rolled-back savepoint', async () => {
      const [alice] = users as [string];
      await db().transaction(async (tx) => {
        await tx.query('SAVEPOINT doomed');
        await postEntries(tx, [depositEntry(alice, 'SAVEP', '1')]);
        // Read back inside the savepoint: the rows pass for committed and their ids are cached.
        await postEntries(tx, [depositEntry(alice, 'SAVEP', '1')]);
        await tx.query('ROLLBACK TO SAVEPOINT doomed');
        await postEntries(tx, [depositEntry(alice, 'SAVEP', '5')]);
      });
      expect(await balanceOf(db(), alice, 'SAVEP')).toEqual({ currency: 'SAVEP', available: '5', locked: '0' });
    });

    it('does not share the ids of ledger accounts created by a transaction that rolled back', async () => {
      const [alice] = users as [string];
      await expect(
        db().transaction(async (tx) => {
          await postEntries(tx, [depositEntry(alice, 'ROLL', '1')]);
          throw new Error('abandoned');
        }),
      ).rejects.toThrow('abandoned');
      await db().transaction((tx) => postEntries(tx, [depositEntry(alice, 'ROLL', '2')]));
      expect(await balanceOf(db(), alice, 'ROLL')).toEqual({ currency: 'ROLL', available: '2', locked: '0' });
    });

    it('detects a corrupted balance, an unbalanced posting and a lock without reserve', async () => {
      const [alice] = users as [string];
      await db().transaction((tx) => postEntries(tx, [depositEntry(alice, 'CORRUPT', '7', 'corrupt-1')]));
      expect(await checkLedgerInvariants(db())).toEqual([]);

      await db().query(
        `UPDATE ledger_accounts SET available = available + 0.000000000000000001 WHERE account_id = $1 AND currency = 'CORRUPT'`,
        [alice],
      );
      const balanceViolations = await checkLedgerInvariants(db());
      expect(balanceViolations.map((violation) => violation.kind)).toEqual(['balance_mismatch']);
      expect(balanceViolations[0]?.details).toMatch(
        /\(user .+, CORRUPT\): available 7\.000000000000000001 and locked 0, but its postings sum to available 7 and locked 0/,
      );
      await db().query(
        `UPDATE ledger_accounts SET available = available - 0.000000000000000001 WHERE account_id = $1 AND currency = 'CORRUPT'`,
        [alice],
      );
      expect(await checkLedgerInvariants(db())).toEqual([]);

      const posting = `UPDATE ledger_postings SET amount = amount + $1::numeric WHERE id = (
        SELECT p.id FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id
        WHERE e.reference = 'corrupt-1' AND p.amount > 0)`;
      await db().query(posting, ['1']);
      expect((await checkLedgerInvariants(db())).map((violation) => violation.kind).sort()).toEqual([
        'balance_mismatch',
        'currency_unbalanced',
        'entry_unbalanced',
      ]);
      await db().query(posting, ['-1']);
      expect(await checkLedgerInvariants(db())).toEqual([]);
    });

    it('keeps every invariant over random deposits, transfers, holds and releases (property)', async () => {
      let runNumber = 0;
      const amount = fc.oneof(
        fc.tuple(fc.bigInt({ min: 1n, max: 5_000n }), fc.integer({ min: 0, max: 3 })),
        fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 19n }), fc.constant(18)),
      );
      const userIndex = fc.integer({ min: 0, max: 2 });
      const step = fc.oneof(
        fc.record({ type: fc.constant('deposit' as const), to: userIndex, amount }),
        fc.record({ type: fc.constant('transfer' as const), from: userIndex, to: userIndex, amount }),
        fc.record({ type: fc.constant('hold' as const), from: userIndex, amount }),
        fc.record({ type: fc.constant('release' as const), from: userIndex, amount }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
          runNumber++;
          const currency = `PROP${runNumber}`;
          const reference = `prop-${runNumber}`;
          const model = users.map(() => ({ available: ZERO, locked: ZERO }));
          const inTransaction = (fn: (tx: Transaction) => Promise<void>) => db().transaction(fn);
          for (const action of steps) {
            const value: Amount = { units: action.amount[0], scale: action.amount[1] };
            const text = formatDecimal(value);
            let attempt: () => Promise<void>;
            let expectedOk = true;
            let apply: () => void;
            if (action.type === 'deposit') {
              const target = model[action.to]!;
              attempt = () => inTransaction((tx) => postEntries(tx, [depositEntry(users[action.to]!, currency, text)]));
              apply = () => {
                target.available = add(target.available, value);
              };
            } else if (action.type === 'transfer') {
              const source = model[action.from]!;
              const target = model[action.to]!;
              // Postings are netted per account within a call, so paying oneself never fails.
              expectedOk = action.from === action.to || gte(source.available, value);
              attempt = () =>
                inTransaction((tx) =>
                  postEntries(tx, [transferEntry(users[action.from]!, users[action.to]!, currency, text)]),
                );
              apply = () => {
                source.available = sub(source.available, value);
                target.available = add(target.available, value);
              };
            } else if (action.type === 'hold') {
              const source = model[action.from]!;
              expectedOk = gte(source.available, value);
              attempt = () =>
                inTransaction((tx) => hold(tx, users[action.from]!, currency, text, 'order_hold', reference));
              apply = () => {
                source.available = sub(source.available, value);
                source.locked = add(source.locked, value);
              };
            } else {
              const source = model[action.from]!;
              expectedOk = gte(source.locked, value);
              attempt = () =>
                inTransaction((tx) => release(tx, users[action.from]!, currency, text, 'order_release', reference));
              apply = () => {
                source.locked = sub(source.locked, value);
                source.available = add(source.available, value);
              };
            }
            const outcome = await attempt().then(
              () => 'ok',
              (error: unknown) => (error instanceof AppError ? error.code : error),
            );
            expect(outcome).toBe(expectedOk ? 'ok' : 'INSUFFICIENT_BALANCE');
            if (expectedOk) apply();
            for (const [index, accountId] of users.entries()) {
              const expected = model[index]!;
              expect(await balanceOf(db(), accountId, currency)).toEqual({
                currency,
                available: canonical(expected.available),
                locked: canonical(expected.locked),
              });
            }
          }
          // Release what is still held, as cancelled orders would; then the books must be sound.
          for (const [index, accountId] of users.entries()) {
            const locked = model[index]!.locked;
            if (!isZero(locked)) {
              await inTransaction((tx) =>
                release(tx, accountId, currency, formatDecimal(locked), 'order_release', reference),
              );
            }
          }
          expect(await checkLedgerInvariants(db())).toEqual([]);
        }),
        { numRuns: 25 },
      );
    });

    it.skipIf(kind === 'pglite')(
      'lets exactly 10 of 50 concurrent spends of 1 from a balance of 10 succeed, without deadlocks',
      async () => {
        const [alice, bob] = users as [string, string];
        await db().transaction((tx) => postEntries(tx, [depositEntry(alice, 'RACE', '10')]));
        const spends = Array.from({ length: 50 }, (_, index) =>
          db().transaction(
            (tx) => {
              const postings = [
                { owner: user(alice), currency: 'RACE', bucket: 'available' as const, amount: '-1' },
                { owner: user(bob), currency: 'RACE', bucket: 'available' as const, amount: '0.9' },
                { owner: fees, currency: 'RACE', bucket: 'available' as const, amount: '0.1' },
              ];
              // Postings in every order: the locks must still be taken in one order.
              if (index % 2 === 1) postings.reverse();
              return postEntries(tx, [{ kind: 'trade', reference: `race-${index}`, postings }]);
            },
            { retries: 0 },
          ),
        );
        const outcomes = await Promise.all(
          spends.map((spend) =>
            spend.then(
              () => 'ok',
              (error: unknown) => (error instanceof AppError ? error.code : String(sqlState(error) ?? error)),
            ),
          ),
        );
        expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(10);
        expect(outcomes.filter((outcome) => outcome === 'INSUFFICIENT_BALANCE')).toHaveLength(40);
        expect(await balanceOf(db(), alice, 'RACE')).toEqual({ currency: 'RACE', available: '0', locked: '0' });
        expect(await balanceOf(db(), bob, 'RACE')).toEqual({ currency: 'RACE', available: '9', locked: '0' });
        expect(await systemBalance(db(), 'fees', 'RACE')).toEqual({ currency: 'RACE', available: '1', locked: '0' });
      },
    );

    it.skipIf(kind === 'pglite')(
      'runs crossing transfers and concurrent account creation without deadlocks or duplicate accounts',
      async () => {
        const [alice, bob, carol] = users as [string, string, string];
        await db().transaction((tx) =>
          postEntries(tx, [depositEntry(alice, 'CROSS', '100'), depositEntry(bob, 'CROSS', '100')]),
        );
        const transfers = Array.from({ length: 40 }, (_, index) => {
          const [from, to] = index % 2 === 0 ? [alice, bob] : [bob, alice];
          return db().transaction(
            (tx) =>
              postEntries(tx, [
                transferEntry(from, to, 'CROSS', '1'),
                // Each also creates accounts that many others create at the same moment.
                depositEntry(carol, `NEW${index % 4}`, '1'),
                depositEntry(from, `NEW${index % 4}`, '1'),
              ]),
            { retries: 0 },
          );
        });
        await Promise.all(transfers);
        expect((await balanceOf(db(), alice, 'CROSS')).available).toBe('100');
        expect((await balanceOf(db(), bob, 'CROSS')).available).toBe('100');
        expect((await balanceOf(db(), carol, 'NEW0')).available).toBe('10');
        const accounts = await db().query<{ count: string }>(
          `SELECT count(*)::text AS count FROM ledger_accounts WHERE currency LIKE 'NEW%'`,
        );
        // Per currency: carol, one of alice and bob, and custody.
        expect(accounts.rows[0]?.count).toBe('12');
      },
    );
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);

const ZERO: Amount = { units: 0n, scale: 0 };
