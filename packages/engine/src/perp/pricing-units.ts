/**
 * Input checks and the half-away-from-zero division of the mark, funding and ADL maths. The money
 * per tick x lot is units.ts's unitsPerTickLot, and floor/ceil divisions are rounding.ts's.
 */

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
