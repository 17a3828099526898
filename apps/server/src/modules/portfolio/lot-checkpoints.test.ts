import { randomUUID } from 'node:crypto';
import type { lots } from '@platform/engine';
import { beforeEach, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { type EntryInput, postEntries } from '../ledger/service.ts';
import type { MovementCursor } from '../wallet/index.ts';
import { accountMovements } from '../wallet/movements.ts';
import { LotCache } from './lot-cache.ts';
import { LOT_CHECKPOINT_EVENTS_MIN, LotCheckpointStore } from './lot-checkpoints.ts';

const user = (accountId: string) => ({ kind: 'user' as const, accountId });
const system = (name: string) => ({ kind: 'system' as const, name });

function deposit(accountId: string, currency: string, amount: string): EntryInput {
  return {
    kind: 'deposit',
    reference: `checkpoint:${randomUUID()}`,
    postings: [
      { owner: system('custody'), currency, bucket: 'available', amount: `-${amount}` },
      { owner: user(accountId), currency, bucket: 'available', amount },
    ],
  };
}

/** A spot fill against the house: BTC in for USD out (a buy) or the reverse, at a price that moves. */
function fill(accountId: string, index: number): EntryInput {
  const buy = index % 3 !== 2;
  const btc = `0.00${(index % 9) + 1}`;
  const usd = ((index % 9) + 1) * (30 + (index % 17));
  const sign = (negative: boolean, amount: string) => (negative ? `-${amount}` : amount);
  return {
    kind: 'trade',
    reference: `checkpoint:${randomUUID()}`,
    postings: [
      { owner: user(accountId), currency: 'BTC', bucket: 'available', amount: sign(!buy, btc) },
      { owner: system('market_making'), currency: 'BTC', bucket: 'available', amount: sign(buy, btc) },
      { owner: user(accountId), currency: 'USD', bucket: 'available', amount: sign(buy, String(usd)) },
      { owner: system('market_making'), currency: 'USD', bucket: 'available', amount: sign(!buy, String(usd)) },
    ],
  };
}

async function trade(db: Database, accountId: string, from: number, count: number): Promise<void> {
  for (let start = from; start < from + count; start += 500) {
    const chunk = Array.from({ length: Math.min(500, from + count - start) }, (_, i) => fill(accountId, start + i));
    await postEntries(db, chunk);
  }
}

/** The wallet's read, counted: every cursor asked with and how many movements came back. */
function countingMovements(db: Database) {
  const reads: { after: MovementCursor; rows: number }[] = [];
  const movements = async (accountId: string, after?: MovementCursor) => {
    const page = await accountMovements(db, accountId, after);
    reads.push({ after: after ?? {}, rows: page.movements.length });
    return page;
  };
  return { reads, movements };
}

function cacheOver(db: Database, options: { checkpoints?: boolean } = {}) {
  const warnings: { details: object; message: string }[] = [];
  const log = { warn: (details: object, message: string) => warnings.push({ details, message }) };
  const counted = countingMovements(db);
  const priceAt = async () => null;
  const checkpoints = options.checkpoints === false ? undefined : new LotCheckpointStore(db, log);
  const cache = new LotCache({ movements: counted.movements, priceAt, checkpoints, log });
  return { cache, reads: counted.reads, warnings };
}

const figures = async (cache: LotCache, accountId: string, method: lots.LotMethod) => {
  const view = (await cache.lots(accountId, method))('BTC');
  return { openLots: view?.openLots, totals: view?.totals };
};

type Row = { events: string; movement_cursor: MovementCursor; size: number };
const checkpointRow = async (db: Database, accountId: string, method: string) =>
  (
    await db.query<Row>(
      `SELECT events::text AS events, movement_cursor, octet_length(books) AS size
       FROM portfolio_lot_checkpoints WHERE account_id = $1 AND method = $2`,
      [accountId, method],
    )
  ).rows[0];

describeEachDatabase('lot cache checkpoints', (server) => {
  const fills = LOT_CHECKPOINT_EVENTS_MIN + 200;
  let accountId: string;
  let otherId: string;
  beforeEach(async () => {
    accountId = (await signUp(server())).session.account_id;
    otherId = (await signUp(server())).session.account_id;
    await postEntries(server().db, [deposit(accountId, 'USD', '100000000'), deposit(otherId, 'BTC', '2')]);
    await trade(server().db, accountId, 0, fills);
  });

  it('a large build writes a checkpoint; a restarted cache reads it and only the tail, with the same figures', async () => {
    const db = server().db;
    const first = cacheOver(db);
    const before = await figures(first.cache, accountId, 'fifo');
    await first.cache.settled();
    const row = await checkpointRow(db, accountId, 'fifo');
    expect(Number(row?.events)).toBe(fills);
    expect(first.reads).toEqual([{ after: {}, rows: fills * 2 + 1 }]);
    expect(row?.movement_cursor).toEqual((await accountMovements(db, accountId)).cursor);

    await trade(db, accountId, fills, 7);
    const restarted = cacheOver(db);
    const after = await figures(restarted.cache, accountId, 'fifo');
    expect(restarted.reads).toEqual([{ after: row?.movement_cursor, rows: 14 }]);
    const fresh = cacheOver(db, { checkpoints: false });
    expect(after).toEqual(await figures(fresh.cache, accountId, 'fifo'));
    expect(after).not.toEqual(before);
    expect(restarted.warnings).toEqual([]);
    // 7 events since the checkpoint: below the threshold, nothing rewritten.
    await restarted.cache.settled();
    expect(Number((await checkpointRow(db, accountId, 'fifo'))?.events)).toBe(fills);
  });

  it('a checkpoint per method: HIFO is a cold build the first time, then has its own', async () => {
    const db = server().db;
    const first = cacheOver(db);
    await figures(first.cache, accountId, 'fifo');
    await first.cache.settled();
    const restarted = cacheOver(db);
    await figures(restarted.cache, accountId, 'hifo');
    expect(restarted.reads[0]?.after).toEqual({});
    await restarted.cache.settled();
    const again = cacheOver(db);
    const hifo = await figures(again.cache, accountId, 'hifo');
    expect(again.reads).toEqual([{ after: (await checkpointRow(db, accountId, 'hifo'))?.movement_cursor, rows: 0 }]);
    expect(hifo).toEqual(await figures(cacheOver(db, { checkpoints: false }).cache, accountId, 'hifo'));
  });

  it('a corrupt or old-version checkpoint is logged and ignored: the cache rebuilds and rewrites it', async () => {
    const db = server().db;
    const first = cacheOver(db);
    const expected = await figures(first.cache, accountId, 'fifo');
    await first.cache.settled();
    const corruptions = [
      `UPDATE portfolio_lot_checkpoints SET books = decode('1f8b0800000000000003', 'hex')`,
      `UPDATE portfolio_lot_checkpoints SET format_version = 0`,
      `UPDATE portfolio_lot_checkpoints SET events = events + 1`,
      `UPDATE portfolio_lot_checkpoints SET movement_cursor = '{"BTC": "x"}'::jsonb`,
    ];
    for (const corruption of corruptions) {
      await db.query(`${corruption} WHERE account_id = $1`, [accountId]);
      const restarted = cacheOver(db);
      expect(await figures(restarted.cache, accountId, 'fifo'), corruption).toEqual(expected);
      expect(restarted.reads[0]?.after, corruption).toEqual({});
      expect(
        restarted.warnings.map((warning) => warning.message),
        corruption,
      ).toEqual(['lot checkpoint: refused, building from the ledger']);
      await restarted.cache.settled();
      expect(Number((await checkpointRow(db, accountId, 'fifo'))?.events), corruption).toBe(fills);
    }
  });

  it("an account's checkpoint is never read for another account, even a row copied under its id", async () => {
    const db = server().db;
    const first = cacheOver(db);
    await figures(first.cache, accountId, 'fifo');
    await first.cache.settled();
    const other = cacheOver(db);
    const own = await figures(other.cache, otherId, 'fifo');
    expect(own.totals?.openAmount).toBe(2n * 10n ** 18n);
    expect(other.reads[0]?.after).toEqual({});
    await db.query(
      `INSERT INTO portfolio_lot_checkpoints (account_id, method, format_version, books, movement_cursor, events)
       SELECT $2, method, format_version, books, movement_cursor, events FROM portfolio_lot_checkpoints
       WHERE account_id = $1 AND method = 'fifo'`,
      [accountId, otherId],
    );
    const misfiled = cacheOver(db);
    expect(await figures(misfiled.cache, otherId, 'fifo')).toEqual(own);
    expect(misfiled.warnings).toHaveLength(1);
    expect(misfiled.warnings[0]?.details).toMatchObject({ reason: 'written for another account or method' });
  });

  it('a failed write is logged and never breaks a request', async () => {
    const db = server().db;
    const warnings: string[] = [];
    const log = { warn: (_details: object, message: string) => warnings.push(message) };
    const store = new LotCheckpointStore(db, log);
    store.write = async () => {
      throw new Error('disk full');
    };
    const cache = new LotCache({
      movements: (id, after) => accountMovements(db, id, after),
      priceAt: async () => null,
      checkpoints: store,
      log,
    });
    const view = await figures(cache, accountId, 'fifo');
    expect(view.totals?.openAmount).toBeGreaterThan(0n);
    await cache.settled();
    expect(warnings).toEqual(['lot checkpoint: write failed']);
    expect(await checkpointRow(db, accountId, 'fifo')).toBeUndefined();
    expect(await figures(cache, accountId, 'fifo')).toEqual(view);
  });
});
