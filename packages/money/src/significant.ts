import { type Amount, assert } from './amount.ts';
import { toScale } from './arithmetic.ts';
import type { Rounding } from './rounding.ts';

/**
 * Position of the first significant digit: 67250 -> 4, 0.52 -> -1, 0.0000000021 -> -9; null for
 * zero, which has none. Read from the digits of the units, so no float ever sees the value.
 */
export function magnitude(value: Amount): number | null {
  if (value.units === 0n) return null;
  const digits = (value.units < 0n ? -value.units : value.units).toString().length;
  return digits - 1 - value.scale;
}

/**
 * The scale that keeps `digits` significant digits of `value` (0 when they are all before the
 * point): 0.0000000021064 at 4 digits -> 12. Zero needs no decimals, so it gets 0.
 */
export function significantScale(value: Amount, digits: number): number {
  assert(Number.isInteger(digits) && digits > 0, `significant digits must be a positive integer, got ${digits}`);
  const first = magnitude(value);
  if (first === null) return 0;
  return Math.max(0, digits - 1 - first);
}

/**
 * `value` rounded to `digits` significant digits (never to fewer decimals than 0):
 * 0.0000000021064 at 4, half_up -> 0.000000002106; 67250.4 at 3 -> 67250.
 */
export function toSignificant(value: Amount, digits: number, rounding: Rounding): Amount {
  return toScale(value, significantScale(value, digits), rounding);
}
