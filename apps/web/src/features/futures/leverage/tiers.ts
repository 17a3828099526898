import type { FuturesTier } from '@platform/contracts';
import { compare } from '@platform/money';
import { toAmount } from '../../../lib/format.ts';

/**
 * The tier a position's notional falls in: floor <= notional < cap (the last tier's cap included).
 * A flat position (no notional) is in the first tier.
 */
export function tierForNotional(tiers: readonly FuturesTier[], notional: string | null): FuturesTier | undefined {
  const sorted = [...tiers].sort((a, b) => a.tier - b.tier);
  const value = notional ? toAmount(notional) : null;
  if (!value) return sorted[0];
  const inside = sorted.find((tier) => {
    const floor = toAmount(tier.notional_floor);
    const cap = toAmount(tier.notional_cap);
    return floor && cap && compare(value, floor) >= 0 && compare(value, cap) < 0;
  });
  return inside ?? sorted.at(-1);
}

/** The slider's top: the current tier's maximum, never above the market's. */
export function maxLeverageFor(
  tiers: readonly FuturesTier[] | undefined,
  notional: string | null,
  marketMax: number,
): number {
  const tier = tiers ? tierForNotional(tiers, notional) : undefined;
  return Math.max(1, Math.min(tier?.max_leverage ?? marketMax, marketMax));
}
