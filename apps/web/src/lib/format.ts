import {
  type Amount,
  compare,
  formatDecimal,
  isNegative,
  parseDecimal,
  significantScale,
  stripTrailingZeros,
  toScale,
  toSignificant,
} from '@platform/money';
import { localizedNumber } from '../state/preferences-store.ts';
import { compressZeros } from './subscript-zeros.ts';

/**
 * Spec §5 display formats, computed from decimal strings with @platform/money: no price, balance
 * or percentage ever passes through a JavaScript number on its way to the screen.
 */

/** Shown where a value is missing or unreadable. */
export const MISSING_VALUE = '—';

/** Wire values are decimal strings with up to 18 decimals; allow deeper ones from computations. */
const PARSE_OPTIONS = { allowNegative: true, maxScale: 36, maxIntegerDigits: 40 } as const;

/** A decimal string as an exact amount, or null when it is missing or not a plain decimal. */
export function toAmount(value: string | null | undefined): Amount | null {
  if (typeof value !== 'string') return null;
  const parsed = parseDecimal(value.trim(), PARSE_OPTIONS);
  return parsed.ok ? parsed.value : null;
}

const ONE: Amount = { units: 1n, scale: 0 };

/** Quotes shown with a dollar sign: the US dollar and the dollar stablecoins. */
const DOLLAR_QUOTES = new Set(['USD', 'USDT', 'USDC', 'DAI', 'TUSD', 'USDP']);

export function isDollarQuote(currency: string): boolean {
  return DOLLAR_QUOTES.has(currency.toUpperCase());
}

/** '1234567.5' -> '1,234,567.5'; the sign and the fraction are kept as they are. */
export function groupThousands(text: string): string {
  const negative = text.startsWith('-');
  const unsigned = negative ? text.slice(1) : text;
  const pointAt = unsigned.indexOf('.');
  const integer = pointAt === -1 ? unsigned : unsigned.slice(0, pointAt);
  const fraction = pointAt === -1 ? '' : unsigned.slice(pointAt);
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // Settings > Preferences: the user's separators (issue 13; the lead reconciles with format rework).
  return localizedNumber(`${negative ? '-' : ''}${grouped}${fraction}`);
}

/**
 * Rounds to `maxDecimals`, then drops trailing zeros but keeps at least `minDecimals`
 * ('1.50000' at 2..6 -> '1.50', '1.234567891' -> '1.234568').
 */
function decimalsBetween(value: Amount, minDecimals: number, maxDecimals: number): string {
  const rounded = toScale(value, maxDecimals, 'half_up');
  const stripped = stripTrailingZeros(rounded);
  const scale = Math.max(minDecimals, stripped.scale);
  return formatDecimal(toScale(stripped, scale, 'half_up'));
}

/** Significant digits a price below 1 keeps when 8 decimals would show fewer (SHIB, BABYDOGE). */
const PRICE_SIGNIFICANT_DIGITS = 4;

/**
 * Spec §5: 2 to 6 decimals when the price is 1 or more, 6 to 8 below 1 — and, where 8 decimals
 * would leave fewer than 4 significant digits, as many more as keep 4 (0.0000000021064 is not
 * '0.000000'). Four or more zeros after the point are written in subscript: '0.0₈2106'.
 */
export function formatPriceNumber(value: string | null | undefined): string {
  const text = formatPriceNumberFull(value);
  return text === MISSING_VALUE ? text : compressZeros(text);
}

/** The same with every zero written: for titles, screen readers and copying. */
export function formatPriceNumberFull(value: string | null | undefined): string {
  const price = toAmount(value);
  if (!price) return MISSING_VALUE;
  // Decide on the value as shown at the deepest precision, so 0.999999999 reads $1.00.
  const shown = toScale(price, 8, 'half_up');
  const magnitude = isNegative(shown) ? { units: -shown.units, scale: shown.scale } : shown;
  if (compare(magnitude, ONE) >= 0) return groupThousands(decimalsBetween(price, 2, 6));
  const deepest = Math.max(8, significantScale(price, PRICE_SIGNIFICANT_DIGITS));
  return groupThousands(decimalsBetween(price, 6, deepest));
}

