import type { Queryable } from '../../db/database.ts';

/**
 * The portfolio_snapshots table (migration 0024): the portfolio's own rows, written by the recorder
 * (snapshot-recorder.ts) and read by the history (history-service.ts). docs/portfolio.md
 * "Snapshots and value over time".
 */

export type SnapshotGranularity = 'hour' | 'day';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The length of one bucket of a granularity. */
export const bucketMs = (granularity: SnapshotGranularity) => (granularity === 'hour' ? HOUR_MS : DAY_MS);

/** The bucket a moment falls in: the top of its UTC hour, or 00:00 UTC of its day (UTC has no leap seconds here). */
export const bucketOf = (granularity: SnapshotGranularity, timeMs: number) =>
  Math.floor(timeMs / bucketMs(granularity)) * bucketMs(granularity);

/** One row: USD decimal texts, exact. */
export type SnapshotRow = {
  accountId: string;
  granularity: SnapshotGranularity;
  atMs: number;
  totalValue: string;
  spotValue: string;
  futuresEquity: string;
  netFlow: string;
};

/**
 * Writes the rows in one statement; a row whose (account, granularity, at) exists is left as it
 * is (a restart, or a second server recording the same bucket). Returns how many were new.
 */
export async function insertSnapshots(q: Queryable, rows: readonly SnapshotRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await q.query(
    `INSERT INTO portfolio_snapshots (account_id, granularity, at, total_value, spot_value, futures_equity, net_flow)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[])
     ON CONFLICT (account_id, granularity, at) DO NOTHING`,
    [
      rows.map((row) => row.accountId),
      rows.map((row) => row.granularity),
      rows.map((row) => new Date(row.atMs).toISOString()),
      rows.map((row) => row.totalValue),
      rows.map((row) => row.spotValue),
      rows.map((row) => row.futuresEquity),
      rows.map((row) => row.netFlow),
    ],
  );
  return result.rowCount ?? 0;
}

/**
 * Each account's latest row of the granularity before `atMs` (where its flows window starts), for
 * a page of accounts: one index probe per account on the primary key.
 */
export async function previousSnapshotTimes(
  q: Queryable,
  accountIds: readonly string[],
  granularity: SnapshotGranularity,
  atMs: number,
): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const result = await q.query<{ account_id: string; at: Date }>(
    `SELECT a.id::text AS account_id, last.at
     FROM unnest($1::uuid[]) AS a (id)
     JOIN LATERAL (
       SELECT at FROM portfolio_snapshots s
       WHERE s.account_id = a.id AND s.granularity = $2 AND s.at < $3
       ORDER BY s.at DESC LIMIT 1
     ) last ON true`,
    [accountIds, granularity, new Date(atMs).toISOString()],
  );
  return new Map(result.rows.map((row) => [row.account_id, new Date(row.at).getTime()]));
}

/** Deletes the hourly rows older than the cut-off; daily rows are kept forever. Returns how many went. */
export async function pruneHourly(q: Queryable, beforeMs: number): Promise<number> {
  const result = await q.query(`DELETE FROM portfolio_snapshots WHERE granularity = 'hour' AND at < $1`, [
    new Date(beforeMs).toISOString(),
  ]);
  return result.rowCount ?? 0;
}

export type StoredSnapshot = {
  atMs: number;
  totalValue: string;
  spotValue: string;
  futuresEquity: string;
  netFlow: string;
};

/** One account's rows of a granularity from `fromMs` (inclusive; null: all), oldest first, the newest `limit` of them. */
export async function accountSnapshots(
  q: Queryable,
  query: { accountId: string; granularity: SnapshotGranularity; fromMs: number | null; limit: number },
): Promise<StoredSnapshot[]> {
  const result = await q.query<{
    at: Date;
    total_value: string;
    spot_value: string;
    futures_equity: string;
    net_flow: string;
  }>(
    `SELECT at, total_value::text AS total_value, spot_value::text AS spot_value,
       futures_equity::text AS futures_equity, net_flow::text AS net_flow
     FROM (
       SELECT * FROM portfolio_snapshots
       WHERE account_id = $1 AND granularity = $2 AND at >= $3
       ORDER BY at DESC LIMIT $4
     ) newest ORDER BY at`,
    [query.accountId, query.granularity, new Date(query.fromMs ?? 0).toISOString(), query.limit],
  );
  return result.rows.map((row) => ({
    atMs: new Date(row.at).getTime(),
    totalValue: String(row.total_value),
    spotValue: String(row.spot_value),
    futuresEquity: String(row.futures_equity),
    netFlow: String(row.net_flow),
  }));
}
