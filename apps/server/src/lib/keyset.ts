/**
 * Keyset pages over an account's history, oldest first: each page starts after the last row of the
 * one before (its time and a unique key), so reading page n costs what reading page 1 does, and a
 * row written meanwhile never shifts a page boundary (OFFSET would read it twice or skip one).
 */

/** A time range of a history: `from` included, `until` excluded; ISO 8601 instants, or null for open. */
export type TimeWindow = { from: string | null; until: string | null };

/**
 * Where a page ends: the last row's time at the database's full precision (microseconds, from
 * keysetTimeSql, so that no row in the same millisecond is read twice or skipped) and its key.
 */
export type KeysetCursor = { at: string; key: string };

/** A row of a keyset page carries its cursor. */
export type KeysetRow = { cursor: KeysetCursor };

/** One page of rows after a cursor (null: from the start), at most `limit` of them, in cursor order. */
export type KeysetPage<Row extends KeysetRow> = (
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
) => Promise<Row[]>;

/** Most rows one page may ask for: a page is held in memory whole. */
export const KEYSET_PAGE_MAX_ROWS = 10_000;

/**
 * A timestamptz column as ISO 8601 UTC text to the microsecond ("2026-11-26T06:22:00.123456Z"):
 * independent of the session's time zone, exact when read back as `$n::timestamptz`, and ordered as
 * text the way the times are.
 */
export function keysetTimeSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * The conditions of a page (joined with AND): the window, and past the cursor. The time bound comes
 * first and alone, so an index on (account, time) bounds the scan; the key only breaks ties. Keys
 * are compared byte-wise (COLLATE "C"), the same on every database whatever its locale. Pushes its
 * parameters onto `params`.
 */
export function keysetConditions(
  timeColumn: string,
  keySql: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  params: unknown[],
): string {
  const conditions: string[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  if (window.from !== null) conditions.push(`${timeColumn} >= ${param(window.from)}::timestamptz`);
  if (window.until !== null) conditions.push(`${timeColumn} < ${param(window.until)}::timestamptz`);
  if (after !== null) {
    const at = param(after.at);
    const key = param(after.key);
    conditions.push(
      `${timeColumn} >= ${at}::timestamptz`,
      `(${timeColumn} > ${at}::timestamptz OR (${keySql}) COLLATE "C" > ${key})`,
    );
  }
  return conditions.length === 0 ? 'TRUE' : conditions.join(' AND ');
}

/** The ORDER BY of a keyset page, matching keysetConditions. */
export function keysetOrder(timeColumn: string, keySql: string): string {
  return `${timeColumn}, (${keySql}) COLLATE "C"`;
}

/** Checks a page size: a positive integer, at most KEYSET_PAGE_MAX_ROWS. */
export function assertPageLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > KEYSET_PAGE_MAX_ROWS) {
    throw new RangeError(`page limit out of range: ${limit}`);
  }
}
