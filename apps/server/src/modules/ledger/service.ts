import {
  type Amount,
  add,
  formatDecimal,
  isZero,
  negate,
  parseDecimal,
  sign,
  stripTrailingZeros,
} from '@platform/money';
import { type Queryable, sqlState } from '../../db/database.ts';
import { Statement } from '../../db/statement.ts';
import { AppError } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { type BalanceChange, type BalanceWriter, type Ledger, ledgerFor } from './ledger.ts';
import {
  type AccountDelta,
  addLedgerCheck,
  addLedgerWrites,
  BALANCE_CHECK_CONSTRAINTS,
  type EntryRow,
  insertOrSelectLedgerAccounts,
  LEDGER_VERIFIED,
  type LedgerAccountKey,
  type LedgerAccountRow,
  type LedgerResultRow,
  ledgerResultSelect,
  type PostingRow,
  selectFuturesBalances,
  selectLedgerAccounts,
  selectSystemBalance,
  selectUserBalance,
  selectUserBalances,
} from './queries.ts';

export { Statement } from '../../db/statement.ts';
export { type BalanceChange, type BalancesChanged, type BalancesListener, ledgerOf } from './ledger.ts';

export type Bucket = 'available' | 'locked';
export type SystemAccountName = 'fees' | 'custody' | 'market_making' | 'conversion' | (string & {});
/** futures: the user's futures wallet (perpetuals' collateral), apart from the spot balances. */
export type LedgerOwner =
  | { kind: 'user'; accountId: string }
  | { kind: 'futures'; accountId: string }
  | { kind: 'system'; name: SystemAccountName };
/** amount: a signed exact decimal string ('-0.5', '12.000000000000000001'); zero amounts are skipped. */
export interface PostingInput {
  owner: LedgerOwner;
  currency: string;
  bucket: Bucket;
  amount: string;
}
export interface EntryInput {
  kind: string;
  reference: string;
  postings: PostingInput[];
  metadata?: Record<string, unknown>;
}
/** Amounts in canonical form: no trailing zeros after the point, no point for whole numbers, '0' for zero. */
export interface BalanceRow {
  currency: string;
  available: string;
  locked: string;
}

/**
 * System accounts that stand for money outside the exchange's books may go below zero: custody
 * is the mirror of every deposit (its negative balance is what users hold), market_making is the
 * house's own trading capital. Every other system account (fees, conversion, ...) must be funded
 * before it pays out, like a user.
 */
export const SYSTEM_ACCOUNTS_ALLOWED_NEGATIVE: ReadonlySet<string> = new Set([
  'custody',
  'market_making',
  'futures_clearing',
]);

/**
 * Limits of one ledger statement (postEntries or ledgerStatement): a fill writes a handful of postings, a batch of fills a few
 * thousand. Far beyond that is a runaway loop, better stopped than sent as one giant statement.
 */
export const MAX_POSTINGS_PER_CALL = 50_000;
/** Amounts are NUMERIC(38,18)-sized: 20 digits before the point and 18 after. */
const AMOUNT_PARSE_OPTIONS = { allowNegative: true, maxScale: 18, maxIntegerDigits: 20 } as const;
// The same pattern as the ledger_accounts CHECK (an upper-case symbol of at most 20 characters).
const CURRENCY_PATTERN = /^[A-Z0-9]{1,20}$/;
// The same pattern as the ledger_accounts CHECK (a snake_case name of at most 63 characters).
const SYSTEM_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An entry's kind and reference name a business event (a uuid, `BTC_USD:123`): 200 characters is far above any. */
const MAX_TEXT_LENGTH = 200;

/**
 * Writes balanced entries and applies them to the balances, all inside the caller's transaction.
 *
 * Per entry and currency the postings must sum to exactly zero; anything else (or a malformed
 * amount, currency or owner) is a bug in the caller and throws a plain Error before any write.
 * A balance that may not go negative and would throws AppError('INSUFFICIENT_BALANCE'); the
 * statement has failed, so the caller must let the error roll its transaction back. Missing
 * ledger accounts are created on the way. Entries whose postings are all zero are not written.
 */
export async function postEntries(
  tx: Queryable,
  entries: readonly EntryInput[],
  options: { notify?: boolean } = {},
): Promise<void> {
  const batch = prepareBatch(entries);
  if (batch.entries.length === 0) return;
  await runLedgerStatement(
    tx,
    batch,
    (_stmt, ledger) => {
      ledger.check();
      ledger.write();
      return ledger.select();
    },
    options,
  );
}

