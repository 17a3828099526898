import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { fund } from '../trading/test-support.ts';
import { type Member, sendTransfer, signUpMember } from './test-support.ts';

const ACCOUNTS = 100;
const TRANSFERS = 10_000;
const IN_FLIGHT = 64;
const START_USDT = 1000n;

describeEachDatabase(
  'wallet: 10,000 random transfers among 100 accounts',
  (server) => {
    it('keep every total unchanged, never show a negative balance, and settle every accepted transfer', async () => {
      const members: Member[] = [];
      for (let start = 0; start < ACCOUNTS; start += 10) {
        members.push(...(await Promise.all(Array.from({ length: 10 }, () => signUpMember(server())))));
      }
      for (const member of members) await fund(server(), member.id, 'USDT', String(START_USDT));

      // A seeded stream of (sender, recipient, amount in cents): replayable when it fails.
      const plan = fc.sample(
        fc.record({
          from: fc.integer({ min: 0, max: ACCOUNTS - 1 }),
          offset: fc.integer({ min: 1, max: ACCOUNTS - 1 }),
          cents: fc.integer({ min: 100, max: 50_000 }),
        }),
        { numRuns: TRANSFERS, seed: 20261122 },
      );
      const statuses = new Map<number, number>();
      let negativeReads = 0;
      let reads = 0;
      let next = 0;
      let running = true;
      const worker = async () => {
        while (next < plan.length) {
          const step = plan[next++]!;
          const from = members[step.from]!;
          const to = members[(step.from + step.offset) % ACCOUNTS]!;
          const amount = `${Math.floor(step.cents / 100)}.${String(step.cents % 100).padStart(2, '0')}`;
          const answer = await sendTransfer(server(), from, { to_username: to.username, currency: 'usdt', amount });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }
      };
      // Reads while the transfers run: no balance is ever below zero, available or locked.
      const reader = async () => {
        while (running) {
          const rows = await server().db.query<{ negative: boolean }>(
            `SELECT bool_or(available < 0 OR locked < 0) AS negative FROM ledger_accounts
               WHERE owner_kind = 'user' AND currency = 'USDT' AND account_id = ANY($1::uuid[])`,
            [members.map((member) => member.id)],
          );
          reads++;
          if (rows.rows[0]?.negative) negativeReads++;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const reading = reader();
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      running = false;
      await reading;

      expect([...statuses.keys()].every((status) => status === 201 || status === 422)).toBe(true);
      const accepted = statuses.get(201) ?? 0;
      expect(accepted).toBeGreaterThan(TRANSFERS / 2);
      expect(reads).toBeGreaterThan(0);
      expect(negativeReads).toBe(0);

      // Every accepted transfer settles; then the 100 accounts hold exactly what they started with.
      for (let attempt = 0; attempt < 3000; attempt++) {
        const open = await server().db.query<{ count: bigint | string }>(
          `SELECT count(*) AS count FROM transfers WHERE status IN ('CREATED', 'WAITING')`,
        );
        if (Number(open.rows[0]?.count) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const totals = await server().db.query<{ finished: bigint | string; total: string; locked: string }>(
        `SELECT (SELECT count(*) FROM transfers WHERE status = 'FINISHED') AS finished,
                  sum(available + locked)::text AS total, sum(locked)::text AS locked
           FROM ledger_accounts WHERE owner_kind = 'user' AND currency = 'USDT' AND account_id = ANY($1::uuid[])`,
        [members.map((member) => member.id)],
      );
      expect(totals.rows[0]).toEqual({
        finished: expect.anything(),
        total: expect.stringMatching(new RegExp(`^${START_USDT * BigInt(ACCOUNTS)}(\\.0+)?$`)),
        locked: expect.stringMatching(/^0(\.0+)?$/),
      });
      expect(Number(totals.rows[0]?.finished)).toBe(accepted);
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    }, 600_000);
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
