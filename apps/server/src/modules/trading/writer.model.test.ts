import crypto from 'node:crypto';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, sqlState } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { AppError } from '../../lib/errors.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { balanceOf, type EntryInput, postEntries } from '../ledger/service.ts';
import type { OrderChange } from './batch-effects.ts';
import { FundsBook } from './funds.ts';
import type { OrderState } from './order-state.ts';
import { atomsOf, type PairSpec } from './pair-spec.ts';
import { TradingWriter, type WriterHook } from './writer.ts';

/**
 * A model test of the trading writer's failure cascade. Random rounds of market batches (each a
 * user-to-user movement with journal rows) are submitted to a real TradingWriter on a real database,
 * some with an injected fault: an overdraft the ledger refuses, a journal row that already exists,
 * or a row of the in-transaction hook that violates a constraint. A plain reference model says what
 * the writer must do, and the test checks that it did:
 *
 * - the writer takes the first batch of an idle round alone and the rest in writes of at most
 *   MAX_COMMANDS_PER_WRITE journal rows (a write ends once it holds that many);
 * - a write commits all its batches or none (the ledger checks net balances per statement);
 * - when a write fails, its batches are told (error, dependent = false), every batch waiting behind
 *   it is told (the same error, dependent = true), all of their owners are halted before anyone is
 *   answered, and the funds book is cleared;
 * - committed batches are answered in ticket order, their funds stay in the book, and the hook's
 *   `after` runs once per committed write;
 * - a ticket out of order is refused on the spot and changes nothing;
 * - when the ledger's cached account ids do not fit (they point into another database), the gate
 *   lets the statement write nothing and the retry with fresh ids changes nothing callers see.
 *
 * The journal rows, the ledger balances and the funds book must equal the model after every round.
 */

/** The writer's batching limit (writer.ts); the model splits rounds the same way. */
const MAX_COMMANDS_PER_WRITE = 2048;
const USERS = 3;
const START_BALANCE = 100;
const CURRENCY = 'USD';
/** More than every user holds together: refused whatever else the write moves. */
const OVERDRAFT = 1_000_000;

type Fault = 'none' | 'overdraft' | 'duplicate' | 'hook';
type JobSpec = { from: number; to: number; amount: number; rows: number; fault: Fault };
/** staleIds: the ledger's cache of account ids points into another database when the round starts. */
type Round = { jobs: JobSpec[]; badTicketAt: number | null; staleIds: boolean };

const jobArbitrary: fc.Arbitrary<JobSpec> = fc
  .record({
    from: fc.nat({ max: USERS - 1 }),
    to: fc.nat({ max: USERS - 1 }),
    amount: fc.integer({ min: 1, max: 70 }),
    // Mostly one command per batch; now and then one big enough to split a round into several writes.
    rows: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 1, max: 3 }) },
      { weight: 1, arbitrary: fc.integer({ min: 700, max: 1500 }) },
    ),
    fault: fc.oneof(
      { weight: 10, arbitrary: fc.constant<Fault>('none') },
      { weight: 1, arbitrary: fc.constant<Fault>('overdraft') },
      { weight: 1, arbitrary: fc.constant<Fault>('duplicate') },
      { weight: 1, arbitrary: fc.constant<Fault>('hook') },
    ),
  })
  // An overdraft moves money to someone else, or it would net to nothing.
  .map((job) => (job.fault === 'overdraft' && job.to === job.from ? { ...job, to: (job.from + 1) % USERS } : job));

const roundArbitrary: fc.Arbitrary<Round> = fc.array(jobArbitrary, { minLength: 1, maxLength: 5 }).chain((jobs) =>
  fc.record({
    jobs: fc.constant(jobs),
    badTicketAt: fc.option(fc.nat({ max: jobs.length - 1 }), { freq: 6 }),
    staleIds: fc.boolean(),
  }),
);

/** What the reference says one round does. */
type Outcome = { kind: 'resolved' } | { kind: 'rejected'; dependent: boolean; faults: Set<Fault> };

/** The writes a round becomes: the first batch alone, then greedy writes of up to the row limit. */
function modelWrites(jobs: readonly JobSpec[]): number[][] {
  // A round whose every batch the funds book refused in memory writes nothing.
  if (jobs.length === 0) return [];
  const writes: number[][] = [[0]];
  let index = 1;
  while (index < jobs.length) {
    const write: number[] = [];
    let commands = 0;
    while (index < jobs.length && (write.length === 0 || commands < MAX_COMMANDS_PER_WRITE)) {
      commands += jobs[index]!.rows;
      write.push(index++);
    }
    writes.push(write);
  }
  return writes;
}

