import { randomUUID } from 'node:crypto';
import type { CreatePayoutRequest, CreateWithdrawalRequest, KycTier, Payout, Withdrawal } from '@platform/contracts';
import { formatDecimal } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import { transactionResult } from '../../db/transaction-result.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { rateLimited } from '../auth/index.ts';
import { claimAccountTotp } from '../auth/two-factor.ts';
import { type EntryInput, postEntries } from '../ledger/service.ts';
import { type AccountNotification, type NewNotification, publishNotifications } from '../notifications/service.ts';
import { parseIdempotencyKey, trimAmount } from '../wallet/rules.ts';
import { checkDailyLimit } from './daily-limit.ts';
import type { WithdrawalDeps } from './deps.ts';
import { fingerprint, payoutByKey, payoutRows, replayWithdrawal, withdrawalByKey } from './idempotency.ts';
import { type ItemInput, optionalText, type PreparedItem, prepareItem } from './items.ts';
import { plus, shortAddress, toPayout, toWithdrawal, WITHDRAWAL_COLUMNS, type WithdrawalRow } from './rows.ts';

// Recording withdrawals and payouts: one transaction per request that holds amount + fee in the
// ledger. The rules of an item are in items.ts, the daily limit in daily-limit.ts, idempotent
// replays in idempotency.ts, reads in reads.ts.

/**
 * POST /api/v1/wallet/withdraw: the §5/§9 rules, then in one transaction (serialised per account)
 * the 2FA code, the daily limit, the withdrawal row ('pending') and the hold of amount + fee. A key
 * (Idempotency-Key header or idempotency_key) makes a retry return the first withdrawal.
 */
export async function createWithdrawal(
  deps: WithdrawalDeps,
  accountId: string,
  request: CreateWithdrawalRequest,
  headerKey: string | undefined,
): Promise<Result<{ withdrawal: Withdrawal; created: boolean }>> {
  const parsedKey = parseIdempotencyKey(headerKey, request.idempotency_key);
  if (!parsedKey.ok) return parsedKey;
  const key = parsedKey.value;
  const replay = async (q: Queryable) => {
    const earlier = key === null ? undefined : await withdrawalByKey(q, accountId, key);
    return earlier === undefined ? ok(undefined) : replayWithdrawal(earlier, request);
  };
  // A retry answered before asking the provider anything (checked again under the lock).
  const early = await replay(deps.db);
  if (!early.ok) return early;
  if (early.value !== undefined) return ok(early.value);
  const item = await prepareItem(deps, request, null);
  if (!item.ok) return item;
  const id = randomUUID();
  const options = { payoutId: id, ids: [id], key, twoFactorCode: request.two_factor_code, replay };
  const recorded = await record(deps, accountId, [item.value], options);
  if (!recorded.ok) return recorded;
  if ('withdrawal' in recorded.value) return ok(recorded.value);
  const row = recorded.value.rows[0];
  invariant(row !== undefined, 'withdrawal insert returned no row');
  return ok({ withdrawal: toWithdrawal(row), created: true });
}

/**
 * POST /api/v1/wallet/payout: every item checked by the withdrawal rules (the first failure names
 * its index), then all recorded and held in one transaction, or none. One 2FA code for the batch.
 */
export async function createPayout(
  deps: WithdrawalDeps,
  accountId: string,
  request: CreatePayoutRequest,
  headerKey: string | undefined,
): Promise<Result<{ payout: Payout; created: boolean }>> {
  const parsedKey = parseIdempotencyKey(headerKey, request.idempotency_key);
  if (!parsedKey.ok) return parsedKey;
  const key = parsedKey.value;
  const description = optionalText(request.payout_description);
  const items: ItemInput[] = request.withdrawals.map((item) => ({
    ...item,
    payout_description: item.payout_description ?? description,
    ipn_callback_url: item.ipn_callback_url ?? request.ipn_callback_url,
  }));
  const print = fingerprint(items, description);
  const replay = async (q: Queryable): Promise<Result<{ payout: Payout; created: false } | undefined>> => {
    const earlier = key === null ? undefined : await payoutByKey(q, accountId, key);
    if (earlier === undefined) return ok(undefined);
    if (earlier.fingerprint !== print) return fail('IDEMPOTENCY_KEY_REUSED');
    return ok({ payout: toPayout(earlier.id, await payoutRows(q, accountId, earlier.id)), created: false as const });
  };
  const early = await replay(deps.db);
  if (!early.ok) return early;
  if (early.value !== undefined) return ok(early.value);
  if (items.length === 0) {
    return fail('VALIDATION_ERROR', {
      message: 'Add at least one withdrawal to the payout',
      details: { field: 'withdrawals' },
    });
  }
  const prepared: PreparedItem[] = [];
  for (const [index, item] of items.entries()) {
    const checked = await prepareItem(deps, item, index);
    if (!checked.ok) return checked;
    prepared.push(checked.value);
  }
  const payoutId = randomUUID();
  const recorded = await record(deps, accountId, prepared, {
    payoutId,
    ids: prepared.map(() => randomUUID()),
    key: null,
    batch: key === null ? null : { key, fingerprint: print },
    twoFactorCode: request.two_factor_code,
    replay,
  });
  if (!recorded.ok) return recorded;
  if ('payout' in recorded.value) return ok(recorded.value);
  return ok({ payout: toPayout(payoutId, recorded.value.rows), created: true });
}