/** available -> locked for a user (one entry with two postings). amount must be positive. */
export async function hold(
  tx: Queryable,
  accountId: string,
  currency: string,
  amount: string,
  kind: string,
  reference: string,
): Promise<void> {
  await moveBetweenBuckets(tx, accountId, currency, amount, kind, reference, 'available', 'locked');
}

/** locked -> available for a user. amount must be positive. */
export async function release(
  tx: Queryable,
  accountId: string,
  currency: string,
  amount: string,
  kind: string,
  reference: string,
): Promise<void> {
  await moveBetweenBuckets(tx, accountId, currency, amount, kind, reference, 'locked', 'available');
}

/** Every currency the account has ever held, by currency, zero balances included. */
export async function balancesOf(db: Queryable, accountId: string): Promise<BalanceRow[]> {
  return selectUserBalances(db, userAccountId(accountId));
}

/** The account's futures wallet (owner kind futures), by currency; empty when it never held one. */
export async function futuresBalancesOf(db: Queryable, accountId: string): Promise<BalanceRow[]> {
  return selectFuturesBalances(db, userAccountId(accountId));
}

/** Zeros when the account never held the currency. */
export async function balanceOf(db: Queryable, accountId: string, currency: string): Promise<BalanceRow> {
  checkCurrency(currency);
  return (await selectUserBalance(db, userAccountId(accountId), currency)) ?? zeroBalance(currency);
}

/** Zeros when the system account does not exist yet. */
export async function systemBalance(db: Queryable, name: SystemAccountName, currency: string): Promise<BalanceRow> {
  checkCurrency(currency);
  return (await selectSystemBalance(db, systemName(name), currency)) ?? zeroBalance(currency);
}

async function moveBetweenBuckets(
  tx: Queryable,
  accountId: string,
  currency: string,
  amount: string,
  kind: string,
  reference: string,
  from: Bucket,
  to: Bucket,
): Promise<void> {
  const value = parseAmount(amount);
  if (sign(value) <= 0) throw new Error(`ledger: ${kind} of ${amount} ${currency}: the amount must be positive`);
  const owner: LedgerOwner = { kind: 'user', accountId };
  await postEntries(tx, [
    {
      kind,
      reference,
      postings: [
        { owner, currency, bucket: from, amount: formatDecimal(negate(value)) },
        { owner, currency, bucket: to, amount: formatDecimal(value) },
      ],
    },
  ]);
}

type PreparedBatch = {
  /** Net change per ledger account, by cache key. */
  deltas: Map<string, { key: LedgerAccountKey; available: Amount; locked: Amount }>;
  entries: EntryRow[];
  postings: { entryOrdinal: number; cacheKey: string; bucket: Bucket; amount: string }[];
};

/** Validates the whole call before anything is written, and nets the postings per account. */
function prepareBatch(entries: readonly EntryInput[]): PreparedBatch {
  const batch: PreparedBatch = { deltas: new Map(), entries: [], postings: [] };
  const postingCount = entries.reduce((count, entry) => count + entry.postings.length, 0);
  if (postingCount > MAX_POSTINGS_PER_CALL) {
    throw new Error(`ledger: ${postingCount} postings in one call, more than ${MAX_POSTINGS_PER_CALL}`);
  }
  for (const entry of entries) {
    checkText('kind', entry.kind);
    checkText('reference', entry.reference);
    const totals = new Map<string, Amount>();
    const entryOrdinal = batch.entries.length + 1;
    let written = 0;
    for (const posting of entry.postings) {
      const value = parseAmount(posting.amount);
      const key = ledgerAccountKey(posting.owner, posting.currency);
      checkBucket(posting.bucket);
      if (isZero(value)) continue;
      totals.set(posting.currency, add(totals.get(posting.currency) ?? ZERO, value));
      const keyText = cacheKey(key);
      const delta = batch.deltas.get(keyText) ?? { key, available: ZERO, locked: ZERO };
      delta[posting.bucket] = add(delta[posting.bucket], value);
      batch.deltas.set(keyText, delta);
      batch.postings.push({ entryOrdinal, cacheKey: keyText, bucket: posting.bucket, amount: formatDecimal(value) });
      written++;
    }
    for (const [currency, total] of totals) {
      invariant(
        isZero(total),
        `ledger: entry ${entry.kind} ${entry.reference} does not balance in ${currency} (off by ${formatDecimal(total)})`,
      );
    }
    if (written > 0) {
      batch.entries.push({
        kind: entry.kind,
        reference: entry.reference,
        metadataJson: entry.metadata === undefined ? null : JSON.stringify(entry.metadata),
      });
    }
  }
  return batch;
}

