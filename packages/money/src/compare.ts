import { type Amount, unitsAtScale } from './amount.ts';

export type Ordering = -1 | 0 | 1;

/** Numeric order; scale does not matter ('1.0' equals '1'). */
export function compare(a: Amount, b: Amount): Ordering {
  let left = a.units;
  let right = b.units;
  if (a.scale !== b.scale) {
    const scale = Math.max(a.scale, b.scale);
    left = unitsAtScale(a, scale);
    right = unitsAtScale(b, scale);
  }
  return left < right ? -1 : left > right ? 1 : 0;
}

export function eq(a: Amount, b: Amount): boolean {
  return compare(a, b) === 0;
}

export function lt(a: Amount, b: Amount): boolean {
  return compare(a, b) < 0;
}

export function lte(a: Amount, b: Amount): boolean {
  return compare(a, b) <= 0;
}

export function gt(a: Amount, b: Amount): boolean {
  return compare(a, b) > 0;
}

export function gte(a: Amount, b: Amount): boolean {
  return compare(a, b) >= 0;
}

export function sign(value: Amount): Ordering {
  return value.units < 0n ? -1 : value.units > 0n ? 1 : 0;
}

export function isZero(value: Amount): boolean {
  return value.units === 0n;
}

export function isNegative(value: Amount): boolean {
  return value.units < 0n;
}

export function isPositive(value: Amount): boolean {
  return value.units > 0n;
}

/** The smaller; on a tie the first, so the caller's scale is kept. */
export function min(a: Amount, b: Amount): Amount {
  return compare(b, a) < 0 ? b : a;
}

/** The larger; on a tie the first, so the caller's scale is kept. */
export function max(a: Amount, b: Amount): Amount {
  return compare(b, a) > 0 ? b : a;
}
