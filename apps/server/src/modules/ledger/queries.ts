import type { Queryable } from '../../db/database.ts';
import { Statement } from '../../db/statement.ts';

/** A ledger account as the tables know it: who owns it and in which currency. */
export type LedgerAccountKey = {
  /** futures: a user's futures wallet (keyed like a user's spot account). */
  ownerKind: 'user' | 'system' | 'futures';
  /** Lower-case uuid for a user or a futures wallet, null for a system account. */
  accountId: string | null;
  /** Set for a system account, null for a user. */
  systemName: string | null;
  currency: string;
  /** Chosen once, when the row is created. */
  allowNegative: boolean;
};

export type LedgerAccountRow = {
  id: string;
  /**
   * False when this transaction created the row: it may still roll back, so its id must not be
   * shared with other transactions (through the cache) before it commits.
   */
  committed: boolean;
  owner_kind: 'user' | 'system' | 'futures';
  account_id: string | null;
  system_name: string | null;
  currency: string;
};

/** Constraints whose violation means "this balance may not go below zero". */
export const BALANCE_CHECK_CONSTRAINTS: ReadonlySet<string> = new Set([
  'ledger_accounts_available_check',
  'ledger_accounts_locked_check',
]);

const ledgerAccountColumns = (table: string) =>
  `${table}.id::text AS id, ${table}.owner_kind, ${table}.account_id::text AS account_id, ${table}.system_name, ${table}.currency`;

/** The four key columns of many ledger accounts, as parameters of a statement (one array each). */
function keyParams(stmt: Statement, prefix: string, keys: readonly LedgerAccountKey[]) {
  return {
    ownerKinds: stmt.param(
      `${prefix}.ownerKinds`,
      keys.map((key) => key.ownerKind),
      'text[]',
    ),
    accountIds: stmt.param(
      `${prefix}.accountIds`,
      keys.map((key) => key.accountId),
      'text[]',
    ),
    systemNames: stmt.param(
      `${prefix}.systemNames`,
      keys.map((key) => key.systemName),
      'text[]',
    ),
    currencies: stmt.param(
      `${prefix}.currencies`,
      keys.map((key) => key.currency),
      'text[]',
    ),
  };
}

function wantedAccounts(stmt: Statement, keys: readonly LedgerAccountKey[]): void {
  const k = keyParams(stmt, 'wanted', keys);
  const allowNegative = stmt.param(
    'wanted.allowNegative',
    keys.map((key) => key.allowNegative),
    'boolean[]',
  );
  stmt.cte(
    'wanted',
    `SELECT w.owner_kind, w.account_id::uuid AS account_id, w.system_name, w.currency, w.allow_negative, w.ordinal
    FROM unnest(${k.ownerKinds}, ${k.accountIds}, ${k.systemNames}, ${k.currencies}, ${allowNegative}) WITH ORDINALITY
      AS w (owner_kind, account_id, system_name, currency, allow_negative, ordinal)`,
  );
}

// A row whose xmin is this transaction's own id was created by this transaction, earlier, and is
// not committed yet (xmin is the 32-bit id; pg_current_xact_id carries the epoch above it). A row
// created in a savepoint has a subtransaction's id and passes for committed: the id check of the
// ledger statement covers that case.
const COMMITTED = `la.xmin::text IS DISTINCT FROM (pg_current_xact_id_if_assigned()::text::bigint % 4294967296)::text`;

// One arm per owner kind, so that each one can use its partial unique index.
const EXISTING_ACCOUNTS = `SELECT ${ledgerAccountColumns('la')}, ${COMMITTED} AS committed
  FROM ledger_accounts la JOIN wanted w
    ON w.owner_kind = 'user' AND la.owner_kind = 'user' AND la.account_id = w.account_id AND la.currency = w.currency
  UNION ALL
  SELECT ${ledgerAccountColumns('la')}, ${COMMITTED} AS committed
  FROM ledger_accounts la JOIN wanted w
    ON w.owner_kind = 'futures' AND la.owner_kind = 'futures' AND la.account_id = w.account_id AND la.currency = w.currency
  UNION ALL
  SELECT ${ledgerAccountColumns('la')}, ${COMMITTED} AS committed
  FROM ledger_accounts la JOIN wanted w
    ON w.owner_kind = 'system' AND la.owner_kind = 'system' AND la.system_name = w.system_name AND la.currency = w.currency`;

/**
 * Creates the missing ledger accounts and returns the rows of all the wanted ones, in one
 * statement. Rows are inserted in the order given (callers sort the keys), so two transactions
 * creating the same accounts wait for each other instead of deadlocking.
 *
 * A row that a concurrent transaction inserted and committed while this statement ran is neither
 * inserted (conflict) nor visible to this statement's snapshot: the caller looks it up again.
 */
