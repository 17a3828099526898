import {
  DAILY_WITHDRAWAL_LIMITS_USD,
  type KycTier,
  serverMessageText,
  type WithdrawalLimits,
} from '@platform/contracts';
import { type Amount, add, decimal, formatDecimal, gt, max, sub, toScale } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { WithdrawalDeps } from './deps.ts';
import type { PreparedItem } from './items.ts';

// The KYC tier's daily withdrawal limit, in USD over a rolling 24 hours.

/** The rolling window of the daily limit. */
export const DAILY_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** USD figures are shown to the cent. */
const USD_CENTS = 2;

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
export async function checkDailyLimit(
  tx: Queryable,
  accountId: string,
  tier: KycTier,
  items: readonly PreparedItem[],
  now: Date,
): Promise<Result<void>> {
  const limit = decimal(DAILY_WITHDRAWAL_LIMITS_USD[tier]);
  const used = await usedToday(tx, accountId, now);
  const requested = items.reduce<Amount>((total, item) => add(total, item.usdValue), { units: 0n, scale: 0 });
  if (!gt(add(used, requested), limit)) return ok(undefined);
  const remaining = max(sub(limit, used), { units: 0n, scale: 0 });
  const text = { remaining: usdText(remaining), limit: usdText(limit) };
  return fail('DAILY_LIMIT_EXCEEDED', {
    message: serverMessageText('dailyWithdrawalLimit', text),
    details: {
      text: 'dailyWithdrawalLimit',
      params: text,
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
