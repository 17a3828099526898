import { CONVERSION_LIMIT_WINDOW_SECONDS, serverMessageText } from '@platform/contracts';
import { type Amount, add, decimal, formatDecimal, gt, max, sub, zero } from '@platform/money';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';

/**
 * The house's exposure limits: what one account, and all accounts together, may convert within a
 * sliding minute, valued in USD at the reference price (conversions.usd_value). They bound what the
 * house can lose in a minute if a price is ever wrong, however many accounts one person holds.
 */
export type ConversionLimits = {
  /** A reference price older than this is not quoted from (PRICE_STALE). */
  referenceMaxAgeMs: number;
  accountUsd: Amount;
  houseUsd: Amount;
};

const MS_PER_SECOND = 1000;

export function limitsFromConfig(config: Config['conversions']): ConversionLimits {
  return {
    referenceMaxAgeMs: config.referenceMaxAgeSeconds * MS_PER_SECOND,
    accountUsd: decimal(config.accountLimitUsd),
    houseUsd: decimal(config.houseLimitUsd),
  };
}

const WINDOW_MS = CONVERSION_LIMIT_WINDOW_SECONDS * MS_PER_SECOND;
/**
 * Every settlement takes this transaction-scoped advisory lock before it counts the window, so two
 * conversions cannot both see room for themselves; any fixed number, unused elsewhere.
 */
const EXPOSURE_LOCK_KEY = 727_013;
/** Both limits answer with Retry-After: the window is a minute. */
const RETRY_AFTER = { 'retry-after': String(CONVERSION_LIMIT_WINDOW_SECONDS) };

const usd = (value: Amount) => formatDecimal(value, { trimZeros: true });

/** USD converted in the window, by the account and by everyone (excluding one conversion, if named). */
async function usedInWindow(q: Queryable, accountId: string, nowMs: number, excludeId: string | null) {
  const found = await q.query<{ account: string; house: string }>(
    `SELECT COALESCE(SUM(usd_value) FILTER (WHERE account_id = $1), 0)::text AS account,
       COALESCE(SUM(usd_value), 0)::text AS house
     FROM conversions WHERE created_at > $2 AND id IS DISTINCT FROM $3::uuid`,
    [accountId, new Date(nowMs - WINDOW_MS), excludeId],
  );
  const row = found.rows[0];
  return { account: decimal(row?.account ?? '0'), house: decimal(row?.house ?? '0') };
}

/**
 * Refuses `adding` USD more for the account when it or the house would go over its limit:
 * CONVERSION_LIMIT_EXCEEDED (the account's, with what is left) or CONVERSION_CAPACITY_EXCEEDED
 * (the house's). `excludeId` is the conversion being settled, already inserted and counted here.
 */
export async function checkExposure(
  q: Queryable,
  limits: ConversionLimits,
  accountId: string,
  nowMs: number,
  adding: Amount,
  excludeId: string | null = null,
): Promise<Result<void>> {
  const used = await usedInWindow(q, accountId, nowMs, excludeId);
  if (gt(add(used.account, adding), limits.accountUsd)) {
    const left = max(sub(limits.accountUsd, used.account), zero());
    const text = { limit: usd(limits.accountUsd), left: usd(left) };
    return fail('CONVERSION_LIMIT_EXCEEDED', {
      message: serverMessageText('conversionLimit', text),
      details: {
        text: 'conversionLimit',
        params: text,
        limit_usd: usd(limits.accountUsd),
        used_usd: usd(used.account),
        left_usd: usd(left),
        requested_usd: usd(adding),
        window_seconds: CONVERSION_LIMIT_WINDOW_SECONDS,
      },
      headers: RETRY_AFTER,
    });
  }
  if (gt(add(used.house, adding), limits.houseUsd)) {
    // The house-wide figures stay internal: they say nothing useful to one customer.
    return fail('CONVERSION_CAPACITY_EXCEEDED', {
      details: { window_seconds: CONVERSION_LIMIT_WINDOW_SECONDS },
      headers: RETRY_AFTER,
    });
  }
  return ok(undefined);
}

/**
 * Inside a settlement's transaction, after its conversion row is inserted and its entry posted:
 * waits for the exposure lock (held to the commit), then counts the window with everything
 * committed before, this conversion included. Taken last, so a holder never waits on anything
 * else before it commits.
 */
export async function enforceExposure(
  tx: Queryable,
  limits: ConversionLimits,
  conversion: { id: string; account_id: string; usd_value: string },
  nowMs: number,
): Promise<Result<void>> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [EXPOSURE_LOCK_KEY]);
  return checkExposure(tx, limits, conversion.account_id, nowMs, decimal(conversion.usd_value), conversion.id);
}
