import { randomUUID } from 'node:crypto';
import type { CreateTransferRequest, Transfer, TransferHistoryResponse, TransferStatus } from '@platform/contracts';
import type { Database, Queryable } from '../../db/database.ts';
import { BatchLoop } from '../../lib/batch-loop.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { transferParties, usernamesOf } from '../accounts/service.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import { type EntryInput, ledgerStatement, postEntries } from '../ledger/service.ts';
import { type InsertNotifications, type NewNotification, publishNotifications } from '../notifications/service.ts';
import {
  parseCurrency,
  parseIdempotencyKey,
  parseMemo,
  parseRecipient,
  parseTransferAmount,
  trimAmount,
} from './rules.ts';

export interface WalletDeps {
  db: Database;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  /** The ledger's balance cache, which GET /v1/wallet/balances reads. */
  balances: BalanceCache;
  /** Stores notifications in a transaction (the notifications module's; it drops their unread counts). */
  insertNotifications: InsertNotifications;
}

type TransferRow = {
  id: string;
  from_account_id: string;
  to_account_id: string;
  currency: string;
  amount: string;
  memo: string | null;
  status: TransferStatus;
  reason: string | null;
  idempotency_key: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  from_username: string | null;
  to_username: string | null;
};

// The usernames are joined in for display: a read of the accounts' public handle, not of their state.
const SELECT_TRANSFERS = `SELECT t.id, t.from_account_id, t.to_account_id, t.currency, t.amount::text AS amount, t.memo,
    t.status, t.reason, t.idempotency_key, t.created_at, t.updated_at,
    fa.username AS from_username, ta.username AS to_username
  FROM transfers t
  JOIN accounts fa ON fa.id = t.from_account_id
  JOIN accounts ta ON ta.id = t.to_account_id`;

/** Notifications an account receives between two trims of its list: trims cost a ranking query each. */
const TRIM_EVERY = 20;

/** Most transfers one settlement transaction takes: a burst settles in few commits, no lock is held long. */
const SETTLE_BATCH = 500;

/** A settlement that failed (the database away for a moment) is tried again after this. */
const SETTLE_RETRY_MS = 1_000;

/** Accounts whose trim counters are kept; past this the counters start afresh (a trim comes a little late, no more). */
const MAX_TRIM_COUNTERS = 100_000;

