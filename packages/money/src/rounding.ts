import { assert, pow10, unreachable } from './amount.ts';

/**
 * How a result that does not fit the target scale is rounded.
 * - `down`: toward zero (truncate). The default for showing balances: never show more than there is.
 * - `up`: away from zero.
 * - `floor`: toward negative infinity; `ceil`: toward positive infinity. They matter for signed
 *   amounts (funding, PnL), where "in the house's favour" depends on the sign.
 * - `half_up`: to nearest, a tie away from zero (what people learn at school).
 * - `half_even`: to nearest, a tie to the even neighbour (banker's rounding, no drift over many sums).
 */
export type Rounding = 'down' | 'up' | 'floor' | 'ceil' | 'half_even' | 'half_up';

export const ROUNDINGS: readonly Rounding[] = ['down', 'up', 'floor', 'ceil', 'half_even', 'half_up'];

/** `numerator / denominator` rounded to an integer; the denominator must be positive. */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  assert(denominator > 0n, 'denominator must be positive');
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  // BigInt division truncates toward zero, so the only other candidate is one step away from zero.
  const away = numerator < 0n ? quotient - 1n : quotient + 1n;
  switch (rounding) {
    case 'down':
      return quotient;
    case 'up':
      return away;
    case 'floor':
      return numerator < 0n ? away : quotient;
    case 'ceil':
      return numerator > 0n ? away : quotient;
    case 'half_up':
    case 'half_even': {
      const twiceRemainder = (remainder < 0n ? -remainder : remainder) * 2n;
      if (twiceRemainder < denominator) return quotient;
      if (twiceRemainder > denominator) return away;
      if (rounding === 'half_up') return away;
      return quotient % 2n === 0n ? quotient : away;
    }
    default:
      return unreachable(rounding);
  }
}

/** Units at `fromScale` re-expressed at `toScale`: exact when deepening, rounded when shortening. */
export function rescaleUnits(units: bigint, fromScale: number, toScale: number, rounding: Rounding): bigint {
  if (toScale === fromScale) return units;
  if (toScale > fromScale) return units * pow10(toScale - fromScale);
  return divideRounded(units, pow10(fromScale - toScale), rounding);
}