/** Applies a round to the model's balances; returns each batch's outcome and which writes committed. */
function modelRound(balances: number[], jobs: readonly JobSpec[]): { outcomes: Outcome[]; committedWrites: number } {
  const outcomes: Outcome[] = [];
  let committedWrites = 0;
  const writes = modelWrites(jobs);
  for (let w = 0; w < writes.length; w++) {
    const write = writes[w]!;
    const next = [...balances];
    const faults = new Set<Fault>();
    for (const index of write) {
      const job = jobs[index]!;
      // An overdraft is the ledger's to find, on the write's net balances (see the example below).
      if (job.fault !== 'none' && job.fault !== 'overdraft') faults.add(job.fault);
      const amount = job.fault === 'overdraft' ? OVERDRAFT : job.amount;
      next[job.from]! -= amount;
      next[job.to]! += amount;
    }
    if (next.some((value) => value < 0)) faults.add('overdraft');
    if (faults.size === 0) {
      balances.splice(0, balances.length, ...next);
      for (const _ of write) outcomes.push({ kind: 'resolved' });
      committedWrites++;
      continue;
    }
    for (const _ of write) outcomes.push({ kind: 'rejected', dependent: false, faults });
    for (const later of writes.slice(w + 1))
      for (const _ of later) outcomes.push({ kind: 'rejected', dependent: true, faults });
    break;
  }
  return { outcomes, committedWrites };
}

function faultOf(error: unknown): Fault | 'unknown' {
  if (error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE') return 'overdraft';
  if (sqlState(error) === '23505') return 'duplicate';
  if (sqlState(error) === '23502') return 'hook';
  return 'unknown';
}

/** A hook whose rows fail (a NULL pair id in the journal) when a batch of the write is marked 'boom'. */
function faultyHook(afterCalls: string[][]): WriterHook {
  return (groups, stmt, gate) => {
    const ids = groups.flatMap((group) => group.changes.map((change) => change.order.id));
    const boom = groups.some((group) => group.changes.some((change) => change.order.clientOrderId === 'boom'));
    stmt.cte(
      'hook_rows',
      `INSERT INTO market_journal (pair_id, sequence, command, accepted)
        SELECT NULL, 1, '{}'::jsonb, true WHERE ${boom ? 'true' : 'false'} AND ${gate}`,
    );
    return () => afterCalls.push(ids);
  };
}

const kinds: ('pglite' | 'postgres')[] = ['pglite', ...(process.env.DATABASE_URL ? (['postgres'] as const) : [])];

async function openTestDatabase(kind: 'pglite' | 'postgres'): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openDatabase({ kind: 'pglite' });
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const url = process.env.DATABASE_URL!;
  const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const db = await openDatabase({ kind: 'postgres', url, poolSize: 4, searchPath: schema });
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

async function createUsers(db: Database): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const id = crypto.randomUUID();
    await db.query(
      `INSERT INTO accounts (id, email, first_name, last_name, terms_accepted_at) VALUES ($1, $2, 'Model', 'User', now())`,
      [id, `${id}@example.test`],
    );
    await db.transaction((tx) =>
      postEntries(tx, [
        {
          kind: 'deposit',
          reference: `model:${id}`,
          postings: [
            {
              owner: { kind: 'system', name: 'custody' },
              currency: CURRENCY,
              bucket: 'available',
              amount: `-${START_BALANCE}`,
            },
            {
              owner: { kind: 'user', accountId: id },
              currency: CURRENCY,
              bucket: 'available',
              amount: String(START_BALANCE),
            },
          ],
        },
      ]),
    );
    ids.push(id);
  }
  return ids;
}

/**
 * Another database with the same accounts, whose ledger account ids poison the ledger's cache; one
 * for the whole file (the cache is the process's, whichever database a suite tests).
 */
let otherOpened: Promise<Database> | undefined;
function otherDatabase(): Promise<Database> {
  otherOpened ??= (async () => {
    const other = await openDatabase({ kind: 'pglite' });
    await migrate(other);
    // Its ids never coincide with the test database's, so every cached id of it is a mismatch.
    await other.query(`SELECT setval('ledger_accounts_id_seq', 1000000000)`);
    return other;
  })();
  return otherOpened;
}
afterAll(async () => {
  await (await otherOpened)?.close();
});

