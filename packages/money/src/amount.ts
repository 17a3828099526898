/**
 * An exact decimal amount: its value is `units / 10^scale`.
 *
 * A plain readonly record rather than a class: it costs one allocation per result, needs no
 * prototype lookups, and survives structured cloning between workers. It is not frozen because
 * freezing slows every allocation on the hot path and `readonly` already stops accidental writes
 * in TypeScript.
 *
 * The scale is kept as information (a balance of '1.50' stays at scale 2), so two amounts of the
 * same value may differ in `scale`; compare them with `eq`, never with `===` or deep equality.
 */
export type Amount = { readonly units: bigint; readonly scale: number };

/** An expected failure is a named result, never an exception (exceptions mean bugs). */
export type Result<T, E extends string> = { ok: true; value: T } | { ok: false; error: E };

/**
 * The deepest scale an amount may have: four factors at the default maximum scale of 18
 * (price x quantity x rate x rate). A deeper scale means a missing `toScale` and a bigint that
 * grows with every step, so it is caught here as a bug rather than found later as slowness.
 */
export const MAX_SCALE = 72;

/**
 * Amounts are stored as NUMERIC(38,18): 18 digits after the point and therefore 38 - 18 = 20
 * before it. Parsing enforces both by default, so whatever it accepts fits a column.
 */
export const DEFAULT_MAX_SCALE = 18;
export const DEFAULT_MAX_INTEGER_DIGITS = 20;

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`money: ${message}`);
}

export function unreachable(value: never): never {
  throw new Error(`money: unreachable value ${String(value)}`);
}

export function isValidScale(scale: number): boolean {
  return Number.isInteger(scale) && scale >= 0 && scale <= MAX_SCALE;
}

export function assertScale(scale: number): void {
  assert(isValidScale(scale), `scale must be an integer in [0, ${MAX_SCALE}], got ${scale}`);
}

export function amount(units: bigint, scale: number): Amount {
  assert(typeof units === 'bigint', 'units must be a bigint');
  assertScale(scale);
  return { units, scale };
}

export function zero(scale = 0): Amount {
  return amount(0n, scale);
}

// Division can need 10^(target scale + divisor scale), so the table covers twice the limit.
const POWERS_OF_TEN: readonly bigint[] = Array.from(
  { length: 2 * MAX_SCALE + 1 },
  (_, exponent) => 10n ** BigInt(exponent),
);

export function pow10(exponent: number): bigint {
  const cached = POWERS_OF_TEN[exponent];
  if (cached !== undefined) return cached;
  assert(Number.isSafeInteger(exponent) && exponent >= 0, `exponent must be a non-negative integer, got ${exponent}`);
  return 10n ** BigInt(exponent);
}

/** The units of `value` expressed at a scale at least as deep as its own; exact. */
export function unitsAtScale(value: Amount, scale: number): bigint {
  assert(scale >= value.scale, 'unitsAtScale only deepens the scale');
  return scale === value.scale ? value.units : value.units * pow10(scale - value.scale);
}
