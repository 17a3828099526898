import { CURRENCY_DECIMALS } from '@platform/contracts';
import {
  type Amount,
  abs,
  compare,
  formatDecimal,
  isZero,
  type Rounding,
  stripTrailingZeros,
  toScale,
  toSignificant,
} from '@platform/money';
import {
  formatCompactNumber,
  formatPriceNumberFull,
  formatQuotePrice,
  groupThousands,
  isDollarQuote,
  MISSING_VALUE,
  toAmount,
} from './format.ts';
import { compressZeros } from './subscript-zeros.ts';

/**
 * Figures that belong to a market or a currency: prices at the pair's tick, quantities at its lot,
 * totals and fees at the quote currency's display precision. Exact throughout (@platform/money);
 * tiny values are written in subscript-zero notation (0.0₈2106) and every function has a "full"
 * form for titles, labels and copying.
 */

type DecimalInput = Amount | string | null | undefined;

function amountOf(value: DecimalInput): Amount | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? toAmount(value) : value;
}

/** A decimal at exactly `scale` decimals, grouped by thousands: '67,202.73', '0.00000000209874'. */
export function formatFixed(value: Amount, scale: number, rounding: Rounding = 'half_up'): string {
  return groupThousands(formatDecimal(toScale(value, scale, rounding)));
}

/**
 * A price at the pair's tick, as an order book or a trade list shows it: every row has the same
 * decimals ('67,234.50', '0.0₈209874'); the tick already keeps about six significant digits.
 */
export function formatTickPrice(value: DecimalInput, pricePrecision: number): string {
  const text = formatTickPriceFull(value, pricePrecision);
  return text === MISSING_VALUE ? text : compressZeros(text);
}

/** The same price with every zero written: for titles, screen readers and copying. */
export function formatTickPriceFull(value: DecimalInput, pricePrecision: number): string {
  const price = amountOf(value);
  return price ? formatFixed(price, pricePrecision) : MISSING_VALUE;
}

const MILLION: Amount = { units: 1_000_000n, scale: 0 };

/**
 * A base quantity at the pair's lot ('0.0500000'), shortened from a million up ('2.38T') where a
 * column is narrow: a BABYDOGE order of 2,380,952,380,952 does not fit an order-book cell.
 */
export function formatQuantity(
  value: DecimalInput,
  quantityPrecision: number,
  options: { compact?: boolean } = {},
): string {
  const quantity = amountOf(value);
  if (!quantity) return MISSING_VALUE;
  if (options.compact && compare(abs(quantity), MILLION) >= 0) return formatCompactNumber(formatDecimal(quantity));
  return formatFixed(quantity, quantityPrecision);
}

/** Fiat currencies (and the dollar stablecoins) show cents. */
const CENT_CURRENCIES = new Set(['USD', 'EUR', 'GBP', 'USDT', 'USDC', 'DAI', 'TUSD', 'USDP']);

/** Decimals a currency's amounts are shown with (spec §9 "Amount decimals"; 2 for fiat, else 8). */
export function displayDecimals(currency: string): number {
  const code = currency.toUpperCase();
  return CURRENCY_DECIMALS[code] ?? (CENT_CURRENCIES.has(code) ? 2 : 8);
}

/** Digits a value too small for the display precision keeps, so a real fee never reads 0.00. */
const DUST_SIGNIFICANT_DIGITS = 2;

/**
 * An amount of a currency (a total, a fee, a value) at the currency's display precision, without
 * its sign: '0.07' for 0.069 USD, '1,234.50' USD, '0.00123 BTC' (crypto drops trailing zeros, fiat
 * keeps its cents). A non-zero amount below one display unit keeps two significant digits
 * ('0.00021', '0.0₆12') rather than reading as zero.
 */
export function formatCurrencyAmount(value: DecimalInput, currency: string, rounding: Rounding = 'half_up'): string {
  const text = formatCurrencyAmountFull(value, currency, rounding);
  return text === MISSING_VALUE ? text : compressZeros(text);
}

export function formatCurrencyAmountFull(
  value: DecimalInput,
  currency: string,
  rounding: Rounding = 'half_up',
): string {
  const amount = amountOf(value);
  if (!amount) return MISSING_VALUE;
  const decimals = displayDecimals(currency);
  const rounded = toScale(amount, decimals, rounding);
  if (isZero(rounded) && !isZero(amount)) {
    return groupThousands(formatDecimal(stripTrailingZeros(toSignificant(amount, DUST_SIGNIFICANT_DIGITS, rounding))));
  }
  const shown = decimals === 2 ? rounded : stripTrailingZeros(rounded);
  return groupThousands(formatDecimal(shown));
}

/** With the currency: '$0.07' for dollar currencies, '0.00123 BTC' for others. */
export function formatMoney(value: DecimalInput, currency: string, rounding: Rounding = 'half_up'): string {
  return withCurrency(formatCurrencyAmount(value, currency, rounding), currency);
}

/** '$' before dollar currencies, the code after others; the sign stays in front. */
function withCurrency(text: string, currency: string): string {
  if (text === MISSING_VALUE) return text;
  if (!isDollarQuote(currency)) return `${text} ${currency.toUpperCase()}`;
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/**
 * A pair's price with its quote currency: at the pair's tick when the listing is known
 * ('$0.0₈209874', '0.0446123 BTC'), otherwise in the general spec §5 price format.
 */
export function formatPairPrice(
  value: string | null | undefined,
  quoteCurrency: string,
  pricePrecision?: number,
): string {
  if (pricePrecision === undefined) return formatQuotePrice(value, quoteCurrency);
  return withCurrency(formatTickPrice(value, pricePrecision), quoteCurrency);
}

/** The same with every zero written, for a title or a label. */
export function formatPairPriceFull(
  value: string | null | undefined,
  quoteCurrency: string,
  pricePrecision?: number,
): string {
  const text = pricePrecision === undefined ? formatPriceNumberFull(value) : formatTickPriceFull(value, pricePrecision);
  return withCurrency(text, quoteCurrency);
}