for (const kind of kinds) {
  describe(`trading writer failure cascade, model test [${kind}]`, () => {
    let db: Database;
    let drop: () => Promise<void>;
    let other: Database;
    beforeAll(async () => {
      [{ db, drop }, other] = await Promise.all([openTestDatabase(kind), otherDatabase()]);
    });
    afterAll(async () => {
      expect(await checkLedgerInvariants(db)).toEqual([]);
      await drop();
    });

    it('commits, refuses and answers batches as the reference model does', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(roundArbitrary, { minLength: 1, maxLength: 6 }), async (rounds) => {
          run++;
          const pairId = `MODEL_${run}_${crypto.randomBytes(3).toString('hex')}`;
          const spec = { id: pairId } as PairSpec;
          const users = await createUsers(db);
          // The row every 'duplicate' batch collides with.
          await db.query(
            `INSERT INTO market_journal (pair_id, sequence, command, accepted) VALUES ($1, 0, '{}', true)`,
            [pairId],
          );
          const keys = users.map((accountId) => ({ accountId, currency: CURRENCY }));
          const funds = new FundsBook(db);
          const afterCalls: string[][] = [];
          const writer = new TradingWriter({
            db,
            log: pino({ level: 'silent' }),
            funds,
            inTransaction: faultyHook(afterCalls),
          });
          const balances = users.map(() => START_BALANCE);
          const committedJournal: number[] = [0];
          let sequence = 0;
          try {
            for (const round of rounds) {
              while (!funds.hasAll(keys)) await funds.load(keys);
              // The writer's statement then finds ids that do not fit: its gate writes nothing and
              // it tries once more with fresh ids, which must change nothing the callers see.
              if (round.staleIds) await poisonLedgerIds(other, users);
              // As the sequencer does: a batch whose hold the funds book cannot cover is refused in
              // memory and never reaches the writer (an overdraft job stands for a book that lags).
              const room = users.map((accountId) => funds.available(accountId, CURRENCY));
              const jobs = round.jobs.filter((job) => {
                if (job.fault === 'overdraft') return true;
                const amount = atomsOf(String(job.amount));
                if (room[job.from]! < amount) return false;
                room[job.from]! -= amount;
                room[job.to]! += amount;
                return true;
              });
              const events: string[] = [];
              const before = afterCalls.length;
              const settled: Promise<Outcome & { error?: unknown }>[] = [];
              const jobIds: string[] = [];
              const sequences: number[][] = [];
              jobs.forEach((job, index) => {
                if (round.badTicketAt === index) {
                  const ticket = writer.nextTicket() + 1;
                  expect(() => writer.submit({ ...emptyJob(spec), ticket })).toThrow(/out of order/);
                }
                const id = crypto.randomUUID();
                jobIds.push(id);
                const rows = Array.from({ length: job.rows }, () => ++sequence);
                sequences.push(rows);
                const amount = job.fault === 'overdraft' ? OVERDRAFT : job.amount;
                const ticket = writer.nextTicket();
                // As BatchEffects does: the movement reaches the funds book when the batch is decided.
                // The book refuses an overdraft in memory (an invariant), so a write the ledger
                // refuses comes from a book that lags the ledger: an overdraft job is not told to it.
                // Overdrafts far beyond every balance commit only when they cancel out exactly.
                if (job.fault !== 'overdraft') {
                  funds.move(users[job.from]!, CURRENCY, -atomsOf(String(amount)), ticket);
                  funds.move(users[job.to]!, CURRENCY, atomsOf(String(amount)), ticket);
                }
                settled.push(
                  new Promise((resolve) => {
                    writer.submit({
                      ticket,
                      spec,
                      rows: {
                        journal: [...rows, ...(job.fault === 'duplicate' ? [0] : [])].map((s) => ({
                          p: pairId,
                          s,
                          c: { job: id },
                          a: true,
                        })),
                        orders: [],
                        trades: [],
                      },
                      entries: [movement(id, users[job.from]!, users[job.to]!, amount)],
                      changes: [change(id, job.fault === 'hook' ? 'boom' : null)],
                      snapshot: null,
                      owner: { halt: () => events.push(`halt ${index}`) },
                      resolve: () => {
                        events.push(`answer ${index}`);
                        resolve({ kind: 'resolved' });
                      },
                      reject: (error, dependent) => {
                        events.push(`answer ${index}`);
                        resolve({ kind: 'rejected', dependent, faults: new Set(), error });
                      },
                    });
                  }),
                );
              });
              const outcomes = await Promise.all(settled);
              await writer.idle();
              const model = modelRound(balances, jobs);

              // What each caller was told.
              const firstError = outcomes.find((outcome) => outcome.kind === 'rejected')?.error;
              outcomes.forEach((outcome, index) => {
                const expected = model.outcomes[index]!;
                expect(outcome.kind, `batch ${index}`).toBe(expected.kind);
                if (outcome.kind !== 'rejected' || expected.kind !== 'rejected') return;
                expect(outcome.dependent, `batch ${index} dependent`).toBe(expected.dependent);
                // One failure, one error, told to every batch it undid.
                expect(outcome.error).toBe(firstError);
                expect([...expected.faults]).toContain(faultOf(outcome.error));
              });
              // Answers in ticket order; every undone batch's owner halted before anyone is answered.
              const answers = events.filter((event) => event.startsWith('answer'));
              expect(answers).toEqual(jobs.map((_, index) => `answer ${index}`));
              const undone = model.outcomes.flatMap((outcome, index) => (outcome.kind === 'rejected' ? [index] : []));
              const halts = events.filter((event) => event.startsWith('halt'));
              expect(halts.sort()).toEqual(undone.map((index) => `halt ${index}`).sort());
              if (undone.length > 0) {
                const lastHalt = Math.max(...halts.map((halt) => events.indexOf(halt)));
                expect(lastHalt).toBeLessThan(events.indexOf(`answer ${undone[0]}`));
              }

              // What committed.
              for (const [index, outcome] of model.outcomes.entries()) {
                if (outcome.kind === 'resolved') committedJournal.push(...sequences[index]!);
              }
              const journal = await db.query<{ sequence: string | bigint }>(
                'SELECT sequence FROM market_journal WHERE pair_id = $1 ORDER BY sequence',
                [pairId],
              );
              expect(journal.rows.map((row) => Number(row.sequence))).toEqual(
                [...committedJournal].sort((a, b) => a - b),
              );
              for (const [index, accountId] of users.entries()) {
                expect((await balanceOf(db, accountId, CURRENCY)).available, `user ${index}`).toBe(
                  String(balances[index]),
                );
              }

              // The hook's after-commit work: once per committed write.
              await new Promise((resolve) => setImmediate(resolve));
              expect(afterCalls.length - before).toBe(model.committedWrites);

              // The funds book: kept (and equal to the ledger) after clean writes, cleared after a failure.
              if (undone.length > 0) {
                expect(funds.hasAll(keys)).toBe(false);
              } else {
                for (const [index, accountId] of users.entries()) {
                  expect(funds.available(accountId, CURRENCY)).toBe(atomsOf(String(balances[index])));
                }
              }
            }
          } finally {
            await writer.idle();
            funds.close();
          }
        }),
        {
          numRuns: 15,
          examples: [
            // A round whose only batch the funds book refuses in memory (user 1 holds 65, asks 66).
            [
              [
                {
                  jobs: [
                    { from: 1, to: 0, amount: 35, rows: 1, fault: 'none' },
                    { from: 0, to: 0, amount: 1, rows: 1, fault: 'none' },
                  ],
                  badTicketAt: null,
                  staleIds: false,
                },
                { jobs: [{ from: 1, to: 0, amount: 66, rows: 1, fault: 'none' }], badTicketAt: null, staleIds: false },
              ],
            ],
            // Found on PostgreSQL: two overdrafts in one write that cancel out. The ledger checks the
            // balances a whole statement leaves, so the write commits (every entry balances alone).
            [
              [
                {
                  jobs: [
                    { from: 0, to: 0, amount: 1, rows: 1, fault: 'none' },
                    { from: 0, to: 1, amount: 1, rows: 1, fault: 'overdraft' },
                    { from: 1, to: 0, amount: 1, rows: 1, fault: 'overdraft' },
                    { from: 0, to: 0, amount: 1, rows: 1, fault: 'none' },
                  ],
                  badTicketAt: null,
                  staleIds: false,
                },
              ],
            ],
          ],
        },
      );
      // A few seconds on a quiet machine; a shared one under load can take several times that.
    }, 90_000);
  });
}