type RecordOptions<Replay> = {
  payoutId: string;
  ids: string[];
  /** A single withdrawal's key, stored on its row. */
  key: string | null;
  /** A mass payout's key, stored in withdrawal_payouts. */
  batch?: { key: string; fingerprint: string } | null;
  twoFactorCode: string | undefined;
  /** Under the account's lock: the first result when the key was used meanwhile. */
  replay: (tx: Queryable) => Promise<Result<Replay | undefined>>;
};

/**
 * The one transaction of a withdrawal or payout. The account's row is locked first, so that one
 * account's withdrawals are decided one after another: two requests at the limit cannot both see
 * room for themselves, two retries with one key cannot both insert, and one 2FA code serves once.
 * Anything refused rolls the whole transaction back (the code's step included).
 */
async function record<Replay>(
  deps: WithdrawalDeps,
  accountId: string,
  items: readonly PreparedItem[],
  options: RecordOptions<Replay>,
): Promise<Result<Replay | { rows: WithdrawalRow[] }>> {
  const now = deps.clock();
  const recorded = await transactionResult<Recorded<Replay>>(deps.db, async (tx) => {
    const admitted = await admit(deps, tx, accountId, items, options, now);
    if (!admitted.ok) return admitted;
    if (admitted.value !== 'admitted') return ok(admitted.value);
    const rows = await insertWithdrawals(tx, accountId, items, options, now);
    const stored = await deps.insertNotifications(tx, [submittedNotice(accountId, rows, now)]);
    // The balances last: their row locks, which trades and transfers wait on, are held only for the commit.
    await postEntries(tx, rows.map(holdEntry));
    return ok({ rows, stored });
  });
  if (!recorded.ok) return recorded;
  const outcome = recorded.value;
  if ('replayed' in outcome) return ok(outcome.replayed);
  publishNotifications(deps.pubsub, outcome.stored);
  deps.kick();
  return ok({ rows: outcome.rows });
}

/** What the transaction of record() leaves: the first result of the key, or the new rows and their notice. */
type Recorded<Replay> = { replayed: Replay } | { rows: WithdrawalRow[]; stored: AccountNotification[] };

/**
 * Under the account's lock: the first result when the key was used meanwhile ('replayed'), else
 * the 2FA code and the daily limit, or the failure that rolls the transaction back.
 */
async function admit<Replay>(
  deps: WithdrawalDeps,
  tx: Queryable,
  accountId: string,
  items: readonly PreparedItem[],
  options: RecordOptions<Replay>,
  now: Date,
): Promise<Result<'admitted' | { replayed: Replay }>> {
  // FOR NO KEY UPDATE: the rows that reference the account (transfers, notifications) take
  // KEY SHARE locks, which this one does not block.
  const account = await tx.query<{ kyc_tier: KycTier }>(
    'SELECT kyc_tier FROM accounts WHERE id = $1 FOR NO KEY UPDATE',
    [accountId],
  );
  const tier = account.rows[0]?.kyc_tier;
  if (tier === undefined) return fail('ACCOUNT_NOT_FOUND');
  const earlier = await options.replay(tx);
  if (!earlier.ok) return earlier;
  if (earlier.value !== undefined) return ok({ replayed: earlier.value });
  const twoFactor = await requireTwoFactor(deps, tx, accountId, options.twoFactorCode);
  if (!twoFactor.ok) return twoFactor;
  const room = await checkDailyLimit(tx, accountId, tier, items, now);
  if (!room.ok) return room;
  return ok('admitted');
}

