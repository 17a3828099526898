import { type Amount, add, formatDecimal, isZero, negate, parseDecimal, sign } from '@platform/money';
import { type Database, databaseOf, type Queryable, sqlState } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import {
  type AccountDelta,
  applyBatch,
  applyBatchPart,
  BALANCE_CHECK_CONSTRAINTS,
  type EntryRow,
  insertOrSelectLedgerAccounts,
  type LedgerAccountKey,
  type LedgerAccountRow,
  type LedgerStatementPart,
  type PostingRow,
  selectLedgerAccounts,
  selectSystemBalance,
  selectUserBalance,
  selectUserBalances,
} from './queries.ts';

export type Bucket = 'available' | 'locked';
export type SystemAccountName = 'fees' | 'custody' | 'market_making' | 'conversion' | (string & {});
export type LedgerOwner = { kind: 'user'; accountId: string } | { kind: 'system'; name: SystemAccountName };
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
export const SYSTEM_ACCOUNTS_ALLOWED_NEGATIVE: ReadonlySet<string> = new Set(['custody', 'market_making']);

/**
 * Limits of one postEntries call: a fill writes a handful of postings, a batch of fills a few
 * thousand. Far beyond that is a runaway loop, better stopped than sent as one giant statement.
 */
export const MAX_POSTINGS_PER_CALL = 50_000;
/** Ledger account ids kept in memory; past it the cache starts over (ids are cheap to look up). */
export const LEDGER_ACCOUNT_CACHE_LIMIT = 100_000;

/** Amounts are NUMERIC(38,18)-sized: 20 digits before the point and 18 after. */
const AMOUNT_PARSE_OPTIONS = { allowNegative: true, maxScale: 18, maxIntegerDigits: 20 } as const;
const CURRENCY_PATTERN = /^[A-Z0-9]{1,20}$/;
const SYSTEM_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_TEXT_LENGTH = 200;

/**
 * Ledger account ids by owner and currency. An id never changes once its row exists, so the
 * cache spares a lookup on every posting. Only ids of committed rows are cached: an id handed to
 * other transactions before its row commits would point at a row they cannot see yet, or never
 * will (a rollback). Even so the cache may hold an id that does not fit (a row created inside a
 * savepoint that rolled back, or a row of another database: tests run several), so applyBatch
 * checks every id against its owner and currency under the row lock, writes nothing on a
 * mismatch, and postEntries then resolves the ids afresh. A stale entry costs a retry, never a
 * wrong posting.
 */
const ledgerAccountIds = new Map<string, string>();

/** A user's available balance moved by `delta` (a signed exact decimal) in a committed write. */
export interface AvailableMoved {
  accountId: string;
  currency: string;
  delta: string;
}
export type AvailableListener = (moves: readonly AvailableMoved[]) => void;

const availableListeners = new WeakMap<Database, Set<AvailableListener>>();

/**
 * Calls listener after every committed postEntries on `db` that moved a user's available balance
 * (those that pass `{ notify: false }` excepted: their writer already knows). The order sequencer's
 * in-memory funds use it to follow deposits, withdrawals and transfers. Returns the unsubscribe.
 */
