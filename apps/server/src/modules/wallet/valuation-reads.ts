import type { Queryable } from '../../db/database.ts';

/**
 * Bulk reads of the spot ledger for the portfolio's snapshots (docs/portfolio.md "Snapshots and
 * value over time"): a page of accounts valued in one statement, and the money that came in or went
 * out of a set of accounts over a window. The wallet reads the ledger's tables; the portfolio asks it.
 */

/** A USD price per currency, decimal text: what one run of the recorder values every account with. */
export type UsdPriceRow = { currency: string; price: string };

export type SpotValueRow = {
  accountId: string;
  /** Σ (available + locked) × price over the account's priced spot balances, exact decimal text. */
  spotValue: string;
  /** Whether any spot balance (priced or not) is not zero. */
  holds: boolean;
};

const FIRST_ACCOUNT_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The next `limit` accounts that have a spot ledger balance row, in account id order after
 * `afterAccountId` (keyset paging over the ledger's (account_id, currency) index), each valued in
 * SQL: its balances joined with the prices given (a currency without a price adds nothing).
 */
export async function spotValuesPage(
  q: Queryable,
  page: { afterAccountId: string | null; limit: number; prices: readonly UsdPriceRow[] },
): Promise<SpotValueRow[]> {
  const result = await q.query<{ account_id: string; spot_value: string; holds: boolean }>(
    `WITH page AS (
       SELECT account_id FROM ledger_accounts
       WHERE owner_kind = 'user' AND account_id > $1::uuid
       GROUP BY account_id ORDER BY account_id LIMIT $2
     ), prices AS (
       SELECT * FROM unnest($3::text[], $4::numeric[]) AS p (currency, price)
     )
     SELECT la.account_id::text AS account_id,
       coalesce(sum((la.available + la.locked) * p.price), 0)::text AS spot_value,
       bool_or(la.available <> 0 OR la.locked <> 0) AS holds
     FROM page
     JOIN ledger_accounts la ON la.account_id = page.account_id AND la.owner_kind = 'user'
     LEFT JOIN prices p ON p.currency = la.currency
     GROUP BY la.account_id ORDER BY la.account_id`,
    [
      page.afterAccountId ?? FIRST_ACCOUNT_ID,
      page.limit,
      page.prices.map((row) => row.currency),
      page.prices.map((row) => row.price),
    ],
  );
  return result.rows.map((row) => ({
    accountId: row.account_id,
    spotValue: String(row.spot_value),
    holds: row.holds === true,
  }));
}

/** The kinds of ledger entries that move money into or out of an account (not trades, conversions, fees, spot <-> futures). */
export const FLOW_ENTRY_KINDS = ['deposit', 'withdrawal', 'transfer'] as const;

export type AccountFlow = {
  accountId: string;
  currency: string;
  /** Signed decimal text: what came in (positive) or went out (negative), net of any fee the house took in the entry. */
  amount: string;
  createdAtMs: number;
};

/**
 * Per flow entry (deposit, withdrawal, transfer between users) and currency, what it moved into or
 * out of each of these accounts' spot balances with created_at in (fromMs, toMs]. A fee the house
 * took in the same entry (a withdrawal's) is not a flow: it is added back, so a withdrawal's flow
 * is what left for the outside. Reads through the partial index on the flow entries' created_at.
 */
export async function accountFlows(
  q: Queryable,
  accountIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<AccountFlow[]> {
  if (accountIds.length === 0 || toMs <= fromMs) return [];
  const result = await q.query<{ account_id: string; currency: string; amount: string; created_at: Date }>(
    `SELECT la.account_id::text AS account_id, la.currency, e.created_at,
       (sum(p.amount) + coalesce((
         SELECT sum(f.amount) FROM ledger_postings f
         JOIN ledger_accounts fa ON fa.id = f.ledger_account_id
         WHERE f.entry_id = e.id AND fa.owner_kind = 'system' AND fa.system_name = 'fees' AND fa.currency = la.currency
       ), 0))::text AS amount
     FROM ledger_entries e
     JOIN ledger_postings p ON p.entry_id = e.id
     JOIN ledger_accounts la ON la.id = p.ledger_account_id
     WHERE e.kind IN ('deposit', 'withdrawal', 'transfer') AND e.created_at > $2 AND e.created_at <= $3
       AND la.owner_kind = 'user' AND la.account_id = ANY($1::uuid[])
     GROUP BY e.id, e.created_at, la.account_id, la.currency
     HAVING sum(p.amount) <> 0
     ORDER BY e.id`,
    [accountIds, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
  );
  return result.rows.map((row) => ({
    accountId: row.account_id,
    currency: row.currency,
    amount: String(row.amount),
    createdAtMs: new Date(row.created_at).getTime(),
  }));
}