/** The payout's row (a mass payout's key) and one 'pending' row per item, in order. */
async function insertWithdrawals<Replay>(
  tx: Queryable,
  accountId: string,
  items: readonly PreparedItem[],
  options: RecordOptions<Replay>,
  now: Date,
): Promise<WithdrawalRow[]> {
  if (options.batch) {
    await tx.query(
      `INSERT INTO withdrawal_payouts (id, account_id, idempotency_key, fingerprint, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [options.payoutId, accountId, options.batch.key, options.batch.fingerprint, now],
    );
  }
  const rows: WithdrawalRow[] = [];
  for (const [index, item] of items.entries()) {
    const inserted = await tx.query<WithdrawalRow>(
      `INSERT INTO withdrawals (id, account_id, payout_id, payout_index, currency, amount, fee, address, extra_id, status,
         usd_value, idempotency_key, payout_description, unique_external_id, ipn_callback_url, fiat_amount,
         fiat_currency, next_attempt_at, created_at, updated_at, network)
       VALUES ($1, $2, $3, $17, $4, $5, $6, $7, $8, 'pending', $9, $10, $11, $12, $13, $14, $15, $16, $16, $16, $18)
       RETURNING ${WITHDRAWAL_COLUMNS}`,
      [
        options.ids[index],
        accountId,
        options.payoutId,
        item.currency,
        item.amount,
        item.fee,
        item.address,
        item.extraId,
        formatDecimal(item.usdValue, { trimZeros: true }),
        options.key,
        item.payoutDescription,
        item.uniqueExternalId,
        item.ipnCallbackUrl,
        item.fiatAmount,
        item.fiatCurrency,
        now,
        index,
        item.network,
      ],
    );
    const row = inserted.rows[0];
    invariant(row !== undefined, 'withdrawal insert returned no row');
    rows.push(row);
  }
  return rows;
}

/** available -> locked: amount + fee, until the payout completes or fails. */
function holdEntry(row: WithdrawalRow): EntryInput {
  const owner = { kind: 'user' as const, accountId: row.account_id };
  const total = plus(row.amount, row.fee);
  return {
    kind: 'withdrawal_hold',
    reference: row.id,
    postings: [
      { owner, currency: row.currency, bucket: 'available', amount: `-${total}` },
      { owner, currency: row.currency, bucket: 'locked', amount: total },
    ],
  };
}

/** §8: 'Withdrawal submitted'. */
function submittedNotice(accountId: string, rows: readonly WithdrawalRow[], now: Date): NewNotification {
  const first = rows[0];
  invariant(first !== undefined, 'no withdrawal to announce');
  const single = rows.length === 1;
  return {
    accountId,
    type: 'withdrawal',
    title: 'Withdrawal submitted',
    message: single
      ? `Withdrawal of ${trimAmount(first.amount)} ${first.currency} to ${shortAddress(first.address)} submitted`
      : `Payout of ${rows.length} withdrawals submitted`,
    severity: 'info',
    actionUrl: '/wallet',
    textKey: single ? 'withdrawalSubmitted' : 'payoutSubmitted',
    params: single
      ? { amount: trimAmount(first.amount), currency: first.currency, address: first.address }
      : { count: rows.length },
    metadata: single
      ? { amount: trimAmount(first.amount), transactionId: first.id }
      : { transactionId: first.payout_id },
    createdAt: now,
  };
}

/**
 * §5: crypto withdrawals require 2FA when it is enabled. Missing or wrong codes are 403, never 401
 * (the client logs out on 401, §7.8). Wrong codes count against a per-account budget.
 */
async function requireTwoFactor(
  deps: WithdrawalDeps,
  tx: Queryable,
  accountId: string,
  code: string | undefined,
): Promise<Result<void>> {
  const limitKey = `withdrawal-2fa:${accountId}`;
  const retryAfter = deps.twoFactorLimiter.retryAfterSeconds(limitKey);
  if (retryAfter > 0) return rateLimited(retryAfter);
  const checked = await claimAccountTotp(deps, tx, accountId, code);
  if (checked === 'missing') return fail('WITHDRAWAL_TWO_FACTOR_REQUIRED', { details: { field: 'two_factor_code' } });
  if (checked === 'invalid') {
    deps.twoFactorLimiter.recordFailure(limitKey);
    return fail('WITHDRAWAL_TWO_FACTOR_INVALID', { details: { field: 'two_factor_code' } });
  }
  if (checked === 'accepted') deps.twoFactorLimiter.reset(limitKey);
  return ok(undefined);
}
