import { createHash, randomUUID } from 'node:crypto';
import {
  type CreatePayoutRequest,
  type CreateWithdrawalRequest,
  DAILY_WITHDRAWAL_LIMITS_USD,
  type KycTier,
  type Payout,
  type PayoutItem,
  type PayoutProviderStatus,
  type ProviderBalance,
  REFERENCE_PRICES_USD,
  type Withdrawal,
  type WithdrawalLimits,
  type WithdrawalListResponse,
  type WithdrawalStatus,
} from '@platform/contracts';
import {
  type Amount,
  add,
  decimal,
  formatDecimal,
  gt,
  isPositive,
  max,
  mul,
  parseDecimal,
  sub,
  toScale,
} from '@platform/money';
import type { AppContext } from '../../context.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { AppError, type Failure, type Result, unwrap } from '../../lib/errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { type AttemptLimiter, rateLimited, unwrapLimited } from '../auth/index.ts';
import { claimAccountTotp } from '../auth/two-factor.ts';
import { type EntryInput, postEntries } from '../ledger/service.ts';
import { feedOf, latestPriceUpdate } from '../markets/service.ts';
import { insertNotifications, type NewNotification, publishNotifications } from '../notifications/service.ts';
import { walletBalances } from '../wallet/balances.ts';
import { withdrawalFeeQuote, withdrawalMinimum } from '../wallet/fees.ts';
import { parseCurrency, parseIdempotencyKey, parseWalletAmount, trimAmount, unitsText } from '../wallet/rules.ts';
import { parseAddress, parseExtraId, parseNetwork } from './rules.ts';

export interface WithdrawalDeps {
  context: AppContext;
  db: Database;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  /** Opens the accounts' sealed TOTP secrets. */
  secretBox: SecretBox;
  /** Wrong withdrawal 2FA codes per account. */
  twoFactorLimiter: AttemptLimiter;
  /** Tells the payout processor that withdrawals wait to be sent. */
  kick: () => void;
}

/** The rolling window of the daily limit. */
export const DAILY_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Amount text read from a request: 20 digits before the point, extra decimals only to name the rule broken. */
const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USD_CENTS = 2;

export type WithdrawalRow = {
  id: string;
  account_id: string;
  payout_id: string;
  currency: string;
  amount: string;
  fee: string;
  address: string;
  extra_id: string | null;
  network: string | null;
  status: WithdrawalStatus;
  provider: string | null;
  provider_reference: string | null;
  batch_id: string | null;
  provider_status: PayoutProviderStatus | null;
  needs_verification: boolean;
  hash: string | null;
  reason: string | null;
  usd_value: string;
  idempotency_key: string | null;
  payout_description: string | null;
  unique_external_id: string | null;
  ipn_callback_url: string | null;
  fiat_amount: string | null;
  fiat_currency: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  completed_at: Date | string | null;
};

/** The columns of a WithdrawalRow, for SELECT and RETURNING alike. */
export const WITHDRAWAL_COLUMNS = `id, account_id, payout_id, currency, amount::text AS amount, fee::text AS fee, address,
  extra_id, network, status, provider, provider_reference, batch_id, provider_status, needs_verification, hash, reason,
  usd_value::text AS usd_value, idempotency_key, payout_description, unique_external_id, ipn_callback_url,
  fiat_amount::text AS fiat_amount, fiat_currency, created_at, updated_at, completed_at`;

/** a + b, exact, canonical. */
export function plus(a: string, b: string): string {
  return formatDecimal(add(decimal(a), decimal(b)), { trimZeros: true });
}

const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    payout_id: row.payout_id,
    status: row.status,
    provider_status: row.provider_status,
    currency: row.currency,
    amount: trimAmount(row.amount),
    fee: trimAmount(row.fee),
    total_amount: plus(row.amount, row.fee),
    address: row.address,
    extra_id: row.extra_id,
    network: row.network,
    batch_withdrawal_id: row.batch_id,
    verification_required: row.status === 'pending' && row.needs_verification,
    hash: row.hash,
    reason: row.reason,
    usd_value: trimAmount(row.usd_value),
    payout_description: row.payout_description,
    unique_external_id: row.unique_external_id,
    ipn_callback_url: row.ipn_callback_url,
    fiat_amount: row.fiat_amount === null ? null : trimAmount(row.fiat_amount),
    fiat_currency: row.fiat_currency,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    completed_at: isoOrNull(row.completed_at),
  };
}

