import type { ConversionQuote } from '@platform/contracts';
import { compare, div, formatDecimal, parseDecimal, stripTrailingZeros, toScale, toUnits } from '@platform/money';
import { ApiError } from '../../api/client.ts';
import type { CreateConversionBody } from '../../api/conversions.ts';
import { formatPriceNumber, MISSING_VALUE, toAmount } from '../../lib/format.ts';
import { currencyDecimals, normalizeAmountText } from '../wallet/transfer-form.ts';

/**
 * The conversion desk's rules as plain data (spec §3.5 Conversion, §7.3, §7.8): the amount checked
 * with the currency's decimals (§9, CURRENCY_DECIMALS) and the available balance, when an estimate
 * may be asked for, how long a quote stays valid, and what a refused conversion means for the form.
 * Amounts stay decimal strings (@platform/money); nothing here needs React.
 */

/** An amount problem: an i18n key and its values. */
export interface AmountProblem {
  key: string;
  values?: Record<string, string>;
}

/** The longest amount text read, as the server reads it. */
const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;

/**
 * The amount's first problem, or null: empty or zero ('Amount must be greater than zero'), not a
 * number ('Invalid amount'), more decimals than the currency has, more than the available balance
 * ('Insufficient balance'; only when the balance is known).
 */
export function amountProblem(text: string, currency: string, available: string | null = null): AmountProblem | null {
  const normalized = normalizeAmountText(text);
  if (normalized === '') return { key: 'wallet.convert.errors.amountNotPositive' };
  const parsed = parseDecimal(normalized, AMOUNT_LIMITS);
  if (!parsed.ok) return { key: 'errors.invalidAmount' };
  if (parsed.value.units <= 0n) return { key: 'wallet.convert.errors.amountNotPositive' };
  const code = currency.trim().toUpperCase();
  const decimals = currencyDecimals(code);
  if (!toUnits(parsed.value, decimals).ok) {
    return { key: 'wallet.convert.errors.tooManyDecimals', values: { decimals: String(decimals), currency: code } };
  }
  const balance = available === null ? null : parseDecimal(available, AMOUNT_LIMITS);
  if (balance?.ok && compare(parsed.value, balance.value) > 0) return { key: 'errors.insufficientBalance' };
  return null;
}

/** The amount as it goes on the wire: a decimal string, never a number. */
export function amountForRequest(text: string): string {
  return normalizeAmountText(text);
}

export interface ConvertFormValues {
  from: string;
  to: string;
  amount: string;
}

export interface ConvertFormSummary {
  from: string;
  to: string;
  /** The same currency on both sides. */
  samePair: boolean;
  amountProblem: AmountProblem | null;
  /**
   * What to ask an estimate for: the pair and an amount that reads right. A balance too small does
   * not stop the estimate (the rate is worth seeing); it stops the conversion.
   */
  estimateRequest: { from_currency: string; to_currency: string; from_amount: string } | null;
}

export function convertFormSummary(values: ConvertFormValues, available: string | null): ConvertFormSummary {
  const from = values.from.trim().toUpperCase();
  const to = values.to.trim().toUpperCase();
  const samePair = from === to;
  const problem = values.amount.trim() === '' ? null : amountProblem(values.amount, from, available);
  const readable = values.amount.trim() !== '' && amountProblem(values.amount, from, null) === null;
  return {
    from,
    to,
    samePair,
    amountProblem: problem,
    estimateRequest:
      !samePair && from !== '' && to !== '' && readable
        ? { from_currency: from, to_currency: to, from_amount: amountForRequest(values.amount) }
        : null,
  };
}

/** Whole seconds a quote still has: the server's validity counted from when its answer arrived (no clock skew). */
export function quoteSecondsLeft(
  quote: Pick<ConversionQuote, 'valid_for_seconds'>,
  receivedAtMs: number,
  nowMs: number,
) {
  const deadline = receivedAtMs + quote.valid_for_seconds * 1000;
  // A clock read before the quote arrived (the first render after it) must not show more than its validity.
  return Math.min(quote.valid_for_seconds, Math.max(0, Math.ceil((deadline - nowMs) / 1000)));
}

/** The POST /conversions body for a quote: the quote's own pair and amount, so they always match it. */
export function conversionRequest(quote: ConversionQuote): CreateConversionBody {
  return {
    from_currency: quote.from_currency,
    to_currency: quote.to_currency,
    from_amount: quote.from_amount,
    quote_id: quote.quote_id,
  };
}

/**
 * Answers that mean "this quote cannot be used": the form offers a new one next to the server's
 * text. PRICE_MOVED: the market moved against the quote before it was executed.
 */
export const QUOTE_PROBLEM_CODES = new Set([
  'QUOTE_EXPIRED',
  'QUOTE_NOT_FOUND',
  'QUOTE_ALREADY_USED',
  'QUOTE_MISMATCH',
  'PRICE_MOVED',
]);

export function isQuoteProblem(error: unknown): boolean {
  return error instanceof ApiError && QUOTE_PROBLEM_CODES.has(error.code);
}

/** Where a refused conversion or trade shows: next to the amount, or above the button. */
export function failureField(error: unknown): 'amount' | 'form' {
  if (!(error instanceof ApiError)) return 'form';
  return ['INSUFFICIENT_BALANCE', 'AMOUNT_NOT_POSITIVE', 'AMOUNT_BELOW_MINIMUM', 'INVALID_AMOUNT'].includes(error.code)
    ? 'amount'
    : 'form';
}

/** True when the quote is for exactly this pair and amount ('100' and '100.00' are the same amount). */
export function quoteMatches(
  quote: Pick<ConversionQuote, 'from_currency' | 'to_currency' | 'from_amount'>,
  request: { from_currency: string; to_currency: string; from_amount: string } | null,
): boolean {
  if (!request) return false;
  if (quote.from_currency.toUpperCase() !== request.from_currency.toUpperCase()) return false;
  if (quote.to_currency.toUpperCase() !== request.to_currency.toUpperCase()) return false;
  const quoted = parseDecimal(quote.from_amount, AMOUNT_LIMITS);
  const asked = parseDecimal(request.from_amount, AMOUNT_LIMITS);
  return quoted.ok && asked.ok && compare(quoted.value, asked.value) === 0;
}

/** Significant digits a rate below 1 keeps: 0.0000000123456 stays readable, where 8 fixed decimals would not. */
export const RATE_SIGNIFICANT_DIGITS = 6;

/**
 * A rate for people: from 1 up with 2 to 6 decimals (§5 price format), below 1 with
 * RATE_SIGNIFICANT_DIGITS significant digits (a rate between two far-apart currencies may be tiny).
 */
export function formatRateNumber(value: string): string {
  const rate = toAmount(value);
  if (!rate) return MISSING_VALUE;
  const magnitude = rate.units < 0n ? -rate.units : rate.units;
  if (magnitude === 0n) return '0';
  const digits = magnitude.toString().length;
  if (digits > rate.scale) return formatPriceNumber(value);
  const leadingZeros = rate.scale - digits;
  const scale = Math.min(rate.scale, leadingZeros + RATE_SIGNIFICANT_DIGITS);
  return formatDecimal(stripTrailingZeros(toScale(rate, scale, 'half_up')));
}

/** How much of `from` one `to` costs (1 / rate), for the reverse reading; null for a zero or bad rate. */
export function inverseRate(value: string): string | null {
  const rate = toAmount(value);
  if (!rate || rate.units <= 0n) return null;
  return formatDecimal(div({ units: 1n, scale: 0 }, rate, 18, 'half_up'));
}