export async function insertOrSelectLedgerAccounts(
  q: Queryable,
  keys: readonly LedgerAccountKey[],
): Promise<LedgerAccountRow[]> {
  const stmt = new Statement();
  wantedAccounts(stmt, keys);
  stmt.cte(
    'inserted',
    `INSERT INTO ledger_accounts (owner_kind, account_id, system_name, currency, allow_negative)
    SELECT owner_kind, account_id, system_name, currency, allow_negative FROM wanted ORDER BY ordinal
    ON CONFLICT DO NOTHING
    RETURNING ${ledgerAccountColumns('ledger_accounts')}, false AS committed`,
  );
  const { sql, params } = stmt.build(`SELECT * FROM inserted UNION ALL ${EXISTING_ACCOUNTS}`);
  return (await q.query<LedgerAccountRow>(sql, params)).rows;
}

export async function selectLedgerAccounts(
  q: Queryable,
  keys: readonly LedgerAccountKey[],
): Promise<LedgerAccountRow[]> {
  const stmt = new Statement();
  wantedAccounts(stmt, keys);
  const { sql, params } = stmt.build(EXISTING_ACCOUNTS);
  return (await q.query<LedgerAccountRow>(sql, params)).rows;
}

/** The net change of one ledger account in a batch, with the key its id must still belong to. */
export type AccountDelta = { id: string; key: LedgerAccountKey; availableDelta: string; lockedDelta: string };
export type EntryRow = { kind: string; reference: string; metadataJson: string | null };
/** entryOrdinal: 1-based position of the posting's entry in the batch. */
export type PostingRow = { entryOrdinal: number; ledgerAccountId: string; bucket: string; amount: string };

/** The condition every other write of a ledger statement waits on: the account ids checked out. */
export const LEDGER_VERIFIED = '(SELECT ok FROM verified)';

/**
 * Locks the touched ledger accounts in id order (so concurrent statements never deadlock) and
 * declares `verified` (one row: ok), true when every id still belongs to the expected owner and
 * currency. Everything the statement writes must wait on LEDGER_VERIFIED, so that a mismatch
 * writes nothing at all.
 */
export function addLedgerCheck(stmt: Statement, accounts: readonly AccountDelta[]): void {
  const ids = stmt.param(
    'ledger.accountIds',
    accounts.map((account) => account.id),
    'text[]',
  );
  const k = keyParams(
    stmt,
    'ledger.keys',
    accounts.map((account) => account.key),
  );
  const availableDeltas = stmt.param(
    'ledger.availableDeltas',
    accounts.map((a) => a.availableDelta),
    'text[]',
  );
  const lockedDeltas = stmt.param(
    'ledger.lockedDeltas',
    accounts.map((a) => a.lockedDelta),
    'text[]',
  );
  stmt.cte(
    'touched',
    `SELECT t.id::bigint AS id, t.owner_kind, t.account_id::uuid AS account_id, t.system_name, t.currency,
      t.available_delta::numeric AS available_delta, t.locked_delta::numeric AS locked_delta
    FROM unnest(${ids}, ${k.ownerKinds}, ${k.accountIds}, ${k.systemNames}, ${k.currencies}, ${availableDeltas}, ${lockedDeltas})
      AS t (id, owner_kind, account_id, system_name, currency, available_delta, locked_delta)`,
  );
  // The locking clause is applied after the sort, so the rows are locked in id order.
  stmt.cte(
    'locked_accounts',
    `SELECT la.id, la.owner_kind, la.account_id, la.system_name, la.currency
    FROM ledger_accounts la
    WHERE la.id IN (SELECT id FROM touched)
    ORDER BY la.id
    FOR UPDATE`,
    { materialized: true },
  );
  const expected = stmt.param('ledger.accountCount', accounts.length, 'int');
  stmt.cte(
    'verified',
    `SELECT count(*) = ${expected} AS ok
    FROM touched t
    JOIN locked_accounts la ON la.id = t.id AND la.owner_kind = t.owner_kind AND la.currency = t.currency
      AND la.account_id IS NOT DISTINCT FROM t.account_id AND la.system_name IS NOT DISTINCT FROM t.system_name`,
    { materialized: true },
  );
}

/**
 * The balance updates (returning the resulting user balances), entries and postings, after
 * addLedgerCheck; `gate` is a further condition they wait on (the business row they belong to was
 * written). Entry ids are drawn while the rows are locked, so they order the writes of a balance.
 */
