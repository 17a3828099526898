import type { PerpSpec } from './api.ts';

/**
 * The unit conversion and integer divisions the mark, funding and ADL maths need, kept local so that
 * these modules do not depend on the position and margin modules. Same definitions as docs/futures.md:
 * money is 10^-8 USD, and priceDecimals + quantityDecimals <= 8 makes one tick x lot an exact whole
 * number of money units.
 */

/** Money units per tick x lot: 10^(8 - priceDecimals - quantityDecimals). */
export function moneyPerTickLot(spec: PerpSpec): bigint {
  const { priceDecimals, quantityDecimals } = spec;
  const exponent = 8 - priceDecimals - quantityDecimals;
  const wholeDecimals = Number.isInteger(priceDecimals) && Number.isInteger(quantityDecimals);
  if (!wholeDecimals || priceDecimals < 0 || quantityDecimals < 0 || exponent < 0) {
    throw new RangeError('invalid perp spec: decimals must be whole, not negative, and sum to 8 or less');
  }
  return 10n ** BigInt(exponent);
}

/** Asserts a price in ticks: a positive safe integer. */
export function assertPriceTicks(priceTicks: number, what: string): void {
  if (!Number.isSafeInteger(priceTicks) || priceTicks <= 0) {
    throw new RangeError(`${what} must be a positive integer number of ticks, got ${priceTicks}`);
  }
}

/** Asserts a size in lots: a safe integer (signed sizes allowed). */
export function assertLots(lots: number, what: string): void {
  if (!Number.isSafeInteger(lots)) throw new RangeError(`${what} must be an integer number of lots, got ${lots}`);
}

/** a / b rounded to the nearest integer, halves away from zero (b > 0). */
export function divRoundHalfAwayFromZero(a: bigint, b: bigint): bigint {
  const magnitude = (2n * (a < 0n ? -a : a) + b) / (2n * b);
  return a < 0n ? -magnitude : magnitude;
}

/** a / b rounded up (b > 0). */
export function divCeil(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return quotient * b < a ? quotient + 1n : quotient;
}

/** a / b rounded down (b > 0). */
export function divFloor(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return quotient * b > a ? quotient - 1n : quotient;
}
