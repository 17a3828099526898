/**
 * Tiny prices in subscript-zero notation, as the large exchanges and DEX screeners write them:
 * 0.000000002106 reads 0.0₉2106 ("zero point, nine zeros, 2106"), so the digits that move stay
 * readable and a column of BABYDOGE prices does not turn into a row of zeros.
 */

/** Leading zeros after the point from which they are counted instead of written. */
export const SUBSCRIPT_ZEROS_FROM = 4;

const SUBSCRIPT_DIGITS = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'] as const;

/** 9 -> '₉', 13 -> '₁₃'. */
export function subscriptNumber(count: number): string {
  return String(count)
    .split('')
    .map((digit) => SUBSCRIPT_DIGITS[Number(digit)] ?? digit)
    .join('');
}

// A "0." not preceded by a digit (so 10.00001 is left alone), its run of zeros, and a non-zero
// digit after them (a zero price keeps its zeros: there is nothing to read after them).
const LEADING_ZEROS = /(^|[^\d,])0\.(0+)(?=[1-9])/g;

/**
 * Rewrites every number in `text` with SUBSCRIPT_ZEROS_FROM or more zeros after its point:
 * '$0.000000002106' -> '$0.0₉2106', '0.00002450 BTC' -> '0.0₄2450 BTC', '0.00021' stays.
 */
export function compressZeros(text: string): string {
  return text.replace(LEADING_ZEROS, (match, before: string, zeros: string) =>
    zeros.length >= SUBSCRIPT_ZEROS_FROM ? `${before}0.0${subscriptNumber(zeros.length)}` : match,
  );
}

/** Whether a shown text differs from its full form, so a title or label should carry the latter. */
export function isCompressed(text: string): boolean {
  return /[₀-₉]/.test(text);
}