/** pending while any item is; failed when every item failed; else completed. */
function payoutStatus(rows: readonly WithdrawalRow[]): WithdrawalStatus {
  if (rows.some((row) => row.status === 'pending')) return 'pending';
  return rows.every((row) => row.status === 'failed') ? 'failed' : 'completed';
}

function toPayout(id: string, rows: readonly WithdrawalRow[]): Payout {
  return {
    id,
    status: payoutStatus(rows),
    withdrawals: rows.map(toWithdrawal),
    created_at: new Date(rows[0]?.created_at ?? 0).toISOString(),
  };
}

/** One withdrawal as requested (the single call's body, or one §3.5 payout item). */
type ItemInput = Pick<PayoutItem, 'currency' | 'amount' | 'address' | 'extra_id' | 'network'> &
  Partial<
    Pick<PayoutItem, 'ipn_callback_url' | 'payout_description' | 'unique_external_id' | 'fiat_amount' | 'fiat_currency'>
  >;

/** A withdrawal that passed every rule, with its fee and USD worth. */
type PreparedItem = {
  currency: string;
  amount: string;
  fee: string;
  total: string;
  address: string;
  extraId: string | null;
  /** Stored only for a currency on several networks. */
  network: string | null;
  usdValue: Amount;
  payoutDescription: string | null;
  uniqueExternalId: string | null;
  ipnCallbackUrl: string | null;
  fiatAmount: string | null;
  fiatCurrency: string | null;
};

/** unwrap, with the item's position in a mass payout added to the error's details. */
function check<T>(result: Result<T>, index: number | null): T {
  if (result.ok || index === null) return unwrap(result);
  const failure: Failure = result;
  const details = typeof failure.details === 'object' && failure.details !== null ? failure.details : {};
  return unwrap({ ...failure, details: { ...details, index } });
}

function invalid(field: string, message: string, index: number | null): never {
  throw new AppError('VALIDATION_ERROR', { message, details: { field, ...(index === null ? {} : { index }) } });
}

function optionalText(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/**
 * The §5 and §9 rules, in the order the client checks them: the amount is a number greater than
 * zero, the currency is supported (any case), the amount has no more decimals than the currency,
 * it is at least the minimum (the provider's or §9's), the address has at least 10 characters and
 * the currency's format, the destination tag is valid. Then the fee (the provider's or §9's) and
 * the USD worth at the reference price.
 */
async function prepareItem(deps: WithdrawalDeps, input: ItemInput, index: number | null): Promise<PreparedItem> {
  const amountText =
    typeof input.amount === 'number'
      ? Number.isFinite(input.amount)
        ? String(input.amount)
        : ''
      : input.amount.trim();
  const parsed = amountText === '' ? null : parseDecimal(amountText, AMOUNT_LIMITS);
  if (parsed === null || !parsed.ok) {
    check({ ok: false, code: 'INVALID_AMOUNT', details: { field: 'amount', reason: 'not a decimal number' } }, index);
  } else if (!isPositive(parsed.value)) {
    check({ ok: false, code: 'AMOUNT_NOT_POSITIVE', details: { field: 'amount' } }, index);
  }
  const currency = check(parseCurrency(input.currency), index);
  const network = check(parseNetwork(input.network, currency), index);
  const units = check(parseWalletAmount(input.amount, currency), index);
  const minimum = await withdrawalMinimum(deps.context, currency, undefined, network);
  if (units < minimum.units) {
    check(
      {
        ok: false,
        code: 'AMOUNT_BELOW_MINIMUM',
        message: `Minimum withdrawal amount is ${minimum.text} ${currency}`,
        details: { field: 'amount', minimum: minimum.text },
      },
      index,
    );
  }
  const address = check(parseAddress(input.address, currency, network), index);
  const extraId = check(parseExtraId(input.extra_id, currency), index);
  const fiatAmount = parseFiatAmount(input.fiat_amount, index);
  const ipnCallbackUrl = parseCallbackUrl(input.ipn_callback_url, index);
  const { fee, total } = await withdrawalFeeQuote(deps.context, currency, units, network);
  const amount = unitsText(units, currency);
  return {
    currency,
    network: network?.network ?? null,
    amount,
    fee: unitsText(fee, currency),
    total: unitsText(total, currency),
    address,
    extraId,
    usdValue: mul(decimal(amount), usdPrice(deps, currency)),
    payoutDescription: optionalText(input.payout_description),
    uniqueExternalId: optionalText(input.unique_external_id),
    ipnCallbackUrl,
    fiatAmount,
    fiatCurrency: optionalText(input.fiat_currency)?.toUpperCase() ?? null,
  };
}

function parseFiatAmount(input: string | number | null | undefined, index: number | null): string | null {
  if (input === undefined || input === null || String(input).trim() === '') return null;
  const parsed = parseDecimal(String(input).trim(), { allowNegative: false, maxScale: 18, maxIntegerDigits: 20 });
  if (!parsed.ok) invalid('fiat_amount', 'Invalid fiat amount', index);
  return formatDecimal(parsed.value, { trimZeros: true });
}

/** Stored as given, never called (docs/withdrawals.md); still, only a plain http(s) URL is kept. */
function parseCallbackUrl(input: string | null | undefined, index: number | null): string | null {
  const text = optionalText(input);
  if (text === null) return null;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    invalid('ipn_callback_url', 'Invalid callback URL', index);
  }
  return text;
}

