import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { lots } from '@platform/engine';
import type { Queryable } from '../../db/database.ts';
import type { MovementCursor } from '../wallet/index.ts';

/**
 * Checkpoints of the lot cache (docs/portfolio.md "Checkpoints"): per (account, method) the lot
 * books of every asset, the lot feed's clock per asset, and the movements cursor they stop at, in
 * `portfolio_lot_checkpoints` (migration 0026). A cold load restores them and reads only the
 * movements after the cursor.
 */

/** The layout of the `books` payload; a row of another version is ignored (and rebuilt). */
export const LOT_CHECKPOINT_FORMAT = 1;
/**
 * New lot events since the last checkpoint before another is written: a cold load then reads at
 * most about this many events past the checkpoint (a few milliseconds), and an account that trades
 * little is not rewritten on every request (a write serialises every open lot).
 */
export const LOT_CHECKPOINT_EVENTS_MIN = 1_000;
/**
 * Largest checkpoint read back, uncompressed: the cache holds at most LOT_CACHE_EVENTS_MAX events,
 * about 60 bytes of JSON per open lot, so a real one stays far below; past it, ignored as corrupt.
 */
export const LOT_CHECKPOINT_JSON_BYTES_MAX = 128 * 1024 * 1024;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

const CURRENCY = /^[A-Z0-9]{1,20}$/;
const POSTING_ID = /^(0|[1-9][0-9]{0,18})$/;
const NUMERAIRE = 'USD';

/** What a checkpoint holds: the books and clocks per asset, the cursor they stop at, their event count. */
export type LotCheckpointState = {
  books: ReadonlyMap<string, lots.LotBook>;
  clocks: ReadonlyMap<string, number>;
  cursor: MovementCursor;
  events: number;
};

/** A checkpoint taken (synchronously, so the books and cursor are of one moment), ready to write. */
export type PreparedCheckpoint = { json: string; cursor: MovementCursor; events: number };

export type CheckpointLog = { warn(details: object, message: string): void };

/** The cursor and event count are in the payload too (the row's columns are for people and queries): both must agree. */
type Payload = {
  format: number;
  account: string;
  method: string;
  cursor: MovementCursor;
  events: number;
  assets: [string, number, unknown][];
};

/** The books' snapshots as JSON, now: the caller must not let them change during this call. */
export function prepareCheckpoint(
  accountId: string,
  method: lots.LotMethod,
  state: LotCheckpointState,
): PreparedCheckpoint {
  const assets: Payload['assets'] = [];
  for (const [asset, book] of state.books) assets.push([asset, state.clocks.get(asset) ?? 0, book.snapshot()]);
  const cursor = { ...state.cursor };
  const payload: Payload = {
    format: LOT_CHECKPOINT_FORMAT,
    account: accountId,
    method,
    cursor,
    events: state.events,
    assets,
  };
  return { json: JSON.stringify(payload), cursor, events: state.events };
}

const isCursor = (value: unknown): value is MovementCursor =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.entries(value).every(
    ([currency, id]) => CURRENCY.test(currency) && typeof id === 'string' && POSTING_ID.test(id),
  );

/**
 * A payload back to books, or the reason it is refused. Everything is checked: the account and
 * method it was written for (an account's checkpoint is never another's, even if a row were
 * misfiled), each book by the engine's restore, the clocks, and that the books' event counts add up
 * to the row's.
 */
export function restoreCheckpoint(
  accountId: string,
  method: lots.LotMethod,
  payload: unknown,
  row: { cursor: unknown; events: number },
): LotCheckpointState | string {
  const value = payload as Partial<Payload> | null;
  if (typeof value !== 'object' || value === null) return 'payload is not an object';
  if (value.format !== LOT_CHECKPOINT_FORMAT) return `format ${String(value.format)} is not ours`;
  if (value.account !== accountId || value.method !== method) return 'written for another account or method';
  if (!Array.isArray(value.assets) || !isCursor(row.cursor)) return 'assets or cursor out of shape';
  if (!sameCursor(value.cursor, row.cursor) || value.events !== row.events) return 'the row and its payload disagree';
  const books = new Map<string, lots.LotBook>();
  const clocks = new Map<string, number>();
  let events = 0;
  for (const entry of value.assets as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 3) return 'asset entry out of shape';
    const [asset, clockMs, snapshot] = entry as [unknown, unknown, lots.LotBookSnapshot];
    if (typeof asset !== 'string' || !CURRENCY.test(asset) || asset === NUMERAIRE || books.has(asset)) return 'asset';
    const book = lots.LotBook.restore(snapshot);
    if (!(book instanceof lots.LotBook)) return `${asset}: ${book.message}`;
    // The feed raises each event's time to the asset's clock: one behind the book's last event would
    // make the engine refuse the tail.
    if (!Number.isSafeInteger(clockMs) || (clockMs as number) < (snapshot.lastTimeMs ?? 0)) return `clock of ${asset}`;
    if (book.method !== method) return `${asset}: a book of another method`;
    books.set(asset, book);
    clocks.set(asset, clockMs as number);
    events += snapshot.events;
  }
  if (events !== row.events) return `the books hold ${events} events, the row says ${row.events}`;
  return { books, clocks, cursor: row.cursor, events };
}