/** A price in US dollars: '$67,234.50', '$0.00001234'. */
export function formatUsdPrice(value: string | null | undefined): string {
  const text = formatPriceNumber(value);
  if (text === MISSING_VALUE) return text;
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** A price in its quote currency: dollars for dollar quotes, otherwise the number and the code. */
export function formatQuotePrice(value: string | null | undefined, quoteCurrency: string): string {
  if (isDollarQuote(quoteCurrency)) return formatUsdPrice(value);
  const text = formatPriceNumber(value);
  return text === MISSING_VALUE ? text : `${text} ${quoteCurrency.toUpperCase()}`;
}

/**
 * Spec §5: a leading '+' when zero or positive, 2 decimals and '%'. Non-numeric input counts as 0.
 * The sign is taken after rounding, so '-0.001' shows '+0.00%' rather than a negative zero.
 */
export function formatPercent(value: unknown): string {
  const percent = typeof value === 'string' ? toAmount(value) : null;
  const rounded = toScale(percent ?? { units: 0n, scale: 0 }, 2, 'half_up');
  const text = localizedNumber(formatDecimal(rounded));
  return isNegative(rounded) ? `${text}%` : `+${text}%`;
}

/** -1, 0 or 1 for a percentage string; non-numeric counts as 0 (spec §5). */
export function percentDirection(value: unknown): -1 | 0 | 1 {
  const percent = typeof value === 'string' ? toAmount(value) : null;
  if (!percent) return 0;
  const rounded = toScale(percent, 2, 'half_up');
  return rounded.units > 0n ? 1 : rounded.units < 0n ? -1 : 0;
}

/** Spec §5: balances show 2 decimals, 8 for BTC; never more than the real amount (rounded down). */
export function balanceDecimals(currency: string): number {
  return currency.toUpperCase() === 'BTC' ? 8 : 2;
}

/**
 * A non-zero balance below one shown unit keeps two significant digits, still rounded down, so
 * 0.0049 ETH reads 0.0049 rather than an empty-looking 0.00.
 */
export function formatBalance(value: string | null | undefined, currency: string): string {
  const balance = toAmount(value);
  if (!balance) return MISSING_VALUE;
  const shown = toScale(balance, balanceDecimals(currency), 'down');
  if (shown.units === 0n && balance.units !== 0n) {
    return compressZeros(formatDecimal(stripTrailingZeros(toSignificant(balance, 2, 'down'))));
  }
  return groupThousands(formatDecimal(shown));
}

const COMPACT_UNITS = [
  { exponent: 12, suffix: 'T' },
  { exponent: 9, suffix: 'B' },
  { exponent: 6, suffix: 'M' },
  { exponent: 3, suffix: 'K' },
  { exponent: 0, suffix: '' },
] as const;

const THOUSAND: Amount = { units: 1000n, scale: 0 };

/** The amount divided by 10^exponent (only the scale moves, so it is exact), rounded to cents. */
function inUnit(value: Amount, exponent: number): Amount {
  return toScale({ units: value.units, scale: value.scale + exponent }, 2, 'half_up');
}

/**
 * Compact amounts for volumes and market caps: '1.23B', '456.78M', '12.35K', '999.99'.
 * A value that rounds up to the next unit moves there ('999.996M' -> '1.00B').
 */
export function formatCompactNumber(value: string | null | undefined): string {
  const number = toAmount(value);
  if (!number) return MISSING_VALUE;
  const magnitude = isNegative(number) ? { units: -number.units, scale: number.scale } : number;
  let text = '0.00';
  for (const [index, unit] of COMPACT_UNITS.entries()) {
    if (compare({ units: magnitude.units, scale: magnitude.scale + unit.exponent }, ONE) < 0 && unit.exponent > 0) {
      continue;
    }
    const shifted = inUnit(magnitude, unit.exponent);
    const larger = COMPACT_UNITS[index - 1];
    text =
      larger && compare(shifted, THOUSAND) >= 0
        ? `${localizedNumber(formatDecimal(inUnit(magnitude, larger.exponent)))}${larger.suffix}`
        : `${groupThousands(formatDecimal(shifted))}${unit.suffix}`;
    break;
  }
  return isNegative(number) && text !== localizedNumber('0.00') ? `-${text}` : text;
}

/** Compact with the currency: '$1.23B' for dollar quotes, '12.35K BTC' otherwise. */
export function formatCompact(value: string | null | undefined, currency = 'USD'): string {
  const text = formatCompactNumber(value);
  if (text === MISSING_VALUE) return text;
  if (!isDollarQuote(currency)) return `${text} ${currency.toUpperCase()}`;
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** BASE_QUOTE -> BASE/QUOTE, the display symbol and the /trade?pair= value. */
export function pairSymbol(pairId: string): string {
  return pairId.replace('_', '/');
}