export function addLedgerWrites(
  stmt: Statement,
  entries: readonly EntryRow[],
  postings: readonly PostingRow[],
  gate = 'true',
): void {
  const when = `${LEDGER_VERIFIED} AND ${gate}`;
  stmt.cte(
    'updated',
    `UPDATE ledger_accounts la
    SET available = la.available + t.available_delta, locked = la.locked + t.locked_delta
    FROM touched t
    WHERE la.id = t.id AND (t.available_delta <> 0 OR t.locked_delta <> 0) AND ${when}
    RETURNING la.owner_kind, la.account_id::text AS account_id, la.currency,
      trim_scale(la.available)::text AS available, trim_scale(la.locked)::text AS locked`,
  );
  const kinds = stmt.param(
    'ledger.entryKinds',
    entries.map((entry) => entry.kind),
    'text[]',
  );
  const references = stmt.param(
    'ledger.entryReferences',
    entries.map((entry) => entry.reference),
    'text[]',
  );
  const metadata = stmt.param(
    'ledger.entryMetadata',
    entries.map((entry) => entry.metadataJson),
    'text[]',
  );
  // Entry ids are drawn first so that postings can name their entry by its place in the batch.
  stmt.cte(
    'new_entries',
    `SELECT nextval('ledger_entries_id_seq') AS id, e.ordinal, e.kind, e.reference, e.metadata
    FROM unnest(${kinds}, ${references}, ${metadata}) WITH ORDINALITY AS e (kind, reference, metadata, ordinal)
    WHERE ${when}`,
    { materialized: true },
  );
  stmt.cte(
    'inserted_entries',
    `INSERT INTO ledger_entries (id, kind, reference, metadata)
    SELECT id, kind, reference, metadata::jsonb FROM new_entries ORDER BY ordinal`,
  );
  const ordinals = stmt.param(
    'ledger.postingEntries',
    postings.map((posting) => String(posting.entryOrdinal)),
    'text[]',
  );
  const accounts = stmt.param(
    'ledger.postingAccounts',
    postings.map((posting) => posting.ledgerAccountId),
    'text[]',
  );
  const buckets = stmt.param(
    'ledger.postingBuckets',
    postings.map((posting) => posting.bucket),
    'text[]',
  );
  const amounts = stmt.param(
    'ledger.postingAmounts',
    postings.map((posting) => posting.amount),
    'text[]',
  );
  stmt.cte(
    'inserted_postings',
    `INSERT INTO ledger_postings (entry_id, ledger_account_id, bucket, amount)
    SELECT e.id, p.ledger_account_id::bigint, p.bucket, p.amount::numeric
    FROM unnest(${ordinals}, ${accounts}, ${buckets}, ${amounts}) AS p (entry_ordinal, ledger_account_id, bucket, amount)
    JOIN new_entries e ON e.ordinal = p.entry_ordinal::bigint`,
  );
}

/** What a ledger statement answers: one row per updated user balance (one row with nulls when none). */
export type LedgerResultRow = {
  ok: boolean;
  sequence: string | null;
  account_id: string | null;
  currency: string | null;
  available: string | null;
  locked: string | null;
};

/** The final SELECT of a ledger statement, with the caller's own scalar columns (`EXISTS (...) AS x`). */
export function ledgerResultSelect(extraColumns: readonly string[] = []): string {
  const extra = extraColumns.map((column) => `, ${column}`).join('');
  return `SELECT v.ok, (SELECT max(id) FROM new_entries)::text AS sequence, u.account_id, u.currency, u.available,
    u.locked${extra}
  FROM verified v LEFT JOIN updated u ON u.owner_kind = 'user'`;
}

export type BalanceRecord = { currency: string; available: string; locked: string };

// trim_scale gives the canonical text: no trailing zeros, '0' for zero.
const BALANCE_COLUMNS = 'currency, trim_scale(available)::text AS available, trim_scale(locked)::text AS locked';

export async function selectUserBalances(q: Queryable, accountId: string): Promise<BalanceRecord[]> {
  const result = await q.query<BalanceRecord>(
    `SELECT ${BALANCE_COLUMNS} FROM ledger_accounts
     WHERE owner_kind = 'user' AND account_id = $1 ORDER BY currency`,
    [accountId],
  );
  return result.rows;
}

export async function selectUserBalance(
  q: Queryable,
  accountId: string,
  currency: string,
): Promise<BalanceRecord | undefined> {
  const result = await q.query<BalanceRecord>(
    `SELECT ${BALANCE_COLUMNS} FROM ledger_accounts
     WHERE owner_kind = 'user' AND account_id = $1 AND currency = $2`,
    [accountId, currency],
  );
  return result.rows[0];
}

/** A user's futures wallet balances (owner kind futures). */
export async function selectFuturesBalances(q: Queryable, accountId: string): Promise<BalanceRecord[]> {
  const result = await q.query<BalanceRecord>(
    `SELECT ${BALANCE_COLUMNS} FROM ledger_accounts
     WHERE owner_kind = 'futures' AND account_id = $1 ORDER BY currency`,
    [accountId],
  );
  return result.rows;
}

export async function selectSystemBalance(
  q: Queryable,
  systemName: string,
  currency: string,
): Promise<BalanceRecord | undefined> {
  const result = await q.query<BalanceRecord>(
    `SELECT ${BALANCE_COLUMNS} FROM ledger_accounts
     WHERE owner_kind = 'system' AND system_name = $1 AND currency = $2`,
    [systemName, currency],
  );
  return result.rows[0];
}
