import { MONEY_SCALE, type PerpSpec, RATE_SCALE } from './api.ts';

const SCALE_DIGITS = 8;
/** 10^0 .. 10^8, so that the hot paths do not exponentiate. */
const POWERS_OF_TEN: readonly bigint[] = Array.from(
  { length: SCALE_DIGITS + 1 },
  (_, exponent) => 10n ** BigInt(exponent),
);

/** Money units (10^-8 USD) per tick x lot: 10^(8 - priceDecimals - quantityDecimals). Throws when the spec is finer than 10^-8. */
export function unitsPerTickLot(spec: PerpSpec): bigint {
  const exponent = SCALE_DIGITS - spec.priceDecimals - spec.quantityDecimals;
  if (!Number.isInteger(exponent) || exponent < 0 || spec.priceDecimals < 0 || spec.quantityDecimals < 0) {
    throw new Error('priceDecimals + quantityDecimals must be whole numbers adding up to at most 8');
  }
  return POWERS_OF_TEN[exponent]!;
}

/** |lots| x ticks as money, exact (converted to bigint before multiplying). */
export function notionalMoney(spec: PerpSpec, priceTicks: number, lots: number): bigint {
  return BigInt(Math.abs(lots)) * BigInt(priceTicks) * unitsPerTickLot(spec);
}

/** A tick-lot amount (a cost basis) as money, exact. */
export function tickLotsToMoney(spec: PerpSpec, tickLots: bigint): bigint {
  return tickLots * unitsPerTickLot(spec);
}

/** A fixed-point integer with 8 decimals as a canonical decimal string: no trailing zeros, no '-0'. */
function scaledToDecimal(value: bigint, scale: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = magnitude / scale;
  const fraction = (magnitude % scale).toString().padStart(SCALE_DIGITS, '0').replace(/0+$/, '');
  const text = fraction === '' ? whole.toString() : `${whole}.${fraction}`;
  return negative ? `-${text}` : text;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,8}))?$/;

/** A decimal string with at most 8 decimals as a fixed-point integer with 8 decimals; null when malformed. */
function decimalToScaled(text: string): bigint | null {
  const match = DECIMAL.exec(text);
  if (match === null) return null;
  const [, sign, whole, fraction = ''] = match;
  const value = BigInt(`${whole}${fraction.padEnd(SCALE_DIGITS, '0')}`);
  return sign === '-' ? -value : value;
}

/** Money as a canonical decimal string ('-12.5', '0'). */
export function moneyToDecimal(money: bigint): string {
  return scaledToDecimal(money, MONEY_SCALE);
}

/** A decimal string with at most 8 decimals as money ('12.5', '-0.00000001'); null when malformed or finer than 10^-8. */
export function decimalToMoney(text: string): bigint | null {
  return decimalToScaled(text);
}

/** A rate (RATE_SCALE) as a canonical decimal fraction ('0.0004'). */
export function rateToDecimal(rate: bigint): string {
  return scaledToDecimal(rate, RATE_SCALE);
}

/** A decimal fraction with at most 8 decimals as a rate ('0.0004' -> 40_000n); null when malformed. */
export function decimalToRate(text: string): bigint | null {
  return decimalToScaled(text);
}
