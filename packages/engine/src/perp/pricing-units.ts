import type { PerpSpec } from './api.ts';

/**
 * The unit conversions the mark, funding and ADL maths need, kept local so that these modules do not
 * depend on the position and margin modules. Same definitions as docs/futures.md: money is 10^-8 USD,
 * and priceDecimals + quantityDecimals <= 8 makes one tick x lot an exact whole number of money units.
 */

/** Money units per tick x lot: 10^(8 - priceDecimals - quantityDecimals). */
export function moneyPerTickLot(spec: PerpSpec): bigint {
  const exponent = 8 - spec.priceDecimals - spec.quantityDecimals;
  if (!Number.isInteger(spec.priceDecimals) || !Number.isInteger(spec.quantityDecimals) || exponent < 0) {
    throw new RangeError(`invalid perp spec: priceDecimals + quantityDecimals must be integers <= 8`);
  }
  return 10n ** BigInt(exponent);
}

/** Signed lots x ticks as money, exact (the sign of lots is kept). */
export function signedValueMoney(spec: PerpSpec, priceTicks: number, lots: number): bigint {
  return BigInt(lots) * BigInt(priceTicks) * moneyPerTickLot(spec);
}

/** Unrealised P&L at the mark, exact money: size x mark - signed cost (cost counts + for longs, - for shorts). */
export function unrealisedPnlMoney(spec: PerpSpec, sizeLots: number, costTickLots: bigint, markTicks: number): bigint {
  const signedCost = sizeLots < 0 ? -costTickLots : costTickLots;
  return (BigInt(sizeLots) * BigInt(markTicks) - signedCost) * moneyPerTickLot(spec);
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
