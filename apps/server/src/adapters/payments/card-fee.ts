import { CURRENCY_DECIMALS, DEFAULT_CURRENCY_DECIMALS } from '@platform/contracts';
import { decimal, formatDecimal, toUnits } from '@platform/money';
import type { CardSupport } from './types.ts';

/** A currency's decimals (§9), from the contracts' table as the wallet reads it; adapters import no module. */
export function currencyDecimals(currency: string): number {
  return CURRENCY_DECIMALS[currency] ?? DEFAULT_CURRENCY_DECIMALS;
}

/**
 * The card fee of a purchase: `feeBps` of the amount, rounded up to the currency's decimals (a fee
 * never shrinks by rounding). The payer's card is charged amount + fee; the amount is credited.
 * One function for the quote shown before paying and for the sandbox's checkout page, so both show
 * the same numbers.
 */
export function cardCharge(card: CardSupport, currency: string, amount: string): { fee: string; total: string } {
  const decimals = currencyDecimals(currency);
  const units = toUnits(decimal(amount), decimals);
  if (!units.ok) throw new Error(`card amount ${amount} has more than ${decimals} decimals`);
  const fee = (units.value * BigInt(card.feeBps) + 9_999n) / 10_000n;
  const text = (value: bigint) => formatDecimal({ units: value, scale: decimals }, { trimZeros: true });
  return { fee: text(fee), total: text(units.value + fee) };
}

/** Basis points as a percent text: 350 -> "3.5". */
export function feePercent(card: CardSupport): string {
  return formatDecimal({ units: BigInt(card.feeBps), scale: 2 }, { trimZeros: true });
}
