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

/**
 * Where a read of the movements stopped: per currency, the largest posting id of the account's
 * balance in that currency that the read saw (holds and releases included). Ids of one balance are
 * drawn while its row lock is held (ledger/queries.ts addLedgerWrites), so they follow the order in
 * which its writes commit: a posting of that balance that was not visible to the read has a larger
 * id. One id for the whole account would not do: writes to two different balances (a BTC deposit,
 * an ETH trade) take no common lock and may commit out of id order.
 */
export type MovementCursor = Readonly<Record<string, string>>;

export type MovementPage = { movements: AccountMovement[]; cursor: MovementCursor };

type MovementRow = {
  entry_id: string;
  kind: string;
  reference: string;
  currency: string;
  amount: string;
  moved: boolean;
  last_posting_id: string;
  created_at_ms: number | string;
};

const CURRENCY_PATTERN = /^[A-Z0-9]{1,20}$/;
const POSTING_ID_PATTERN = /^(0|[1-9][0-9]{0,18})$/;

/**
 * Every change of the account's spot holdings, per entry and currency, in the ledger's order
 * (entry id): all of them, or (with `after`) only those whose postings the earlier read that gave
 * the cursor did not see. Holds and releases move money between available and locked and sum to
 * zero, so they are left out of the movements, as in GET /v1/wallet/transactions (they still move
 * the cursor). The futures wallet is a ledger owner of its own and is not read. One statement, so
 * the movements and the cursor come from one snapshot. The time comes as epoch milliseconds (a
 * number, not a Date the driver would parse for each of a long history's rows).
 */
export async function accountMovements(
  q: Queryable,
  accountId: string,
  after: MovementCursor = {},
): Promise<MovementPage> {
  const currencies = Object.keys(after);
  const ids = currencies.map((currency) => after[currency]!);
  for (const [index, currency] of currencies.entries()) {
    if (!CURRENCY_PATTERN.test(currency) || !POSTING_ID_PATTERN.test(ids[index]!)) {
      throw new Error(`movement cursor out of shape: ${currency}=${ids[index]}`);
    }
  }
  const result = await q.query<MovementRow>(
    `SELECT e.id::text AS entry_id, e.kind, e.reference, la.currency, sum(p.amount)::text AS amount,
       sum(p.amount) <> 0 AS moved, max(p.id)::text AS last_posting_id,
       floor(extract(epoch FROM e.created_at) * 1000)::float8 AS created_at_ms
     FROM ledger_accounts la
     LEFT JOIN unnest($2::text[], $3::bigint[]) AS c (currency, after) ON c.currency = la.currency
     JOIN ledger_postings p ON p.ledger_account_id = la.id AND p.id > coalesce(c.after, 0)
     JOIN ledger_entries e ON e.id = p.entry_id
     WHERE la.owner_kind = 'user' AND la.account_id = $1
     GROUP BY e.id, e.kind, e.reference, la.currency, e.created_at
     ORDER BY e.id, la.currency`,
    [accountId, currencies, ids],
  );
  const cursor: Record<string, string> = { ...after };
  const movements: AccountMovement[] = [];
  for (const row of result.rows) {
    const last = cursor[row.currency];
    if (last === undefined || BigInt(row.last_posting_id) > BigInt(last)) cursor[row.currency] = row.last_posting_id;
    if (!row.moved) continue;
    movements.push({
      entryId: row.entry_id,
      kind: row.kind,
      reference: row.reference,
      currency: row.currency,
      amount: String(row.amount),
      createdAtMs: Number(row.created_at_ms),
    });
  }
  return { movements, cursor };
}
