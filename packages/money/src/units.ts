import { type Amount, assertScale, pow10, type Result } from './amount.ts';

/**
 * The amount as an integer count of minor units of `precision` decimals (satoshis for BTC at 8,
 * price ticks, quantity lots). Exact or a named failure: silently rounding here would move money.
 */
export function toUnits(value: Amount, precision: number): Result<bigint, 'too_many_decimals'> {
  assertScale(precision);
  if (value.scale <= precision) return { ok: true, value: value.units * pow10(precision - value.scale) };
  const divisor = pow10(value.scale - precision);
  if (value.units % divisor !== 0n) return { ok: false, error: 'too_many_decimals' };
  return { ok: true, value: value.units / divisor };
}

/** An integer count of minor units of `precision` decimals, as an amount. */
export function fromUnits(units: bigint, precision: number): Amount {
  assertScale(precision);
  return { units, scale: precision };
}
