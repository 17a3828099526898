import type { Queryable } from '../../db/database.ts';

export type FuturesViolationKind =
  | 'futures_sizes_unbalanced'
  | 'futures_clearing_mismatch'
  | 'futures_isolated_mismatch'
  | 'insurance_fund_negative';

export type FuturesViolation = { kind: FuturesViolationKind; details: string };

type Check = { kind: FuturesViolationKind; sql: string; describe: (row: Record<string, string>) => string };

const CHECKS: readonly Check[] = [
  {
    // Every trade opens or closes the same size on both sides: the sizes of a market sum to zero.
    kind: 'futures_sizes_unbalanced',
    sql: `SELECT market_id, sum(size_lots)::text AS total FROM futures_positions GROUP BY market_id HAVING sum(size_lots) <> 0`,
    describe: (row) => `market ${row.market_id}: positions sum to ${row.total} lots, not 0`,
  },
  {
    // futures_clearing pays realised P&L: its balance + Σ open positions' signed cost basis (as USD) = 0.
    kind: 'futures_clearing_mismatch',
    sql: `WITH cost AS (
        SELECT coalesce(sum(sign(p.size_lots::numeric) * p.cost_tick_lots * power(10::numeric, -(m.price_decimals + m.quantity_decimals))), 0) AS total
        FROM futures_positions p JOIN futures_markets m ON m.id = p.market_id),
      clearing AS (
        SELECT coalesce(sum(available + locked), 0) AS balance FROM ledger_accounts
        WHERE owner_kind = 'system' AND system_name = 'futures_clearing' AND currency = 'USD')
      SELECT trim_scale(clearing.balance)::text AS balance, trim_scale(cost.total)::text AS cost
      FROM cost, clearing WHERE clearing.balance + cost.total <> 0`,
    describe: (row) => `futures_clearing holds ${row.balance} but the open positions' signed cost is ${row.cost}`,
  },
  {
    // A futures wallet's locked balance is exactly the margin posted to its isolated positions.
    kind: 'futures_isolated_mismatch',
    sql: `WITH margins AS (SELECT account_id, sum(isolated_margin) AS total FROM futures_positions GROUP BY account_id)
      SELECT coalesce(la.account_id, m.account_id)::text AS account_id, trim_scale(coalesce(la.locked, 0))::text AS locked,
        trim_scale(coalesce(m.total, 0))::text AS margins
      FROM (SELECT account_id, locked FROM ledger_accounts WHERE owner_kind = 'futures' AND currency = 'USD') la
      FULL JOIN margins m ON m.account_id = la.account_id
      WHERE coalesce(la.locked, 0) <> coalesce(m.total, 0) LIMIT 50`,
    describe: (row) => `futures wallet ${row.account_id}: locked ${row.locked}, isolated margins ${row.margins}`,
  },
  {
    kind: 'insurance_fund_negative',
    sql: `SELECT trim_scale(available)::text AS balance FROM ledger_accounts
      WHERE owner_kind = 'system' AND system_name = 'insurance_fund' AND (available < 0 OR locked < 0)`,
    describe: (row) => `insurance_fund is ${row.balance}`,
  },
];

/**
 * The futures invariants (docs/futures.md), beside the ledger's own: run by `npm run ledger:check`
 * and at the end of every test suite. Empty on a database without the futures tables.
 */
export async function checkFuturesInvariants(db: Queryable): Promise<FuturesViolation[]> {
  const present = await db.query<{ present: boolean }>(
    `SELECT to_regclass('futures_positions') IS NOT NULL AS present`,
  );
  if (!present.rows[0]?.present) return [];
  const violations: FuturesViolation[] = [];
  for (const check of CHECKS) {
    const rows = await db.query<Record<string, string>>(check.sql);
    for (const row of rows.rows) violations.push({ kind: check.kind, details: check.describe(row) });
  }
  return violations;
}