/**
 * The USD price of a currency now: the running market feed's, else the last published price of
 * its USD pair, else the catalogue's reference price (the same order of sources the markets use).
 */
export function usdPrice(deps: Pick<WithdrawalDeps, 'context' | 'pubsub'>, currency: string): Amount {
  if (currency === 'USD') return { units: 1n, scale: 0 };
  const fromFeed = feedOf(deps.context)?.usdPrice(currency);
  if (fromFeed !== undefined && isPositive(fromFeed)) return fromFeed;
  const published = latestPriceUpdate(deps.pubsub, `${currency}_USD`)?.price;
  const fromPubSub = published === undefined ? null : parseDecimal(String(published), AMOUNT_LIMITS);
  if (fromPubSub?.ok && isPositive(fromPubSub.value)) return fromPubSub.value;
  const reference = REFERENCE_PRICES_USD[currency];
  if (reference !== undefined) return decimal(reference);
  throw new AppError('PRICE_UNAVAILABLE', { message: `No USD price is available for ${currency} right now` });
}

/** What identifies a request for idempotency: a retry must describe the same withdrawals. */
function canonicalItem(input: ItemInput) {
  const amountText = String(input.amount).trim();
  const parsed = parseDecimal(amountText, AMOUNT_LIMITS);
  const currency = String(input.currency).trim().toUpperCase();
  const extra = input.extra_id === undefined || input.extra_id === null ? '' : String(input.extra_id).trim();
  return {
    currency,
    amount: parsed.ok ? formatDecimal(parsed.value, { trimZeros: true }) : amountText,
    address: input.address.trim(),
    extra_id: currency === 'XRP' && /^\d+$/.test(extra) ? BigInt(extra).toString() : extra,
    network: input.network?.trim().toUpperCase() || null,
    ipn_callback_url: optionalText(input.ipn_callback_url),
    payout_description: optionalText(input.payout_description),
    unique_external_id: optionalText(input.unique_external_id),
    fiat_amount:
      input.fiat_amount === undefined || input.fiat_amount === null ? null : String(input.fiat_amount).trim(),
    fiat_currency: optionalText(input.fiat_currency)?.toUpperCase() ?? null,
  };
}

function fingerprint(items: readonly ItemInput[], description: string | null): string {
  return createHash('sha256')
    .update(JSON.stringify({ items: items.map(canonicalItem), description }))
    .digest('hex');
}

function sameWithdrawal(row: WithdrawalRow, input: ItemInput): boolean {
  const wanted = canonicalItem(input);
  return (
    row.currency === wanted.currency &&
    trimAmount(row.amount) === wanted.amount &&
    row.address === wanted.address &&
    (row.extra_id ?? '') === wanted.extra_id &&
    // No network named means the currency's default, which is what the row stored.
    (wanted.network === null || row.network === wanted.network)
  );
}

