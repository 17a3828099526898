import { type Amount, amount, assert, assertScale, MAX_SCALE, pow10, unitsAtScale } from './amount.ts';
import { divideRounded, type Rounding, rescaleUnits } from './rounding.ts';

/** Exact sum at the deeper of the two scales. */
export function add(a: Amount, b: Amount): Amount {
  if (a.scale === b.scale) return { units: a.units + b.units, scale: a.scale };
  const scale = Math.max(a.scale, b.scale);
  return { units: unitsAtScale(a, scale) + unitsAtScale(b, scale), scale };
}

/** Exact difference at the deeper of the two scales. */
export function sub(a: Amount, b: Amount): Amount {
  if (a.scale === b.scale) return { units: a.units - b.units, scale: a.scale };
  const scale = Math.max(a.scale, b.scale);
  return { units: unitsAtScale(a, scale) - unitsAtScale(b, scale), scale };
}

/** Exact sum of a list; the empty sum is zero at scale 0. */
export function sum(values: readonly Amount[]): Amount {
  let total: Amount = { units: 0n, scale: 0 };
  for (const value of values) total = add(total, value);
  return total;
}

/** Exact product; its scale is the sum of the scales (see MAX_SCALE for the limit). */
export function mul(a: Amount, b: Amount): Amount {
  return amount(a.units * b.units, a.scale + b.scale);
}

/**
 * `a / b` at `scale`, rounded. A zero divisor is a bug in the caller (an average price of an
 * empty fill, say), which must check for it where it knows what the answer should be.
 */
export function div(a: Amount, b: Amount, scale: number, rounding: Rounding): Amount {
  assertScale(scale);
  assert(b.units !== 0n, 'division by zero');
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); the result units are that times 10^scale.
  const exponent = b.scale + scale - a.scale;
  let numerator = exponent >= 0 ? a.units * pow10(exponent) : a.units;
  let denominator = exponent >= 0 ? b.units : b.units * pow10(-exponent);
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  return { units: divideRounded(numerator, denominator, rounding), scale };
}

/** The same value at another scale: exact when deepening, rounded when shortening. */
export function toScale(value: Amount, scale: number, rounding: Rounding): Amount {
  assertScale(scale);
  if (scale === value.scale) return value;
  return { units: rescaleUnits(value.units, value.scale, scale, rounding), scale };
}

/**
 * `a * b` rounded to `scale` in one step, without building the exact product as an Amount, so
 * the intermediate scale may exceed MAX_SCALE (18 + 18 + a rate's scale) without tripping it.
 */
export function mulToScale(a: Amount, b: Amount, scale: number, rounding: Rounding): Amount {
  return productToScale(a.units * b.units, a.scale + b.scale, scale, rounding);
}

/** `bps` basis points of `value` (1 bps = 0.01%), e.g. a fee; `bps` may be fractional (7.5 bps). */
export function applyBps(value: Amount, bps: Amount | bigint, scale: number, rounding: Rounding): Amount {
  return applyRate(value, bps, 4, scale, rounding);
}

/** `percent` percent of `value`; `percent` may be fractional (0.1%). */
export function applyPercent(value: Amount, percent: Amount | bigint, scale: number, rounding: Rounding): Amount {
  return applyRate(value, percent, 2, scale, rounding);
}

function applyRate(value: Amount, rate: Amount | bigint, rateShift: number, scale: number, rounding: Rounding): Amount {
  const rateAmount = typeof rate === 'bigint' ? { units: rate, scale: 0 } : rate;
  return productToScale(value.units * rateAmount.units, value.scale + rateAmount.scale + rateShift, scale, rounding);
}

function productToScale(units: bigint, productScale: number, scale: number, rounding: Rounding): Amount {
  assertScale(scale);
  assert(productScale <= 2 * MAX_SCALE, 'product scale beyond any sensible depth');
  return { units: rescaleUnits(units, productScale, scale, rounding), scale };
}

export function negate(value: Amount): Amount {
  return { units: -value.units, scale: value.scale };
}

export function abs(value: Amount): Amount {
  return value.units < 0n ? negate(value) : value;
}

/** The same value at the shallowest scale that holds it exactly ('1.500' -> '1.5', '2.00' -> '2'). */
export function stripTrailingZeros(value: Amount): Amount {
  if (value.units === 0n) return { units: 0n, scale: 0 };
  let { units, scale } = value;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}
