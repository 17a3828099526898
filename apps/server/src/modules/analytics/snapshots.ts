import type { Queryable } from '../../db/database.ts';
import { signedAmount } from './figures.ts';
import type { Snapshot } from './twr.ts';

type SnapshotRow = { at: Date | string; total_value: string; net_flow: string; before: boolean };

/**
 * The account's daily snapshots (table portfolio_snapshots) in [fromMs, toMs), oldest first, and
 * the last one before the period, which the period's first day is measured from.
 */
export async function dailySnapshots(
  db: Queryable,
  accountId: string,
  fromMs: number,
  toMs: number,
): Promise<{ base: Snapshot | null; rows: Snapshot[] }> {
  const [from, to] = [new Date(fromMs).toISOString(), new Date(toMs).toISOString()];
  const result = await db.query<SnapshotRow>(
    `(SELECT at, total_value::text AS total_value, net_flow::text AS net_flow, true AS before FROM portfolio_snapshots
       WHERE account_id = $1 AND granularity = 'day' AND at < $2 ORDER BY at DESC LIMIT 1)
     UNION ALL
     (SELECT at, total_value::text, net_flow::text, false FROM portfolio_snapshots
       WHERE account_id = $1 AND granularity = 'day' AND at >= $2 AND at < $3)
     ORDER BY at`,
    [accountId, from, to],
  );
  const snapshot = (row: SnapshotRow): Snapshot => ({
    atMs: new Date(row.at).getTime(),
    totalValue: signedAmount(String(row.total_value)),
    netFlow: signedAmount(String(row.net_flow)),
  });
  const first = result.rows[0];
  const base = first?.before === true ? snapshot(first) : null;
  return { base, rows: result.rows.filter((row) => row.before !== true).map(snapshot) };
}
