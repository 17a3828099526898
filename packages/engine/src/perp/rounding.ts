/**
 * Integer division with an explicit rounding direction (bigint `/` truncates towards zero, which
 * is neither up nor down for negative operands). Every rounded division in the risk maths goes through one
 * of these, with the direction chosen against the trader and written next to the call.
 */

/** floor(a / b), b > 0. */
export function divFloor(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** ceil(a / b), b > 0. */
export function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/** round(a / b) half up (ties towards +infinity), b > 0. */
export function divHalfUp(a: bigint, b: bigint): bigint {
  return divFloor(2n * a + b, 2n * b);
}
