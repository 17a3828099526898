import type { Queryable } from '../../db/database.ts';

/** A ledger account as the tables know it: who owns it and in which currency. */
export type LedgerAccountKey = {
  ownerKind: 'user' | 'system';
  /** Lower-case uuid for a user, null for a system account. */
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
  owner_kind: 'user' | 'system';
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

function keyArrays(keys: readonly LedgerAccountKey[]) {
  return [
    keys.map((key) => key.ownerKind),
    keys.map((key) => key.accountId),
    keys.map((key) => key.systemName),
    keys.map((key) => key.currency),
  ];
}

const WANTED_ACCOUNTS = `wanted AS (
  SELECT w.owner_kind, w.account_id::uuid AS account_id, w.system_name, w.currency, w.allow_negative, w.ordinal
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[]) WITH ORDINALITY
    AS w (owner_kind, account_id, system_name, currency, allow_negative, ordinal)
)`;

// A row whose xmin is this transaction's own id was created by this transaction, earlier, and is
// not committed yet (xmin is the 32-bit id; pg_current_xact_id carries the epoch above it). A row
// created in a savepoint has a subtransaction's id and passes for committed: the id check of
// applyBatch covers that case.
const COMMITTED = `la.xmin::text IS DISTINCT FROM (pg_current_xact_id_if_assigned()::text::bigint % 4294967296)::text`;

// Two arms so that each one can use its partial unique index.
const EXISTING_ACCOUNTS = `SELECT ${ledgerAccountColumns('la')}, ${COMMITTED} AS committed
  FROM ledger_accounts la JOIN wanted w
    ON w.owner_kind = 'user' AND la.owner_kind = 'user' AND la.account_id = w.account_id AND la.currency = w.currency
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
  const result = await q.query<LedgerAccountRow>(
    `WITH ${WANTED_ACCOUNTS},
    inserted AS (
      INSERT INTO ledger_accounts (owner_kind, account_id, system_name, currency, allow_negative)
      SELECT owner_kind, account_id, system_name, currency, allow_negative FROM wanted ORDER BY ordinal
      ON CONFLICT DO NOTHING
      RETURNING ${ledgerAccountColumns('ledger_accounts')}, false AS committed
    )
    SELECT * FROM inserted
    UNION ALL
    ${EXISTING_ACCOUNTS}`,
    [...keyArrays(keys), keys.map((key) => key.allowNegative)],
  );
  return result.rows;
}

export async function selectLedgerAccounts(
  q: Queryable,
  keys: readonly LedgerAccountKey[],
): Promise<LedgerAccountRow[]> {
  const result = await q.query<LedgerAccountRow>(`WITH ${WANTED_ACCOUNTS} ${EXISTING_ACCOUNTS}`, [
    ...keyArrays(keys),
    keys.map((key) => key.allowNegative),
  ]);
  return result.rows;
}

/** The net change of one ledger account in a batch, with the key its id must still belong to. */
export type AccountDelta = { id: string; key: LedgerAccountKey; availableDelta: string; lockedDelta: string };
export type EntryRow = { kind: string; reference: string; metadataJson: string | null };
/** entryOrdinal: 1-based position of the posting's entry in the batch. */
export type PostingRow = { entryOrdinal: number; ledgerAccountId: string; bucket: string; amount: string };

/** A statement part: common table expressions, and the parameters they number from an offset. */
export interface StatementPart {
  /** CTE definitions (`name AS (...)`, comma-separated, no WITH), numbering parameters after the offset. */
  ctes: string;
  params: unknown[];
}

/** The ledger part in two halves, for a statement whose own rows sit between the check and the writes. */
export interface LedgerStatementPart extends StatementPart {
  /** Locks the accounts and defines `verified`. */
  checkCtes: string;
  /** The balance updates, entries and postings (after checkCtes). */
  writeCtes: string;
}

/**
 * The CTEs that apply one ledger batch (see applyBatch), numbering their parameters from
 * `offset + 1`. They define `verified` (one row: ok), which every other write of a combined
 * statement should also wait on, so that a mismatch writes nothing at all.
 */
export function applyBatchPart(
  accounts: readonly AccountDelta[],
  entries: readonly EntryRow[],
  postings: readonly PostingRow[],
  offset: number,
  /** A further SQL condition the ledger writes wait on (the business row they belong to was written). */
  writeGate = 'true',
): LedgerStatementPart {
  const p = (n: number) => `$${n + offset}`;
  const checkCtes = `
    touched AS (
      SELECT t.id::bigint AS id, t.owner_kind, t.account_id::uuid AS account_id, t.system_name, t.currency,
        t.available_delta::numeric AS available_delta, t.locked_delta::numeric AS locked_delta
      FROM unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::text[])
        AS t (id, owner_kind, account_id, system_name, currency, available_delta, locked_delta)
    ),
    -- The locking clause is applied after the sort, so the rows are locked in id order.
    locked_accounts AS MATERIALIZED (
      SELECT la.id, la.owner_kind, la.account_id, la.system_name, la.currency
      FROM ledger_accounts la
      WHERE la.id IN (SELECT id FROM touched)
      ORDER BY la.id
      FOR UPDATE
    ),
    verified AS MATERIALIZED (
      SELECT count(*) = ${p(15)}::int AS ok
      FROM touched t
      JOIN locked_accounts la ON la.id = t.id AND la.owner_kind = t.owner_kind AND la.currency = t.currency
        AND la.account_id IS NOT DISTINCT FROM t.account_id AND la.system_name IS NOT DISTINCT FROM t.system_name
    )`;
  const writeCtes = `
    updated AS (
      UPDATE ledger_accounts la
      SET available = la.available + t.available_delta, locked = la.locked + t.locked_delta
      FROM touched t
      WHERE la.id = t.id AND (t.available_delta <> 0 OR t.locked_delta <> 0) AND (SELECT ok FROM verified) AND ${writeGate}
    ),
    -- Entry ids are drawn first so that postings can name their entry by its place in the batch.
    new_entries AS MATERIALIZED (
      SELECT nextval('ledger_entries_id_seq') AS id, e.ordinal, e.kind, e.reference, e.metadata
      FROM unnest(${p(8)}::text[], ${p(9)}::text[], ${p(10)}::text[]) WITH ORDINALITY AS e (kind, reference, metadata, ordinal)
      WHERE (SELECT ok FROM verified) AND ${writeGate}
    ),
    inserted_entries AS (
      INSERT INTO ledger_entries (id, kind, reference, metadata)
      SELECT id, kind, reference, metadata::jsonb FROM new_entries ORDER BY ordinal
    ),
    inserted_postings AS (
      INSERT INTO ledger_postings (entry_id, ledger_account_id, bucket, amount)
      SELECT e.id, p.ledger_account_id::bigint, p.bucket, p.amount::numeric
      FROM unnest(${p(11)}::text[], ${p(12)}::text[], ${p(13)}::text[], ${p(14)}::text[]) AS p (entry_ordinal, ledger_account_id, bucket, amount)
      JOIN new_entries e ON e.ordinal = p.entry_ordinal::bigint
    )`;
  return {
    ctes: `${checkCtes},${writeCtes}`,
    checkCtes,
    writeCtes,
    params: [
      accounts.map((account) => account.id),
      ...keyArrays(accounts.map((account) => account.key)),
      accounts.map((account) => account.availableDelta),
      accounts.map((account) => account.lockedDelta),
      entries.map((entry) => entry.kind),
      entries.map((entry) => entry.reference),
      entries.map((entry) => entry.metadataJson),
      postings.map((posting) => String(posting.entryOrdinal)),
      postings.map((posting) => posting.ledgerAccountId),
      postings.map((posting) => posting.bucket),
      postings.map((posting) => posting.amount),
      accounts.length,
    ],
  };
}

/**
 * Applies one batch in one statement: locks the touched ledger accounts in id order (so
 * concurrent batches never deadlock), checks that each id still belongs to the expected owner and
 * currency, applies the net deltas, and writes the entries and their postings.
 *
 * Returns false, having written nothing, when an id no longer matches (a cached id of a row whose
 * creating transaction rolled back, or of another database): the caller resolves the ids again.
 * A balance going below where its CHECK allows fails the whole statement with SQLSTATE 23514.
 */
export async function applyBatch(
  q: Queryable,
  accounts: readonly AccountDelta[],
  entries: readonly EntryRow[],
  postings: readonly PostingRow[],
): Promise<boolean> {
  const part = applyBatchPart(accounts, entries, postings, 0);
  const result = await q.query<{ ok: boolean }>(`WITH ${part.ctes}\nSELECT ok FROM verified`, part.params);
  return result.rows[0]?.ok === true;
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