function batchRows(
  batch: PreparedBatch,
  ids: Map<string, string>,
): { accounts: AccountDelta[]; postings: PostingRow[] } {
  const accounts: AccountDelta[] = [...batch.deltas].map(([keyText, delta]) => ({
    id: idOf(ids, keyText),
    key: delta.key,
    availableDelta: formatDecimal(delta.available),
    lockedDelta: formatDecimal(delta.locked),
  }));
  accounts.sort((a, b) => compareIds(a.id, b.id));
  const postings: PostingRow[] = batch.postings.map((posting) => ({
    entryOrdinal: posting.entryOrdinal,
    ledgerAccountId: idOf(ids, posting.cacheKey),
    bucket: posting.bucket,
    amount: posting.amount,
  }));
  return { accounts, postings };
}

/** AppError('INSUFFICIENT_BALANCE') for a statement refused by a balance's CHECK; anything else as it is. */
export function ledgerError(error: unknown): unknown {
  if (sqlState(error) === '23514' && BALANCE_CHECK_CONSTRAINTS.has(constraintOf(error))) {
    return new AppError('INSUFFICIENT_BALANCE');
  }
  return error;
}

/** The ledger's side of a statement that also writes its caller's rows (see ledgerStatement). */
export interface LedgerWrite {
  /**
   * Locks the touched ledger accounts and checks their ids; returns the condition every other
   * write of the statement must wait on (so that a failed check writes nothing). Comes first.
   */
  check(): string;
  /** The balance updates, entries and postings; `gate`: a further condition (the caller's row was written). */
  write(gate?: string): void;
  /** The statement's final SELECT, with the caller's own scalar columns (`EXISTS (...) AS inserted`). */
  select(extraColumns?: readonly string[]): string;
}

export interface LedgerStatementOptions {
  /** Who writes: 'trading' for the trading writer, whose funds book already counted its movements. */
  writer?: BalanceWriter;
  /** false: announce nothing (tests that move a balance behind the funds book's back). */
  notify?: boolean;
  /** Keep the statement prepared on its connection (a hot statement of a fixed shape). */
  prepare?: boolean;
  /**
   * For a statement that commits on its own: receives the announcement to send when the caller
   * chooses (in commit order). Without it the ledger announces when the transaction commits.
   */
  schedule?: (announce: () => void) => void;
}

/**
 * A statement is tried with the cached account ids and, when one of them no longer fits (a row
 * created in a savepoint that rolled back), once more with ids resolved afresh: fresh ids that do
 * not fit either are a bug.
 */
const LEDGER_STATEMENT_ATTEMPTS = 2;

/**
 * The one way to write ledger entries together with other rows in one statement. compose adds the
 * caller's CTEs to the statement around the ledger's (ledger.check() first, then the caller's
 * writes waiting on the gate it returns, then ledger.write()) and returns the final SELECT
 * (ledger.select()). The ledger resolves the account ids, runs the statement, builds it again once
 * if an id no longer fit (compose runs again too), turns a refused balance into
 * AppError('INSUFFICIENT_BALANCE'), and announces the resulting balances once committed. Answers
 * the statement's first row (the caller's extra columns are on every row).
 */
export async function ledgerStatement<Extra extends Record<string, unknown> = Record<string, never>>(
  q: Queryable,
  entries: readonly EntryInput[],
  compose: (stmt: Statement, ledger: LedgerWrite) => string,
  options: LedgerStatementOptions = {},
): Promise<LedgerResultRow & Extra> {
  return runLedgerStatement<Extra>(q, prepareBatch(entries), compose, options);
}

async function runLedgerStatement<Extra extends Record<string, unknown>>(
  q: Queryable,
  batch: PreparedBatch,
  compose: (stmt: Statement, ledger: LedgerWrite) => string,
  options: LedgerStatementOptions,
): Promise<LedgerResultRow & Extra> {
  const ledger = ledgerFor(q);
  const keys = [...batch.deltas.values()].map((delta) => delta.key);
  for (let attempt = 1; ; attempt++) {
    const { accounts, postings } = batchRows(batch, await resolveLedgerAccountIds(ledger, q, keys));
    const stmt = new Statement();
    const part = ledgerWrite(stmt, accounts, batch.entries, postings);
    const { sql, params } = stmt.build(compose(stmt, part));
    invariant(part.complete(), 'ledger statement: compose must call check(), write() and select()');
    let rows: (LedgerResultRow & Extra)[];
    try {
      rows = (await q.query<LedgerResultRow & Extra>(sql, params, options.prepare ? { prepare: true } : undefined))
        .rows;
    } catch (error) {
      throw ledgerError(error);
    }
    const first = rows[0];
    invariant(first !== undefined, 'ledger statement: the final SELECT returned no row');
    if (first.ok) {
      if (options.notify !== false) announce(ledger, q, options, balanceChanges(batch, rows));
      return first;
    }
    for (const key of keys) ledger.accountIds.delete(cacheKey(key));
    invariant(
      attempt < LEDGER_STATEMENT_ATTEMPTS,
      'ledger: freshly resolved ledger account ids did not match their owners',
    );
  }
}