async function withdrawalByKey(q: Queryable, accountId: string, key: string): Promise<WithdrawalRow | undefined> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE account_id = $1 AND idempotency_key = $2`,
    [accountId, key],
  );
  return found.rows[0];
}

async function payoutByKey(
  q: Queryable,
  accountId: string,
  key: string,
): Promise<{ id: string; fingerprint: string } | undefined> {
  const found = await q.query<{ id: string; fingerprint: string }>(
    'SELECT id, fingerprint FROM withdrawal_payouts WHERE account_id = $1 AND idempotency_key = $2',
    [accountId, key],
  );
  return found.rows[0];
}

async function payoutRows(q: Queryable, accountId: string, payoutId: string): Promise<WithdrawalRow[]> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE account_id = $1 AND payout_id = $2 ORDER BY payout_index`,
    [accountId, payoutId],
  );
  return found.rows;
}

/** A retry of a single withdrawal: the first one, or 409 when the key described another. */
function replayWithdrawal(row: WithdrawalRow, input: ItemInput): { withdrawal: Withdrawal; created: false } {
  if (!sameWithdrawal(row, input)) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return { withdrawal: toWithdrawal(row), created: false };
}

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
): Promise<{ withdrawal: Withdrawal; created: boolean }> {
  const key = parseIdempotencyKey(headerKey, request.idempotency_key);
  // A retry answered before asking the provider anything (checked again under the lock below).
  if (key !== null) {
    const earlier = await withdrawalByKey(deps.db, accountId, key);
    if (earlier !== undefined) return replayWithdrawal(earlier, request);
  }
  const item = await prepareItem(deps, request, null);
  const id = randomUUID();
  const recorded = await record(deps, accountId, [item], {
    payoutId: id,
    ids: [id],
    key,
    twoFactorCode: request.two_factor_code,
    replay: async (tx) => {
      const earlier = key === null ? undefined : await withdrawalByKey(tx, accountId, key);
      return earlier === undefined ? undefined : replayWithdrawal(earlier, request);
    },
  });
  if ('withdrawal' in recorded) return recorded;
  const row = recorded.rows[0];
  if (row === undefined) throw new Error('withdrawal insert returned no row');
  return { withdrawal: toWithdrawal(row), created: true };
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
): Promise<{ payout: Payout; created: boolean }> {
  const key = parseIdempotencyKey(headerKey, request.idempotency_key);
  const description = optionalText(request.payout_description);
  const items: ItemInput[] = request.withdrawals.map((item) => ({
    ...item,
    payout_description: item.payout_description ?? description,
    ipn_callback_url: item.ipn_callback_url ?? request.ipn_callback_url,
  }));
  const print = fingerprint(items, description);
  const replay = async (q: Queryable) => {
    const earlier = key === null ? undefined : await payoutByKey(q, accountId, key);
    if (earlier === undefined) return undefined;
    if (earlier.fingerprint !== print) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return { payout: toPayout(earlier.id, await payoutRows(q, accountId, earlier.id)), created: false as const };
  };
  const early = await replay(deps.db);
  if (early !== undefined) return early;
  if (items.length === 0) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Add at least one withdrawal to the payout',
      details: { field: 'withdrawals' },
    });
  }
  const prepared: PreparedItem[] = [];
  for (const [index, item] of items.entries()) prepared.push(await prepareItem(deps, item, index));
  const payoutId = randomUUID();
  const recorded = await record(deps, accountId, prepared, {
    payoutId,
    ids: prepared.map(() => randomUUID()),
    key: null,
    batch: key === null ? null : { key, fingerprint: print },
    twoFactorCode: request.two_factor_code,
    replay,
  });
  if ('payout' in recorded) return recorded;
  return { payout: toPayout(payoutId, recorded.rows), created: true };
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
  replay: (tx: Queryable) => Promise<Replay | undefined>;
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
): Promise<Replay | { rows: WithdrawalRow[] }> {
  const now = deps.clock();
  const outcome = await deps.db.transaction(async (tx) => {
    // FOR NO KEY UPDATE: the rows that reference the account (transfers, notifications) take
    // KEY SHARE locks, which this one does not block.
    const account = await tx.query<{ kyc_tier: KycTier }>(
      'SELECT kyc_tier FROM accounts WHERE id = $1 FOR NO KEY UPDATE',
      [accountId],
    );
    const tier = account.rows[0]?.kyc_tier;
    if (tier === undefined) throw new AppError('ACCOUNT_NOT_FOUND');
    const earlier = await options.replay(tx);
    if (earlier !== undefined) return { replayed: earlier };
    await requireTwoFactor(deps, tx, accountId, options.twoFactorCode);
    await checkDailyLimit(tx, accountId, tier, items, now);
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
      if (row === undefined) throw new Error('withdrawal insert returned no row');
      rows.push(row);
    }
    const stored = await insertNotifications(tx, [submittedNotice(accountId, rows, now)]);
    // The balances last: their row locks, which trades and transfers wait on, are held only for the commit.
    await postEntries(tx, rows.map(holdEntry));
    return { rows, stored };
  });
  if ('replayed' in outcome) return outcome.replayed as Replay;
  publishNotifications(deps.pubsub, outcome.stored);
  deps.kick();
  return { rows: outcome.rows };
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
  if (first === undefined) throw new Error('no withdrawal to announce');
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
    metadata: single
      ? { amount: trimAmount(first.amount), transactionId: first.id }
      : { transactionId: first.payout_id },
    createdAt: now,
  };
}