function toTransfer(row: TransferRow, viewer: string): Transfer {
  return {
    id: row.id,
    status: row.status,
    direction: row.from_account_id === viewer ? 'sent' : 'received',
    from_username: row.from_username,
    to_username: row.to_username,
    currency: row.currency,
    amount: trimAmount(row.amount),
    memo: row.memo,
    reason: row.reason,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

async function transferByKey(q: Queryable, accountId: string, key: string): Promise<TransferRow | undefined> {
  const found = await q.query<TransferRow>(
    `${SELECT_TRANSFERS} WHERE t.from_account_id = $1 AND t.idempotency_key = $2`,
    [accountId, key],
  );
  return found.rows[0];
}

/** A retry under the same key must describe the same transfer; anything else is a conflict. */
function sameTransfer(row: TransferRow, toAccountId: string, currency: string, amount: string, memo: string | null) {
  return (
    row.to_account_id === toAccountId &&
    row.currency === currency &&
    trimAmount(row.amount) === amount &&
    row.memo === memo
  );
}

/** A transfer request checked against the §5 rules, before anything is read or written. */
type CheckedTransfer = { currency: string; amount: string; username: string; memo: string | null; key: string | null };

function checkTransferRequest(request: CreateTransferRequest, headerKey: string | undefined): Result<CheckedTransfer> {
  const currency = parseCurrency(request.currency);
  if (!currency.ok) return currency;
  const amount = parseTransferAmount(request.amount, currency.value);
  if (!amount.ok) return amount;
  const username = parseRecipient(request.to_username);
  if (!username.ok) return username;
  const memo = parseMemo(request.memo);
  if (!memo.ok) return memo;
  const key = parseIdempotencyKey(headerKey, request.idempotency_key);
  if (!key.ok) return key;
  return ok({
    currency: currency.value,
    amount: amount.value,
    username: username.value,
    memo: memo.value,
    key: key.value,
  });
}

/**
 * POST /api/v1/wallet/transfer: checks the §5 rules, then in one transaction records the transfer
 * (CREATED) and holds the amount on the sender's balance ('Insufficient balance' when it does not
 * fit; nothing is written then). The settler moves it to the recipient right after. A key (the
 * Idempotency-Key header or idempotency_key) makes a retry return the first transfer.
 */
export async function createTransfer(
  deps: WalletDeps,
  settler: TransferSettler,
  accountId: string,
  request: CreateTransferRequest,
  headerKey: string | undefined,
): Promise<Result<{ transfer: Transfer; created: boolean }>> {
  const checked = checkTransferRequest(request, headerKey);
  if (!checked.ok) return checked;
  const { currency, amount, username, memo, key } = checked.value;
  const { recipient, senderUsername } = await transferParties(deps.db, username, accountId);
  if (recipient === null) return fail('RECIPIENT_NOT_FOUND', { details: { field: 'to_username' } });
  if (recipient.id === accountId) return fail('TRANSFER_TO_SELF', { details: { field: 'to_username' } });

  const replay = async (): Promise<Result<{ transfer: Transfer; created: boolean }>> => {
    const row = key === null ? undefined : await transferByKey(deps.db, accountId, key);
    invariant(row !== undefined, 'transfer insert wrote nothing, and no transfer has its key');
    if (!sameTransfer(row, recipient.id, currency, amount, memo)) return fail('IDEMPOTENCY_KEY_REUSED');
    return ok({ transfer: toTransfer(row, accountId), created: false });
  };

  const id = randomUUID();
  const now = deps.clock();
  const owner = { kind: 'user' as const, accountId };
  const hold = [
    {
      kind: 'transfer_hold',
      reference: id,
      postings: [
        { owner, currency, bucket: 'available' as const, amount: `-${amount}` },
        { owner, currency, bucket: 'locked' as const, amount },
      ],
    },
  ];
  // One statement, atomic on its own: the transfer row (unless its key was used: a concurrent
  // request with the same key waits for the first and inserts nothing) and, only if it was
  // written, the hold. A balance that cannot cover it fails the whole statement.
  const written = await ledgerStatement<{ inserted: boolean }>(
    deps.db,
    hold,
    (stmt, ledger) => {
      const verified = ledger.check();
      const values = [
        stmt.param('transfer.id', id, 'uuid'),
        stmt.param('transfer.from', accountId, 'uuid'),
        stmt.param('transfer.to', recipient.id, 'uuid'),
        stmt.param('transfer.currency', currency, 'text'),
        stmt.param('transfer.amount', amount, 'numeric'),
        stmt.param('transfer.memo', memo, 'text'),
      ].join(', ');
      const keyValue = stmt.param('transfer.key', key, 'text');
      const at = stmt.param('transfer.at', now, 'timestamptz');
      stmt.cte(
        'inserted_transfer',
        `INSERT INTO transfers (id, from_account_id, to_account_id, currency, amount, memo, status, idempotency_key,
        created_at, updated_at)
      SELECT ${values}, 'CREATED', ${keyValue}, ${at}, ${at}
      WHERE ${verified}
      ON CONFLICT (from_account_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
      RETURNING id`,
      );
      ledger.write('EXISTS (SELECT 1 FROM inserted_transfer)');
      return ledger.select(['EXISTS (SELECT 1 FROM inserted_transfer) AS inserted']);
    },
    { prepare: true },
  );
  if (!written.inserted) return replay();
  settler.kick();
  const row: TransferRow = {
    id,
    from_account_id: accountId,
    to_account_id: recipient.id,
    currency,
    amount,
    memo,
    status: 'CREATED',
    reason: null,
    idempotency_key: key,
    created_at: now,
    updated_at: now,
    from_username: senderUsername,
    to_username: recipient.username,
  };
  return ok({ transfer: toTransfer(row, accountId), created: true });
}

/** A transfer the account sent or received; anyone else's is 'Transfer not found'. */
export async function getTransfer(deps: WalletDeps, accountId: string, id: string): Promise<Result<Transfer>> {
  const found = await deps.db.query<TransferRow>(
    `${SELECT_TRANSFERS} WHERE t.id = $1 AND (t.from_account_id = $2 OR t.to_account_id = $2)`,
    [id, accountId],
  );
  const row = found.rows[0];
  if (row === undefined) return fail('TRANSFER_NOT_FOUND');
  return ok(toTransfer(row, accountId));
}

/** Sent and received, newest first. */
export async function transferHistory(
  deps: WalletDeps,
  accountId: string,
  limit: number,
  page: number,
): Promise<TransferHistoryResponse> {
  const where = 'WHERE t.from_account_id = $1 OR t.to_account_id = $1';
  const total = await deps.db.query<{ count: bigint | string }>(`SELECT count(*) AS count FROM transfers t ${where}`, [
    accountId,
  ]);
  const rows = await deps.db.query<TransferRow>(
    `${SELECT_TRANSFERS} ${where} ORDER BY t.created_at DESC, t.id DESC LIMIT $2 OFFSET $3`,
    [accountId, limit, (page - 1) * limit],
  );
  return {
    transfers: rows.rows.map((row) => toTransfer(row, accountId)),
    total: Number(total.rows[0]?.count ?? 0),
    page,
    limit,
  };
}

type SettleRow = { id: string; from_account_id: string; to_account_id: string; currency: string; amount: string };

/**
 * Moves held transfers to their recipients, oldest first, many per transaction: CREATED ->
 * WAITING (claimed, visible to the status poll) -> FINISHED, the sender's locked amount going to
 * the recipient's available balance in the same transaction, with a notification to each side.
 * Started after every new transfer and at boot (a transfer held before a crash is settled then).
 * The FINISHED update only takes rows still WAITING and must take all of them, so two settlers never
 * pay one transfer twice.
 */
export class TransferSettler {
  private readonly batches: BatchLoop;
  /** Notifications stored per account since its list was last trimmed to the cap. */
  private readonly sinceTrim = new Map<string, number>();

  constructor(private readonly deps: WalletDeps) {
    this.batches = new BatchLoop({
      batch: () => this.settleBatch(),
      batchSize: SETTLE_BATCH,
      retryMs: SETTLE_RETRY_MS,
      failed: (error) => deps.log.error({ err: error }, 'transfer settlement failed; retrying in a second'),
    });
  }

  /**
   * Trimming an account's notifications to the cap costs a ranking query; it runs for an account
   * once every TRIM_EVERY notifications, so a busy account holds at most that many extra for a moment.
   */
  private trimDue(rows: readonly SettleRow[]): string[] {
    const due = new Set<string>();
    for (const accountId of rows.flatMap((row) => [row.from_account_id, row.to_account_id])) {
      const count = (this.sinceTrim.get(accountId) ?? TRIM_EVERY - 1) + 1;
      if (count >= TRIM_EVERY) {
        due.add(accountId);
        this.sinceTrim.set(accountId, 0);
      } else {
        this.sinceTrim.set(accountId, count);
      }
    }
    if (this.sinceTrim.size > MAX_TRIM_COUNTERS) this.sinceTrim.clear();
    return [...due];
  }

  kick(): void {
    this.batches.kick();
  }

  /** Resolves once nothing is being settled. */
  idle(): Promise<void> {
    return this.batches.idle();
  }

  stop(): Promise<void> {
    return this.batches.stop();
  }

  /** One batch; returns how many transfers it claimed. */
  private async settleBatch(): Promise<number> {
    const { db, clock } = this.deps;
    const claimed = await db.query<{ id: string }>(
      `UPDATE transfers SET status = 'WAITING', updated_at = $1
       WHERE id IN (
         SELECT id FROM transfers WHERE status IN ('CREATED', 'WAITING')
         ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       RETURNING id`,
      [clock(), SETTLE_BATCH],
    );
    if (claimed.rowCount === 0) return 0;
    const ids = claimed.rows.map((row) => row.id);
    const now = clock();
    const { stored } = await db.transaction(async (tx) => {
      const rows = await tx.query<SettleRow>(
        `SELECT id, from_account_id, to_account_id, currency, amount::text AS amount FROM transfers
         WHERE id = ANY($1::uuid[]) AND status = 'WAITING' ORDER BY created_at, id`,
        [ids],
      );
      // The balances first, then the transfer rows: the order a new transfer takes them in (its
      // statement locks the sender's balance, then inserts its row), so the two never deadlock.
      const entries: EntryInput[] = rows.rows.map((row) => ({
        kind: 'transfer',
        reference: row.id,
        postings: [
          {
            owner: { kind: 'user', accountId: row.from_account_id },
            currency: row.currency,
            bucket: 'locked',
            amount: `-${row.amount}`,
          },
          {
            owner: { kind: 'user', accountId: row.to_account_id },
            currency: row.currency,
            bucket: 'available',
            amount: row.amount,
          },
        ],
      }));
      // Notifications first, the balances last but one: their row locks, which new transfers and
      // the trading writer wait on, are held only for the transfer rows' update and the commit.
      const notices = await this.deps.insertNotifications(tx, await transferNotices(tx, rows.rows, now), {
        trimAccounts: this.trimDue(rows.rows),
      });
      await postEntries(tx, entries);
      const finished = await tx.query(
        `UPDATE transfers SET status = 'FINISHED', updated_at = $2 WHERE id = ANY($1::uuid[]) AND status = 'WAITING'`,
        [rows.rows.map((row) => row.id), now],
      );
      // Another settler finished some of them meanwhile: undo this batch and claim again.
      if (finished.rowCount !== rows.rows.length) throw new Error('transfers settled elsewhere meanwhile');
      return { settled: rows.rows, stored: notices };
    });
    publishNotifications(this.deps.pubsub, stored);
    return ids.length;
  }
}

/** 'Sent 0.5 BTC to @bob' and 'Received 0.5 BTC from @alice' (spec notification types: withdrawal, deposit). */
async function transferNotices(q: Queryable, rows: readonly SettleRow[], now: Date): Promise<NewNotification[]> {
  if (rows.length === 0) return [];
  const names = await usernamesOf(q, [...new Set(rows.flatMap((row) => [row.from_account_id, row.to_account_id]))]);
  const nameOf = (id: string) => {
    const name = names.get(id);
    return name ? `@${name}` : 'a user';
  };
  return rows.flatMap((row): NewNotification[] => {
    const amount = `${trimAmount(row.amount)} ${row.currency}`;
    const metadata = { amount: trimAmount(row.amount), transactionId: row.id };
    const values = { amount: trimAmount(row.amount), currency: row.currency };
    const recipient = names.get(row.to_account_id);
    const sender = names.get(row.from_account_id);
    return [
      {
        accountId: row.from_account_id,
        type: 'withdrawal',
        title: 'Transfer sent',
        message: `Sent ${amount} to ${nameOf(row.to_account_id)}`,
        severity: 'success',
        actionUrl: '/wallet',
        textKey: recipient ? 'transferSent' : 'transferSentUnnamed',
        params: recipient ? { ...values, username: recipient } : values,
        metadata,
        createdAt: now,
      },
      {
        accountId: row.to_account_id,
        type: 'deposit',
        title: 'Transfer received',
        message: `Received ${amount} from ${nameOf(row.from_account_id)}`,
        severity: 'success',
        actionUrl: '/wallet',
        textKey: sender ? 'transferReceived' : 'transferReceivedUnnamed',
        params: sender ? { ...values, username: sender } : values,
        metadata,
        createdAt: now,
      },
    ];
  });
}