/** Moves the users' balances in the other database, so that the ledger caches its ids for them. */
async function poisonLedgerIds(other: Database, users: readonly string[]): Promise<void> {
  for (const id of users) {
    await other.query(
      `INSERT INTO accounts (id, email, first_name, last_name, terms_accepted_at) VALUES ($1, $2, 'Model', 'User', now())
       ON CONFLICT DO NOTHING`,
      [id, `${id}@example.test`],
    );
  }
  await other.transaction((tx) =>
    postEntries(
      tx,
      users.map((id) => ({
        kind: 'deposit',
        reference: `poison:${crypto.randomUUID()}`,
        postings: [
          { owner: { kind: 'system', name: 'custody' }, currency: CURRENCY, bucket: 'available', amount: '-1' },
          { owner: { kind: 'user', accountId: id }, currency: CURRENCY, bucket: 'available', amount: '1' },
        ],
      })),
    ),
  );
}

function emptyJob(spec: PairSpec) {
  return {
    spec,
    rows: { journal: [], orders: [], trades: [] },
    entries: [],
    changes: [],
    snapshot: null,
    owner: { halt: () => {} },
    resolve: () => {},
    reject: () => {},
  };
}

function movement(reference: string, from: string, to: string, amount: number): EntryInput {
  return {
    kind: 'trade',
    reference,
    postings: [
      { owner: { kind: 'user', accountId: from }, currency: CURRENCY, bucket: 'available', amount: String(-amount) },
      { owner: { kind: 'user', accountId: to }, currency: CURRENCY, bucket: 'available', amount: String(amount) },
    ],
  };
}

function change(id: string, clientOrderId: string | null): OrderChange {
  return { kind: 'placed', order: { id, clientOrderId } as OrderState };
}
