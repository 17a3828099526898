import {
  type Amount,
  assert,
  DEFAULT_MAX_INTEGER_DIGITS,
  DEFAULT_MAX_SCALE,
  isValidScale,
  MAX_SCALE,
  type Result,
} from './amount.ts';

export type ParseError = 'empty' | 'not_a_number' | 'negative' | 'too_many_decimals' | 'too_large';

export type ParseOptions = {
  /** Most digits after the point; default 18 (NUMERIC(38,18)). Trailing zeros beyond it are dropped. */
  maxScale?: number;
  /** Most digits before the point, leading zeros not counted; default 20 (NUMERIC(38,18)). */
  maxIntegerDigits?: number;
  /** Accept a leading '-'; default false because almost every amount a user sends is unsigned. */
  allowNegative?: boolean;
};

/**
 * The longest text looked at. The longest canonical value under the defaults is 40 characters
 * ('-' + 20 digits + '.' + 18 digits); the slack admits padding zeros while bounding the work an
 * attacker can ask of BigInt with a megabyte of digits.
 */
export const MAX_DECIMAL_TEXT_LENGTH = 128;

// Plain ASCII digits only: no exponent ('1e5'), no '+', no grouping, no bare point ('.5', '5.').
const DECIMAL_PATTERN = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;
const WHITESPACE_ONLY = /^\s*$/;
const NON_ZERO_DIGIT = /[1-9]/;
const NON_ZERO_CHARACTER = /[^0]/;

/**
 * Parses a decimal string as sent on the wire or typed in a form.
 *
 * Accepted: `digits` or `digits.digits`, with a leading '-' only when `allowNegative`. Leading
 * zeros are accepted ('007' is 7: the value is unambiguous). The number of decimals written
 * becomes the scale ('12.50' has scale 2), except that trailing zeros beyond `maxScale` are
 * dropped, since they do not change the value.
 *
 * Rejected, by design: surrounding or inner whitespace, '.5' and '5.' (a bare point is more
 * often a typo than an intention, and every client we serve writes the leading zero), '+5',
 * exponents, 'NaN', 'Infinity', and non-ASCII digits. A whitespace-only text is `empty`.
 *
 * '-0' (with `allowNegative`, or without it since its value is not below zero) is zero.
 * The checks run coarse to fine, so an input with several problems reports the first of:
 * empty, too_large (text length), not_a_number, negative, too_large (integer digits),
 * too_many_decimals.
 */
export function parseDecimal(text: string, options: ParseOptions = {}): Result<Amount, ParseError> {
  const maxScale = options.maxScale ?? DEFAULT_MAX_SCALE;
  const maxIntegerDigits = options.maxIntegerDigits ?? DEFAULT_MAX_INTEGER_DIGITS;
  assert(isValidScale(maxScale), `maxScale must be an integer in [0, ${MAX_SCALE}]`);
  assert(Number.isInteger(maxIntegerDigits) && maxIntegerDigits >= 1, 'maxIntegerDigits must be a positive integer');

  if (WHITESPACE_ONLY.test(text)) return { ok: false, error: 'empty' };
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return { ok: false, error: 'too_large' };
  const match = DECIMAL_PATTERN.exec(text);
  if (match === null) return { ok: false, error: 'not_a_number' };
  const isMinus = match[1] === '-';
  const integerDigits = match[2] ?? '';
  let fractionDigits = match[3] ?? '';

  const isZeroValue = !NON_ZERO_DIGIT.test(integerDigits) && !NON_ZERO_DIGIT.test(fractionDigits);
  if (isMinus && !isZeroValue && !options.allowNegative) return { ok: false, error: 'negative' };
  if (significantLength(integerDigits) > maxIntegerDigits) return { ok: false, error: 'too_large' };
  if (fractionDigits.length > maxScale) {
    if (NON_ZERO_CHARACTER.test(fractionDigits.slice(maxScale))) return { ok: false, error: 'too_many_decimals' };
    fractionDigits = fractionDigits.slice(0, maxScale);
  }

  const magnitude = BigInt(integerDigits + fractionDigits);
  return { ok: true, value: { units: isMinus ? -magnitude : magnitude, scale: fractionDigits.length } };
}

function significantLength(digits: string): number {
  let leadingZeros = 0;
  while (leadingZeros < digits.length && digits.charCodeAt(leadingZeros) === 48) leadingZeros++;
  return digits.length - leadingZeros;
}

/**
 * An amount from a literal written by a programmer (`decimal('0.001')`), signed and at any scale
 * up to MAX_SCALE. A bad literal is a bug, so it throws; never use it on outside input.
 */
export function decimal(text: string): Amount {
  const parsed = parseDecimal(text, {
    allowNegative: true,
    maxScale: MAX_SCALE,
    maxIntegerDigits: MAX_DECIMAL_TEXT_LENGTH,
  });
  assert(parsed.ok, `invalid decimal literal '${text}': ${parsed.ok ? '' : parsed.error}`);
  return parsed.value;
}