export function onAvailableMoved(db: Database, listener: AvailableListener): () => void {
  let listeners = availableListeners.get(db);
  if (!listeners) {
    listeners = new Set();
    availableListeners.set(db, listeners);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announceAvailable(q: Queryable, batch: PreparedBatch): void {
  const db = databaseOf(q);
  const listeners = db === undefined ? undefined : availableListeners.get(db);
  if (!listeners || listeners.size === 0) return;
  const moves: AvailableMoved[] = [];
  for (const { key, available } of batch.deltas.values()) {
    if (key.ownerKind !== 'user' || key.accountId === null || isZero(available)) continue;
    moves.push({ accountId: key.accountId, currency: key.currency, delta: formatDecimal(available) });
  }
  if (moves.length === 0) return;
  const send = () => {
    for (const listener of listeners) listener(moves);
  };
  if ('afterCommit' in q) (q as { afterCommit(fn: () => void): void }).afterCommit(send);
  else send();
}

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
  const keys = [...batch.deltas.values()].map((delta) => delta.key);
  let applied = await tryApply(tx, batch, await resolveLedgerAccountIds(tx, keys));
  if (!applied) {
    for (const key of keys) ledgerAccountIds.delete(cacheKey(key));
    applied = await tryApply(tx, batch, await resolveLedgerAccountIds(tx, keys));
  }
  if (!applied) throw new Error('ledger: freshly resolved ledger account ids did not match their owners');
  if (options.notify !== false) announceAvailable(tx, batch);
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
      if (!isZero(total)) {
        throw new Error(
          `ledger: entry ${entry.kind} ${entry.reference} does not balance in ${currency} (off by ${formatDecimal(total)})`,
        );
      }
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

async function tryApply(tx: Queryable, batch: PreparedBatch, ids: Map<string, string>): Promise<boolean> {
  const { accounts, postings } = batchRows(batch, ids);
  try {
    return await applyBatch(tx, accounts, batch.entries, postings);
  } catch (error) {
    throw ledgerError(error);
  }
}

/** AppError('INSUFFICIENT_BALANCE') for a statement refused by a balance's CHECK; anything else as it is. */
export function ledgerError(error: unknown): unknown {
  if (sqlState(error) === '23514' && BALANCE_CHECK_CONSTRAINTS.has(constraintOf(error))) {
    return new AppError('INSUFFICIENT_BALANCE');
  }
  return error;
}

/**
 * Entries as a part of a larger statement (the trading writer writes its batches, their ledger
 * entries included, in one statement). The ledger accounts' ids are resolved first (creating the
 * missing accounts, with zero balances, in their own statement). The part defines `verified`: when
 * false, the statement must write nothing; call forget() and prepare the part again. Run the
 * statement's errors through ledgerError. Nothing is announced to onAvailableMoved listeners unless
 * the caller calls announce() after its statement committed.
 */
export async function ledgerWritePart(
  q: Queryable,
  entries: readonly EntryInput[],
  offset: number,
  writeGate?: string,
): Promise<{ part: LedgerStatementPart; forget: () => void; announce: () => void }> {
  const batch = prepareBatch(entries);
  const keys = [...batch.deltas.values()].map((delta) => delta.key);
  const ids = await resolveLedgerAccountIds(q, keys);
  const { accounts, postings } = batchRows(batch, ids);
  return {
    part: applyBatchPart(accounts, batch.entries, postings, offset, writeGate),
    forget: () => {
      for (const key of keys) ledgerAccountIds.delete(cacheKey(key));
    },
    // For a writer other than the trading writer: tells onAvailableMoved listeners, once committed.
    announce: () => announceAvailable(q, batch),
  };
}

/**
 * Ids for every key: from the cache, else created or found in one statement, else (a concurrent
 * transaction created the row while that statement ran) looked up once more.
 */
async function resolveLedgerAccountIds(tx: Queryable, keys: readonly LedgerAccountKey[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let missing: LedgerAccountKey[] = [];
  for (const key of keys) {
    const id = ledgerAccountIds.get(cacheKey(key));
    if (id === undefined) missing.push(key);
    else ids.set(cacheKey(key), id);
  }
  if (missing.length === 0) return ids;
  // One insertion order for everyone, so concurrent creators queue instead of deadlocking.
  missing.sort((a, b) => (cacheKey(a) < cacheKey(b) ? -1 : 1));
  remember(ids, await insertOrSelectLedgerAccounts(tx, missing));
  missing = missing.filter((key) => !ids.has(cacheKey(key)));
  if (missing.length > 0) remember(ids, await selectLedgerAccounts(tx, missing));
  const unresolved = keys.find((key) => !ids.has(cacheKey(key)));
  if (unresolved !== undefined) throw new Error(`ledger: could not create ledger account ${cacheKey(unresolved)}`);
  return ids;
}

function remember(ids: Map<string, string>, rows: readonly LedgerAccountRow[]): void {
  if (ledgerAccountIds.size + rows.length > LEDGER_ACCOUNT_CACHE_LIMIT) ledgerAccountIds.clear();
  for (const row of rows) {
    const keyText =
      row.owner_kind === 'user' ? `u:${row.account_id}:${row.currency}` : `s:${row.system_name}:${row.currency}`;
    ids.set(keyText, row.id);
    if (row.committed) ledgerAccountIds.set(keyText, row.id);
  }
}

function cacheKey(key: LedgerAccountKey): string {
  return key.ownerKind === 'user' ? `u:${key.accountId}:${key.currency}` : `s:${key.systemName}:${key.currency}`;
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