/** 'bc1qar0s…f5mdq': enough to recognise an address in a notification. */
export function shortAddress(address: string): string {
  return address.length <= 16 ? address : `${address.slice(0, 8)}…${address.slice(-6)}`;
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
): Promise<void> {
  const limitKey = `withdrawal-2fa:${accountId}`;
  const retryAfter = deps.twoFactorLimiter.retryAfterSeconds(limitKey);
  if (retryAfter > 0) unwrapLimited(rateLimited(retryAfter));
  const checked = await claimAccountTotp(deps, tx, accountId, code);
  if (checked === 'missing')
    throw new AppError('WITHDRAWAL_TWO_FACTOR_REQUIRED', { details: { field: 'two_factor_code' } });
  if (checked === 'invalid') {
    deps.twoFactorLimiter.recordFailure(limitKey);
    throw new AppError('WITHDRAWAL_TWO_FACTOR_INVALID', { details: { field: 'two_factor_code' } });
  }
  if (checked === 'accepted') deps.twoFactorLimiter.reset(limitKey);
}

async function usedToday(q: Queryable, accountId: string, now: Date): Promise<Amount> {
  const used = await q.query<{ used: string }>(
    `SELECT coalesce(sum(usd_value), 0)::text AS used FROM withdrawals
     WHERE account_id = $1 AND status <> 'failed' AND created_at > $2`,
    [accountId, new Date(now.getTime() - DAILY_LIMIT_WINDOW_MS)],
  );
  return decimal(String(used.rows[0]?.used ?? '0'));
}

function usdText(value: Amount, rounding: 'down' | 'up' = 'down'): string {
  return formatDecimal(toScale(value, USD_CENTS, rounding), { trimZeros: true });
}

/**
 * The KYC tier's limit (contracts/kyc.ts) over a rolling 24 hours: the USD worth of the account's
 * withdrawals not failed in that window, plus these, must stay within it.
 */
async function checkDailyLimit(
  tx: Queryable,
  accountId: string,
  tier: KycTier,
  items: readonly PreparedItem[],
  now: Date,
): Promise<void> {
  const limit = decimal(DAILY_WITHDRAWAL_LIMITS_USD[tier]);
  const used = await usedToday(tx, accountId, now);
  const requested = items.reduce<Amount>((total, item) => add(total, item.usdValue), { units: 0n, scale: 0 });
  if (!gt(add(used, requested), limit)) return;
  const remaining = max(sub(limit, used), { units: 0n, scale: 0 });
  throw new AppError('DAILY_LIMIT_EXCEEDED', {
    message: `This withdrawal exceeds your daily withdrawal limit: ${usdText(remaining)} USD of your ${usdText(limit)} USD limit remains for the next 24 hours`,
    details: {
      kyc_tier: tier,
      daily_limit_usd: usdText(limit),
      used_usd: usdText(used, 'up'),
      remaining_usd: usdText(remaining),
      requested_usd: usdText(requested, 'up'),
    },
  });
}

