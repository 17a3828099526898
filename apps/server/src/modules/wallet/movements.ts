import type { Queryable } from '../../db/database.ts';

/**
 * One ledger entry's net change of one of the account's spot balances (available + locked):
 * what the portfolio's lots are built from (docs/portfolio.md "Lots from the ledger").
 */
export type AccountMovement = {
  /** The ledger entry's id: the ledger's own order of events. */
  entryId: string;
  /** The entry's kind: trade, conversion, deposit, withdrawal, transfer, ... */
  kind: string;
  reference: string;
  currency: string;
  /** Signed decimal text: what the entry added to (or took from) the holding. */
  amount: string;
  createdAtMs: number;
};

type MovementRow = {
  entry_id: string;
  kind: string;
  reference: string;
  currency: string;
  amount: string;
  created_at: Date;
};

/**
 * Every change of the account's spot holdings, per entry and currency, in the ledger's order
 * (entry id). Holds and releases move money between available and locked and sum to zero, so they
 * are left out, as in GET /v1/wallet/transactions. The futures wallet is a ledger owner of its own
 * and is not read.
 */
export async function accountMovements(q: Queryable, accountId: string): Promise<AccountMovement[]> {
  const result = await q.query<MovementRow>(
    `SELECT e.id::text AS entry_id, e.kind, e.reference, la.currency, sum(p.amount)::text AS amount, e.created_at
     FROM ledger_accounts la
     JOIN ledger_postings p ON p.ledger_account_id = la.id
     JOIN ledger_entries e ON e.id = p.entry_id
     WHERE la.owner_kind = 'user' AND la.account_id = $1
     GROUP BY e.id, e.kind, e.reference, la.currency, e.created_at
     HAVING sum(p.amount) <> 0
     ORDER BY e.id, la.currency`,
    [accountId],
  );
  return result.rows.map((row) => ({
    entryId: row.entry_id,
    kind: row.kind,
    reference: row.reference,
    currency: row.currency,
    amount: String(row.amount),
    createdAtMs: new Date(row.created_at).getTime(),
  }));
}
