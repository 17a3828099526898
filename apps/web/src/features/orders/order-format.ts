import type { Order, TradingPair } from '@platform/contracts';
import { div, formatDecimal, isZero, mul, mulToScale, stripTrailingZeros, toScale } from '@platform/money';
import { formatQuotePrice, groupThousands, MISSING_VALUE, toAmount } from '../../lib/format.ts';
import { timeZonePreference } from '../../state/preferences-store.ts';

/**
 * How the order and trade tables show their values. Every figure goes from the wire's decimal
 * string to the screen through @platform/money: nothing here passes through a JavaScript number.
 */

/** Pair id (BTC_USD) to its listing, for the precision of its prices. */
export type PairsById = ReadonlyMap<string, TradingPair>;

export function pairsById(pairs: readonly TradingPair[] | undefined): PairsById {
  return new Map((pairs ?? []).map((pair) => [pair.id, pair]));
}

/** BTC_USD -> USD; the pair's own quote when the listing is known. */
export function quoteCurrencyOf(pairId: string, pair: TradingPair | undefined): string {
  return pair?.quote_currency ?? pairId.split('_')[1] ?? '';
}

export function baseCurrencyOf(pairId: string, pair: TradingPair | undefined): string {
  return pair?.base_currency ?? pairId.split('_')[0] ?? '';
}

/**
 * A price at the pair's precision ('67,234.50'), or, when the listing is not known, the general
 * price format of the quote currency. Prices carry no currency sign in a table whose pair column
 * already names the quote.
 */
export function formatOrderPrice(
  value: string | null | undefined,
  pairId: string,
  pair: TradingPair | undefined,
): string {
  const price = toAmount(value);
  if (!price) return MISSING_VALUE;
  if (!pair) {
    const text = formatQuotePrice(value, quoteCurrencyOf(pairId, pair));
    return text.replace(/^(-?)\$/, '$1');
  }
  return groupThousands(formatDecimal(toScale(price, pair.price_precision, 'half_up')));
}

/** An amount exactly as given, trailing zeros dropped: '0.0100' -> '0.01', '1250' -> '1,250'. */
export function formatExact(value: string | null | undefined): string {
  const amount = toAmount(value);
  return amount ? groupThousands(formatDecimal(stripTrailingZeros(amount))) : MISSING_VALUE;
}

const HUNDRED = { units: 100n, scale: 0 } as const;

/**
 * How much of the order has filled, in percent with at most 2 decimals, rounded down so an order
 * never reads 100% before it is complete; null when the order has no base quantity (a market
 * order by quote amount).
 */
export function filledPercent(order: Pick<Order, 'filled_quantity' | 'quantity'>): string | null {
  const quantity = toAmount(order.quantity);
  const filled = toAmount(order.filled_quantity);
  if (!quantity || !filled || isZero(quantity)) return null;
  const percent = div(mul(filled, HUNDRED), quantity, 2, 'down');
  return formatDecimal(stripTrailingZeros(percent));
}

/**
 * What an open order is worth in its quote currency: price x amount at the pair's price precision
 * (the order's value, as exchanges show it while the order rests); the fills' value when the
 * order has no limit price.
 */
export function openOrderTotal(order: Order, pair: TradingPair | undefined): string {
  const price = toAmount(order.price);
  const quantity = toAmount(order.quantity);
  if (!price || !quantity) return formatExact(order.total);
  const scale = pair?.price_precision ?? Math.max(price.scale, 2);
  return groupThousands(formatDecimal(mulToScale(price, quantity, scale, 'half_up')));
}

/** A timestamp (ISO text or unix ms) as the ISO instant, or '' when unreadable. */
export function isoTime(value: string | number): string {
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? '' : instant.toISOString();
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Local date and time to the second, in the interface language and the time zone chosen in
 * Settings > Preferences (the device's by default): '11/24/2026, 14:03:22'.
 */
export function formatLocalDateTime(value: string | number, locale: string): string {
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return MISSING_VALUE;
  const timeZone = timeZonePreference();
  const key = `${locale}|${timeZone ?? ''}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      // A 24-hour clock keeps the column narrow and every row the same width.
      hourCycle: 'h23',
    });
    dateTimeFormats.set(key, format);
  }
  return format.format(instant);
}

export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, limit)));
}