/** GET /api/v1/wallet/withdrawal-limits. */
export async function withdrawalLimits(deps: WithdrawalDeps, accountId: string): Promise<WithdrawalLimits> {
  const account = await deps.db.query<{ kyc_tier: KycTier }>('SELECT kyc_tier FROM accounts WHERE id = $1', [
    accountId,
  ]);
  const tier = account.rows[0]?.kyc_tier ?? 'unverified';
  const limit = decimal(DAILY_WITHDRAWAL_LIMITS_USD[tier]);
  const used = await usedToday(deps.db, accountId, deps.clock());
  const remaining = max(sub(limit, used), { units: 0n, scale: 0 });
  return {
    kyc_tier: tier,
    daily_limit_usd: usdText(limit),
    used_usd: usdText(used, 'up'),
    remaining_usd: usdText(remaining),
  };
}

/** One of the account's withdrawals; anyone else's (or no such id) is 'Withdrawal not found'. */
export async function getWithdrawal(
  deps: Pick<WithdrawalDeps, 'db'>,
  accountId: string,
  id: string,
  notFound: 'WITHDRAWAL_NOT_FOUND' | 'PAYOUT_NOT_FOUND' = 'WITHDRAWAL_NOT_FOUND',
): Promise<Withdrawal> {
  if (!UUID_PATTERN.test(id)) throw new AppError(notFound);
  const found = await deps.db.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1 AND account_id = $2`,
    [id, accountId],
  );
  const row = found.rows[0];
  if (row === undefined) throw new AppError(notFound);
  return toWithdrawal(row);
}

/** A mass payout of the account by its id (a single withdrawal is a payout of one, under its own id). */
export async function getPayout(deps: Pick<WithdrawalDeps, 'db'>, accountId: string, id: string): Promise<Payout> {
  if (!UUID_PATTERN.test(id)) throw new AppError('PAYOUT_NOT_FOUND');
  const rows = await payoutRows(deps.db, accountId, id);
  if (rows.length === 0) throw new AppError('PAYOUT_NOT_FOUND');
  return toPayout(id, rows);
}

/** The account's withdrawals (payout items), newest first. */
export async function listWithdrawals(
  deps: Pick<WithdrawalDeps, 'db'>,
  accountId: string,
  limit: number,
  page: number,
): Promise<WithdrawalListResponse> {
  const total = await deps.db.query<{ count: bigint | string }>(
    'SELECT count(*) AS count FROM withdrawals WHERE account_id = $1',
    [accountId],
  );
  const rows = await deps.db.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE account_id = $1
     ORDER BY created_at DESC, payout_index DESC, id DESC LIMIT $2 OFFSET $3`,
    [accountId, limit, (page - 1) * limit],
  );
  return { withdrawals: rows.rows.map(toWithdrawal), total: Number(total.rows[0]?.count ?? 0), page, limit };
}

/**
 * The withdrawals a verify-payout call names: the provider's batch id (batch_withdrawal_id), or
 * one of our withdrawal or payout ids, among the caller's own.
 */
export async function withdrawalsForVerification(
  q: Queryable,
  accountId: string,
  reference: string,
): Promise<WithdrawalRow[]> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals
     WHERE account_id = $1 AND (batch_id = $2 OR id::text = lower($2) OR payout_id::text = lower($2))
     ORDER BY created_at, payout_index, id`,
    [accountId, reference],
  );
  return found.rows;
}

export async function withdrawalsByIds(q: Queryable, ids: readonly string[]): Promise<WithdrawalRow[]> {
  const found = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = ANY($1::uuid[]) ORDER BY created_at, payout_index, id`,
    [ids],
  );
  return found.rows;
}

function providerBalance(currency: string, available: string, locked: string): ProviderBalance {
  return { currency, available_balance: available, pending_balance: locked, total_balance: plus(available, locked) };
}

/** §3.5 / §7.4 the provider's balance shape, from the ledger: pending is what is held (locked). */
export async function providerBalances(
  deps: Pick<WithdrawalDeps, 'db'>,
  accountId: string,
): Promise<ProviderBalance[]> {
  const rows = await walletBalances(deps.db, accountId);
  return rows.map((row) => providerBalance(row.currency, row.available, row.locked));
}

export async function providerBalanceOf(
  deps: Pick<WithdrawalDeps, 'db'>,
  accountId: string,
  currencyInput: string,
): Promise<ProviderBalance> {
  const currency = unwrap(parseCurrency(currencyInput));
  const row = (await walletBalances(deps.db, accountId)).find((balance) => balance.currency === currency);
  return providerBalance(currency, row?.available ?? '0', row?.locked ?? '0');
}
