import type { Queryable, Transaction } from '../../db/database.ts';

/**
 * Advisory lock namespace of watchlist writes (the two-key form, whose key space is apart from
 * the one-key form the migrations use). Two replacements of one account's list run one after the
 * other instead of colliding on the unique keys.
 */
const WATCHLIST_LOCK_NAMESPACE = 727_004;

export async function selectWatchlist(q: Queryable, accountId: string): Promise<string[]> {
  const result = await q.query<{ pair_id: string }>(
    'SELECT pair_id FROM watchlist_entries WHERE account_id = $1 ORDER BY position',
    [accountId],
  );
  return result.rows.map((row) => row.pair_id);
}

/** Replaces the whole list; pair ids must be distinct. */
export async function replaceWatchlist(tx: Transaction, accountId: string, pairIds: readonly string[]): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [WATCHLIST_LOCK_NAMESPACE, accountId]);
  await tx.query('DELETE FROM watchlist_entries WHERE account_id = $1', [accountId]);
  if (pairIds.length === 0) return;
  await tx.query(
    `INSERT INTO watchlist_entries (account_id, position, pair_id)
     SELECT $1, entry.ordinality - 1, entry.pair_id
     FROM unnest($2::text[]) WITH ORDINALITY AS entry (pair_id, ordinality)`,
    [accountId, pairIds],
  );
}
