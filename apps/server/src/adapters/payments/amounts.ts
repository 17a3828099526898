import {
  type Amount,
  compare,
  div,
  formatDecimal,
  isPositive,
  mul,
  parseDecimal,
  toScale,
  zero,
} from '@platform/money';

/**
 * Amounts at the providers' edge. Providers send amounts as JSON numbers or strings; we never let
 * one become a float that is computed with: a number is read back as the shortest decimal text
 * that JavaScript prints for it (what the provider wrote, for any amount of up to 15 significant
 * digits) and parsed exactly from there.
 */

/** Decimal text of an amount a provider sent, or null when it is absent or not a plain amount. */
export function decimalFromProvider(value: unknown): string | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = expandExponent(String(value));
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const parsed = parseDecimal(text, { allowNegative: false });
  return parsed.ok ? canonical(parsed.value) : null;
}

/** '1.5e-7' -> '0.00000015', '1e+21' -> '1000000000000000000000'; other texts unchanged. */
export function expandExponent(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]?\d+)$/i.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A date a provider sent, or `fallback` when it is absent or not a date. */
export function dateFromProvider(text: string | null | undefined, fallback: Date): Date {
  if (!text) return fallback;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? fallback : date;
}

/** Decimals an amount may have unless a caller says otherwise: the most any currency we handle uses (ETH's 18). */
export const DEFAULT_MAX_AMOUNT_SCALE = 18;

/** A positive decimal text we were given (callers validate too; this is the adapter's own guard). */
export function parsePositive(text: string, maxScale = DEFAULT_MAX_AMOUNT_SCALE): Amount | null {
  const parsed = parseDecimal(text, { maxScale });
  return parsed.ok && isPositive(parsed.value) ? parsed.value : null;
}

/** Decimal text without trailing zeros ('1.50' -> '1.5'), as amounts travel on our side. */
export function canonical(value: Amount): string {
  return formatDecimal(value, { trimZeros: true });
}

/** Exact text of a decimal already known to be valid. */
export function exact(text: string): Amount {
  const parsed = parseDecimal(text, { allowNegative: true, maxScale: 36, maxIntegerDigits: 40 });
  if (!parsed.ok) throw new Error(`not a decimal: ${text}`);
  return parsed.value;
}

/** `part / whole * total`, rounded down at `scale` (what a partial payment is worth, never more). */
export function proportion(total: string, part: string, whole: string, scale: number): string {
  const wholeAmount = exact(whole);
  if (!isPositive(wholeAmount)) return '0';
  const value = toScale(div(mul(exact(total), exact(part)), wholeAmount, scale + 2, 'down'), scale, 'down');
  return canonical(compare(value, exact(total)) > 0 ? exact(total) : value);
}

export function decimalPlaces(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

export const ZERO_TEXT = canonical(zero());
