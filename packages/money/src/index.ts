/**
 * Exact decimal amounts for money, prices and quantities: bigint units with a decimal scale.
 * No JavaScript number ever holds an amount; decimal strings travel on the wire.
 */
export type { Amount, Result } from './amount.ts';
export {
  amount,
  DEFAULT_MAX_INTEGER_DIGITS,
  DEFAULT_MAX_SCALE,
  isValidScale,
  MAX_SCALE,
  zero,
} from './amount.ts';
export {
  abs,
  add,
  applyBps,
  applyPercent,
  div,
  mul,
  mulToScale,
  negate,
  stripTrailingZeros,
  sub,
  sum,
  toScale,
} from './arithmetic.ts';
export type { Ordering } from './compare.ts';
export { compare, eq, gt, gte, isNegative, isPositive, isZero, lt, lte, max, min, sign } from './compare.ts';
export type { FormatOptions } from './format.ts';
export { formatDecimal } from './format.ts';
export type { ParseError, ParseOptions } from './parse.ts';
export { decimal, MAX_DECIMAL_TEXT_LENGTH, parseDecimal } from './parse.ts';
export type { Rounding } from './rounding.ts';
export { ROUNDINGS } from './rounding.ts';
export { magnitude, significantScale, toSignificant } from './significant.ts';
export { ceilToStep, floorToStep, isMultipleOf, roundToStep } from './step.ts';
export { fromUnits, toUnits } from './units.ts';