function announce(ledger: Ledger, q: Queryable, options: LedgerStatementOptions, changes: BalanceChange[]): void {
  const writer = options.writer ?? 'ledger';
  if (options.schedule) options.schedule(() => ledger.announce(writer, changes));
  else ledger.announceAfterCommit(q, writer, changes);
}

/** Canonical decimal text: no trailing zeros after the point, no point for a whole number. */
function isCanonical(text: string): boolean {
  return !text.includes('.') || !(text.endsWith('0') || text.endsWith('.'));
}

function ledgerWrite(
  stmt: Statement,
  accounts: readonly AccountDelta[],
  entries: readonly EntryRow[],
  postings: readonly PostingRow[],
): LedgerWrite & { complete(): boolean } {
  let checked = false;
  let written = false;
  let selected = false;
  return {
    check: () => {
      invariant(!checked, 'ledger statement: check() twice');
      addLedgerCheck(stmt, accounts);
      checked = true;
      return LEDGER_VERIFIED;
    },
    write: (gate) => {
      invariant(checked && !written, 'ledger statement: write() before check(), or twice');
      addLedgerWrites(stmt, entries, postings, gate);
      written = true;
    },
    select: (extraColumns) => {
      invariant(written, 'ledger statement: select() before write()');
      selected = true;
      return ledgerResultSelect(extraColumns);
    },
    complete: () => checked && written && selected,
  };
}

/** The resulting user balances a verified statement returned, with what the batch moved. */
function balanceChanges(batch: PreparedBatch, rows: readonly LedgerResultRow[]): BalanceChange[] {
  const changes: BalanceChange[] = [];
  for (const row of rows) {
    if (row.account_id === null || row.currency === null || row.available === null || row.locked === null) continue;
    const delta = batch.deltas.get(`u:${row.account_id}:${row.currency}`);
    invariant(delta !== undefined, `ledger: the statement updated ${row.account_id} ${row.currency}, not in its batch`);
    invariant(row.sequence !== null, 'ledger: balances updated without an entry');
    invariant(
      isCanonical(row.available) && isCanonical(row.locked),
      `ledger: balance ${row.available}/${row.locked} returned in a non-canonical form`,
    );
    changes.push({
      accountId: row.account_id,
      currency: row.currency,
      available: row.available,
      locked: row.locked,
      availableDelta: formatDecimal(stripTrailingZeros(delta.available)),
      sequence: BigInt(row.sequence),
      superseded: false,
    });
  }
  return changes;
}

/**
 * Ids for every key: from the cache, else created or found in one statement, else (a concurrent
 * transaction created the row while that statement ran) looked up once more.
 */
