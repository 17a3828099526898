/** Exact conversions between the API's decimal strings and the exchange's integers. */

const PLAIN_DECIMAL = /^(\d{1,20})(?:\.(\d{1,30}))?$/;

/**
 * A positive decimal (string or number) as integer units at `decimals`, or null: malformed, negative,
 * zero, finer than the unit, or beyond `max` units. Numbers are taken by their shortest text.
 */
export function parseUnits(input: string | number, decimals: number, max: bigint): bigint | null {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim();
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  const units = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (units <= 0n || units > max) return null;
  return units;
}

/** Integer units at `decimals` as a canonical decimal string ('-1.5', '0'). */
export function unitsText(units: bigint | number, decimals: number): string {
  const value = BigInt(units);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Money (10^-8 USD) as text. */
export const moneyText = (money: bigint): string => unitsText(money, 8);
/** A rate (10^-8) as a decimal fraction. */
export const rateText = (rate: bigint): string => unitsText(rate, 8);

/** A ledger or NUMERIC decimal (at most `decimals` places once trailing zeros go) as units; throws otherwise. */
export function storedUnits(text: string | number | bigint, decimals: number): bigint {
  const raw = String(text).trim();
  const negative = raw.startsWith('-');
  const match = PLAIN_DECIMAL.exec(negative ? raw.slice(1) : raw);
  if (!match) throw new Error(`${raw} is not a stored decimal`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`${raw} has more than ${decimals} decimals`);
  const units = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  return negative ? -units : units;
}

/** Ticks of a reference price text, rounded down to the tick; null when unusable. */
export function ticksOfText(price: string, decimals: number): number | null {
  const match = PLAIN_DECIMAL.exec(price.trim());
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(decimals, '0').slice(0, decimals);
  const ticks = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction || '0');
  return ticks > 0n && ticks <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(ticks) : null;
}

/** A decimal string without trailing fractional zeros ('50000.000' -> '50000'). */
export const trimDecimal = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
