import type { Queryable } from '../../db/database.ts';

export type LedgerViolationKind =
  | 'entry_unbalanced'
  | 'currency_unbalanced'
  | 'balance_mismatch'
  | 'negative_balance'
  | 'reserve_mismatch';

export type LedgerViolation = { kind: LedgerViolationKind; details: string };

/** Rows reported per check: enough to see the pattern of a bug without drowning in it. */
export const MAX_VIOLATIONS_PER_CHECK = 50;

type Check = { kind: LedgerViolationKind; sql: string; describe: (row: Record<string, string>) => string };

const LIMIT = `LIMIT ${MAX_VIOLATIONS_PER_CHECK}`;

const owner = (alias: string) =>
  `CASE ${alias}.owner_kind WHEN 'user' THEN 'user ' || ${alias}.account_id::text WHEN 'futures' THEN 'futures ' || ${alias}.account_id::text ELSE 'system ' || ${alias}.system_name END`;

const CHECKS: readonly Check[] = [
  {
    // (a) Every entry balances in every currency it touches.
    kind: 'entry_unbalanced',
    sql: `SELECT p.entry_id::text AS entry_id, e.kind, e.reference, la.currency, trim_scale(sum(p.amount))::text AS total
      FROM ledger_postings p
      JOIN ledger_accounts la ON la.id = p.ledger_account_id
      JOIN ledger_entries e ON e.id = p.entry_id
      GROUP BY p.entry_id, e.kind, e.reference, la.currency
      HAVING sum(p.amount) <> 0
      ORDER BY p.entry_id ${LIMIT}`,
    describe: (row) =>
      `entry ${row.entry_id} (${row.kind} ${row.reference}): ${row.currency} postings sum to ${row.total}, not 0`,
  },
  {
    // (b) Money is neither created nor destroyed: over all postings every currency sums to zero.
    kind: 'currency_unbalanced',
    sql: `SELECT la.currency, trim_scale(sum(p.amount))::text AS total
      FROM ledger_postings p JOIN ledger_accounts la ON la.id = p.ledger_account_id
      GROUP BY la.currency
      HAVING sum(p.amount) <> 0
      ORDER BY la.currency ${LIMIT}`,
    describe: (row) => `all ${row.currency} postings sum to ${row.total}, not 0`,
  },
  {
    // (c) Balances are derived: each bucket equals the sum of its postings.
    kind: 'balance_mismatch',
    sql: `SELECT la.id::text AS id, ${owner('la')} AS owner, la.currency,
        trim_scale(la.available)::text AS available, trim_scale(la.locked)::text AS locked,
        trim_scale(coalesce(s.available, 0))::text AS posted_available,
        trim_scale(coalesce(s.locked, 0))::text AS posted_locked
      FROM ledger_accounts la
      LEFT JOIN (
        SELECT ledger_account_id,
          sum(amount) FILTER (WHERE bucket = 'available') AS available,
          sum(amount) FILTER (WHERE bucket = 'locked') AS locked
        FROM ledger_postings GROUP BY ledger_account_id
      ) s ON s.ledger_account_id = la.id
      WHERE la.available <> coalesce(s.available, 0) OR la.locked <> coalesce(s.locked, 0)
      ORDER BY la.id ${LIMIT}`,
    describe: (row) =>
      `ledger account ${row.id} (${row.owner}, ${row.currency}): available ${row.available} and locked ${row.locked}, ` +
      `but its postings sum to available ${row.posted_available} and locked ${row.posted_locked}`,
  },
  {
    // (d) The CHECK constraints should make this impossible; this catches a dropped constraint.
    kind: 'negative_balance',
    sql: `SELECT la.id::text AS id, ${owner('la')} AS owner, la.currency,
        trim_scale(la.available)::text AS available, trim_scale(la.locked)::text AS locked,
        la.allow_negative::text AS allow_negative
      FROM ledger_accounts la
      WHERE ((NOT la.allow_negative OR la.owner_kind = 'user') AND la.available < 0) OR la.locked < 0
      ORDER BY la.id ${LIMIT}`,
    describe: (row) =>
      `ledger account ${row.id} (${row.owner}, ${row.currency}, allow_negative ${row.allow_negative}): ` +
      `available ${row.available}, locked ${row.locked}`,
  },
  {
    // (e) Nothing is locked without a reason (an open order, a pending withdrawal) and every
    // reason is backed by locked funds.
    kind: 'reserve_mismatch',
    sql: `SELECT coalesce(l.account_id, r.account_id)::text AS account_id, coalesce(l.currency, r.currency) AS currency,
        trim_scale(coalesce(l.locked, 0))::text AS locked, trim_scale(coalesce(r.amount, 0))::text AS reserved
      FROM (SELECT account_id, currency, locked FROM ledger_accounts WHERE owner_kind = 'user') l
      FULL JOIN (
        SELECT account_id, currency, sum(amount) AS amount FROM ledger_reserves GROUP BY account_id, currency
      ) r ON r.account_id = l.account_id AND r.currency = l.currency
      WHERE coalesce(l.locked, 0) <> coalesce(r.amount, 0)
      ORDER BY 1, 2 ${LIMIT}`,
    describe: (row) =>
      `user ${row.account_id} ${row.currency}: locked ${row.locked}, but the reserves add up to ${row.reserved}`,
  },
];

/**
 * Checks the ledger's invariants; an empty list means the books are sound. Each check is one
 * statement, so it sees one consistent snapshot even while the server writes. Reads every
 * posting: meant for tests, the ledger:check command and operators, not for a request path.
 */
export async function checkLedgerInvariants(db: Queryable): Promise<LedgerViolation[]> {
  const violations: LedgerViolation[] = [];
  for (const check of CHECKS) {
    const result = await db.query<Record<string, string>>(check.sql);
    for (const row of result.rows) violations.push({ kind: check.kind, details: check.describe(row) });
  }
  return violations;
}

/** Whether the ledger's tables exist (the migration has run on this database). */
export async function hasLedgerSchema(db: Queryable): Promise<boolean> {
  const result = await db.query<{ present: boolean }>(
    `SELECT to_regclass('ledger_postings') IS NOT NULL AND to_regclass('ledger_reserves') IS NOT NULL AS present`,
  );
  return result.rows[0]?.present === true;
}