async function resolveLedgerAccountIds(
  ledger: Ledger,
  tx: Queryable,
  keys: readonly LedgerAccountKey[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let missing: LedgerAccountKey[] = [];
  for (const key of keys) {
    const id = ledger.accountIds.get(cacheKey(key));
    if (id === undefined) missing.push(key);
    else ids.set(cacheKey(key), id);
  }
  if (missing.length === 0) return ids;
  // One insertion order for everyone, so concurrent creators queue instead of deadlocking.
  missing.sort((a, b) => (cacheKey(a) < cacheKey(b) ? -1 : 1));
  remember(ledger, ids, await insertOrSelectLedgerAccounts(tx, missing));
  missing = missing.filter((key) => !ids.has(cacheKey(key)));
  if (missing.length > 0) remember(ledger, ids, await selectLedgerAccounts(tx, missing));
  const unresolved = keys.find((key) => !ids.has(cacheKey(key)));
  if (unresolved !== undefined) throw new Error(`ledger: could not create ledger account ${cacheKey(unresolved)}`);
  return ids;
}

function remember(ledger: Ledger, ids: Map<string, string>, rows: readonly LedgerAccountRow[]): void {
  for (const row of rows) {
    const keyText = cacheKey({
      ownerKind: row.owner_kind,
      accountId: row.account_id,
      systemName: row.system_name,
      currency: row.currency,
    });
    ids.set(keyText, row.id);
    if (row.committed) ledger.rememberAccountId(keyText, row.id);
  }
}

function cacheKey(key: Pick<LedgerAccountKey, 'ownerKind' | 'accountId' | 'systemName' | 'currency'>): string {
  if (key.ownerKind === 'user') return `u:${key.accountId}:${key.currency}`;
  if (key.ownerKind === 'futures') return `f:${key.accountId}:${key.currency}`;
  return `s:${key.systemName}:${key.currency}`;
}

function ledgerAccountKey(owner: LedgerOwner, currency: string): LedgerAccountKey {
  checkCurrency(currency);
  if (owner.kind === 'user') {
    return {
      ownerKind: 'user',
      accountId: userAccountId(owner.accountId),
      systemName: null,
      currency,
      allowNegative: false,
    };
  }
  if (owner.kind === 'futures') {
    return {
      ownerKind: 'futures',
      accountId: userAccountId(owner.accountId),
      systemName: null,
      currency,
      allowNegative: false,
    };
  }
  if (owner.kind === 'system') {
    const name = systemName(owner.name);
    return {
      ownerKind: 'system',
      accountId: null,
      systemName: name,
      currency,
      allowNegative: SYSTEM_ACCOUNTS_ALLOWED_NEGATIVE.has(name),
    };
  }
  throw new Error(`ledger: unknown owner ${JSON.stringify(owner)}`);
}

function idOf(ids: Map<string, string>, keyText: string): string {
  const id = ids.get(keyText);
  if (id === undefined) throw new Error(`ledger: no id resolved for ${keyText}`);
  return id;
}

function compareIds(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

const ZERO: Amount = { units: 0n, scale: 0 };

function parseAmount(text: string): Amount {
  const parsed = typeof text === 'string' ? parseDecimal(text, AMOUNT_PARSE_OPTIONS) : undefined;
  if (!parsed?.ok) {
    throw new Error(`ledger: invalid amount ${JSON.stringify(text)}${parsed ? ` (${parsed.error})` : ''}`);
  }
  return parsed.value;
}

function checkCurrency(currency: string): void {
  if (typeof currency !== 'string' || !CURRENCY_PATTERN.test(currency)) {
    throw new Error(`ledger: invalid currency ${JSON.stringify(currency)} (an upper-case symbol such as 'BTC')`);
  }
}

function checkBucket(bucket: string): void {
  if (bucket !== 'available' && bucket !== 'locked')
    throw new Error(`ledger: invalid bucket ${JSON.stringify(bucket)}`);
}

function checkText(field: string, value: string): void {
  if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT_LENGTH) {
    throw new Error(`ledger: invalid entry ${field} ${JSON.stringify(value)}`);
  }
}

function userAccountId(accountId: string): string {
  if (typeof accountId !== 'string' || !UUID_PATTERN.test(accountId)) {
    throw new Error(`ledger: invalid user account id ${JSON.stringify(accountId)}`);
  }
  return accountId.toLowerCase();
}

function systemName(name: string): string {
  if (typeof name !== 'string' || !SYSTEM_NAME_PATTERN.test(name)) {
    throw new Error(`ledger: invalid system account name ${JSON.stringify(name)}`);
  }
  return name;
}

function constraintOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'constraint' in error && typeof error.constraint === 'string') {
    return error.constraint;
  }
  return '';
}

function zeroBalance(currency: string): BalanceRow {
  return { currency, available: '0', locked: '0' };
}

/**
 * Available balances of many (user, currency) pairs in one read, as atoms-free decimal strings;
 * '0' for a pair with no ledger account. For optimistic checks (the order sequencer's group
 * commit): the database still refuses a negative balance when the write comes.
 */
export async function availableBalances(
  db: Queryable,
  keys: readonly { accountId: string; currency: string }[],
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (keys.length === 0) return result;
  for (const key of keys) result.set(`${key.accountId}:${key.currency}`, '0');
  const rows = await db.query<{ account_id: string; currency: string; available: string }>(
    `SELECT la.account_id, la.currency, la.available::text AS available
     FROM ledger_accounts la
     JOIN unnest($1::uuid[], $2::text[]) AS k(account_id, currency)
       ON la.owner_kind = 'user' AND la.account_id = k.account_id AND la.currency = k.currency`,
    [keys.map((key) => key.accountId), keys.map((key) => key.currency)],
  );
  for (const row of rows.rows) result.set(`${row.account_id}:${row.currency}`, row.available);
  return result;
}
