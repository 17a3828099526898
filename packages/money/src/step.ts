import { type Amount, assert, unitsAtScale } from './amount.ts';
import { divideRounded, type Rounding } from './rounding.ts';

/**
 * Tick size and lot size helpers. A step need not be a power of ten (a tick of 0.5 or 0.25 is
 * common), so these work on any positive step. Results are at the deeper of the two scales.
 */

export function isMultipleOf(value: Amount, step: Amount): boolean {
  const { valueUnits, stepUnits } = aligned(value, step);
  return valueUnits % stepUnits === 0n;
}

/** The nearest multiple of `step` chosen by `rounding`. */
export function roundToStep(value: Amount, step: Amount, rounding: Rounding): Amount {
  const { valueUnits, stepUnits, scale } = aligned(value, step);
  return { units: divideRounded(valueUnits, stepUnits, rounding) * stepUnits, scale };
}

/** The largest multiple of `step` not above `value` (toward negative infinity for negatives). */
export function floorToStep(value: Amount, step: Amount): Amount {
  return roundToStep(value, step, 'floor');
}

/** The smallest multiple of `step` not below `value`. */
export function ceilToStep(value: Amount, step: Amount): Amount {
  return roundToStep(value, step, 'ceil');
}

function aligned(value: Amount, step: Amount): { valueUnits: bigint; stepUnits: bigint; scale: number } {
  // A zero or negative step is a misconfigured market, not a user error.
  assert(step.units > 0n, 'step must be positive');
  const scale = Math.max(value.scale, step.scale);
  return { valueUnits: unitsAtScale(value, scale), stepUnits: unitsAtScale(step, scale), scale };
}