function sameCursor(a: unknown, b: MovementCursor): boolean {
  if (!isCursor(a)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((currency) => a[currency] === b[currency]);
}

type CheckpointRow = { format_version: number; books: Uint8Array; movement_cursor: unknown; events: string };

/** Reads and writes the rows; every failure is logged and reads as "no checkpoint". */
export class LotCheckpointStore {
  constructor(
    private readonly db: Queryable,
    private readonly log: CheckpointLog,
  ) {}

  /** The account's checkpoint under the method, or null (none, unreadable, or refused: then deleted). */
  async read(accountId: string, method: lots.LotMethod): Promise<LotCheckpointState | null> {
    let row: CheckpointRow | undefined;
    try {
      const result = await this.db.query<CheckpointRow>(
        `SELECT format_version, books, movement_cursor, events::text AS events
         FROM portfolio_lot_checkpoints WHERE account_id = $1 AND method = $2`,
        [accountId, method],
      );
      row = result.rows[0];
    } catch (error) {
      this.log.warn({ err: error, accountId, method }, 'lot checkpoint: read failed, building from the ledger');
      return null;
    }
    if (row === undefined) return null;
    const restored = await this.decode(accountId, method, row);
    if (typeof restored !== 'string') return restored;
    this.log.warn({ accountId, method, reason: restored }, 'lot checkpoint: refused, building from the ledger');
    await this.discard(accountId, method);
    return null;
  }

  private async decode(accountId: string, method: lots.LotMethod, row: CheckpointRow) {
    if (row.format_version !== LOT_CHECKPOINT_FORMAT) return `format ${row.format_version} is not ours`;
    let payload: unknown;
    try {
      const json = await gunzipAsync(row.books, { maxOutputLength: LOT_CHECKPOINT_JSON_BYTES_MAX });
      payload = JSON.parse(json.toString('utf8'));
    } catch (error) {
      return `unreadable: ${(error as Error).message}`;
    }
    return restoreCheckpoint(accountId, method, payload, { cursor: row.movement_cursor, events: Number(row.events) });
  }

  /**
   * Stores the checkpoint unless the row already holds as many events or more (another server's
   * newer one: the ledger only grows, so more events is a later cursor). Returns the compressed size.
   */
  async write(accountId: string, method: lots.LotMethod, checkpoint: PreparedCheckpoint, now: Date): Promise<number> {
    const books = await gzipAsync(Buffer.from(checkpoint.json, 'utf8'));
    await this.db.query(
      `INSERT INTO portfolio_lot_checkpoints (account_id, method, format_version, books, movement_cursor, events, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
       ON CONFLICT (account_id, method) DO UPDATE SET format_version = EXCLUDED.format_version,
         books = EXCLUDED.books, movement_cursor = EXCLUDED.movement_cursor, events = EXCLUDED.events,
         updated_at = EXCLUDED.updated_at
       WHERE portfolio_lot_checkpoints.events < EXCLUDED.events`,
      [accountId, method, LOT_CHECKPOINT_FORMAT, books, JSON.stringify(checkpoint.cursor), checkpoint.events, now],
    );
    return books.length;
  }

  /** Deletes the account's checkpoint under the method (refused or failed); a failure is logged. */
  async discard(accountId: string, method: lots.LotMethod): Promise<void> {
    try {
      await this.db.query('DELETE FROM portfolio_lot_checkpoints WHERE account_id = $1 AND method = $2', [
        accountId,
        method,
      ]);
    } catch (error) {
      this.log.warn({ err: error, accountId, method }, 'lot checkpoint: could not delete a refused checkpoint');
    }
  }
}
