import { CONVERSION_PRICE_TOLERANCE_BPS, QUICK_TRADE_TYPES, type QuickTradeType } from '@platform/contracts';
import { decimal, formatDecimal, parseDecimal, toUnits } from '@platform/money';
import { fail, failWithText, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { currencyDecimals, parseCurrency, parseWalletAmount, unitsText } from '../wallet/rules.ts';
import type { ConversionDeps } from './deps.ts';
import {
  type ConversionPrice,
  candidateRoutes,
  checkMinimum,
  type MarketView,
  priceConversion,
  usdValue,
} from './pricing.ts';
import { canonical, type PricedColumns, type QuoteRow } from './rows.ts';

// The §5 input rules of conversions and quick trades, and the prices they are held to.

/** Basis points in a whole: the price tolerance is in basis points. */
const BPS_PER_WHOLE = 10_000n;
/**
 * What a target amount may look like before the currency's own decimals judge it: as many
 * decimals as any currency has and more (refused then with the currency's count), and 20 integer
 * digits, more than any balance.
 */
const TARGET_AMOUNT_SHAPE = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 };

export type Order = { from: string; to: string; fromUnits: bigint };
export type Fields = { from: string; to: string; amount: string };
export const CONVERSION_FIELDS: Fields = { from: 'from_currency', to: 'to_currency', amount: 'from_amount' };
export const TRADE_FIELDS: Fields = { from: 'sell_currency', to: 'buy_currency', amount: 'sell_amount' };

function withField<T>(result: Result<T>, field: string): Result<T> {
  if (result.ok) return result;
  const details = typeof result.details === 'object' && result.details !== null ? result.details : {};
  return { ...result, details: { ...details, field } };
}

function parseConversionCurrency(input: string, field: string): Result<string> {
  if (input.trim() === '') return fail('CURRENCY_NOT_SUPPORTED', { details: { field } });
  return withField(parseCurrency(input), field);
}

/**
 * The §5 rules of a conversion or a quick trade, in order: both currencies supported ('Currency
 * {X} is not supported'), two different currencies joined by a route (CONVERSION_NOT_SUPPORTED),
 * an amount greater than zero with no more decimals than the currency has.
 */
export function parseOrder(
  markets: MarketView,
  fromInput: string,
  toInput: string,
  amountInput: string | number,
  fields: Fields,
): Result<Order> {
  const from = parseConversionCurrency(fromInput, fields.from);
  if (!from.ok) return from;
  const to = parseConversionCurrency(toInput, fields.to);
  if (!to.ok) return to;
  return parseOrderAmount(markets, { from: from.value, to: to.value }, amountInput, fields);
}

function parseOrderAmount(
  markets: MarketView,
  { from, to }: { from: string; to: string },
  amountInput: string | number,
  fields: Fields,
): Result<Order> {
  if (from === to) {
    return fail('CONVERSION_NOT_SUPPORTED', {
      message: 'Choose two different currencies to convert between',
      details: { field: fields.to, reason: 'same_currency' },
    });
  }
  if (candidateRoutes(markets, from, to).length === 0) {
    return fail('CONVERSION_NOT_SUPPORTED', { details: { [fields.from]: from, [fields.to]: to } });
  }
  const fromUnits = withField(parseWalletAmount(amountInput, from), fields.amount);
  if (!fromUnits.ok) return fromUnits;
  return ok({ from, to, fromUnits: fromUnits.value });
}

/** A price as the columns that store it, amounts in the received currency. */
export function pricedColumns(price: ConversionPrice, to: string): PricedColumns {
  return {
    gross_amount: unitsText(price.grossUnits, to),
    spread_amount: unitsText(price.spreadUnits, to),
    to_amount: unitsText(price.toUnits, to),
    rate: price.rate,
    spread_bps: price.spreadBps,
    price_source: price.priceSource,
    route: price.route,
  };
}

/** The minimum (about 1 USD), then the price at the current reference, which must be fresh. */
export function priceOrder(deps: ConversionDeps, order: Order, fields: Fields): Result<ConversionPrice> {
  const { markets } = deps;
  const minimum = withField(checkMinimum(markets, order.from, order.fromUnits), fields.amount);
  if (!minimum.ok) return minimum;
  const freshness = { nowMs: deps.clock().getTime(), maxAgeMs: deps.limits.referenceMaxAgeMs };
  return withField(priceConversion(markets, order.from, order.to, order.fromUnits, freshness), fields.amount);
}

/** What the order is worth in USD for the exposure limits, as NUMERIC text (see usdValue). */
export function orderUsdValue(markets: MarketView, order: Order): string {
  const value = usdValue(markets, order.from, order.fromUnits);
  // priceOrder has priced the order, so its currency has a USD price; none would be a bug.
  invariant(value !== undefined, `no USD price for ${order.from} after pricing it`);
  return formatDecimal(value, { trimZeros: true });
}

/**
 * The re-check at execution: a quote pays what it promised unless the market has since moved
 * against the house by more than CONVERSION_PRICE_TOLERANCE_BPS (PRICE_MOVED). A move in the
 * caller's favour changes nothing: the quote is firm, it settles at its own price.
 */
export function checkPriceMoved(quote: QuoteRow, current: ConversionPrice, to: string): Result<void> {
  const quoted = toUnits(decimal(quote.to_amount), currencyDecimals(to));
  invariant(quoted.ok, `quote ${quote.id} holds an amount beyond ${to}'s decimals`);
  const limit = current.toUnits * (BPS_PER_WHOLE + BigInt(CONVERSION_PRICE_TOLERANCE_BPS));
  if (quoted.value * BPS_PER_WHOLE <= limit) return ok(undefined);
  return fail('PRICE_MOVED', {
    details: {
      quote_id: quote.id,
      quoted_amount: canonical(quote.to_amount),
      current_amount: unitsText(current.toUnits, to),
      currency: to,
      tolerance_percent: formatDecimal(
        { units: BigInt(CONVERSION_PRICE_TOLERANCE_BPS), scale: 2 },
        { trimZeros: true },
      ),
    },
  });
}

export function parseTradeType(input: string | null | undefined): Result<QuickTradeType> {
  const type = (input ?? '').trim().toLowerCase() || 'market';
  const known = QUICK_TRADE_TYPES.find((candidate) => candidate === type);
  if (known === undefined) {
    return fail('VALIDATION_ERROR', {
      message: `Trade type ${input} is not supported; use 'market'`,
      details: { field: 'trade_type', supported: QUICK_TRADE_TYPES },
    });
  }
  return ok(known);
}

/**
 * The least the caller accepts to receive, in units of the bought currency: absent, empty or zero
 * means no floor; otherwise a non-negative decimal with no more decimals than the currency has.
 */
export function parseTargetAmount(input: string | number | null | undefined, currency: string): Result<bigint | null> {
  if (input === undefined || input === null) return ok(null);
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : 'invalid') : input.trim();
  if (text === '') return ok(null);
  const parsed = parseDecimal(text, TARGET_AMOUNT_SHAPE);
  if (!parsed.ok) {
    return fail('INVALID_AMOUNT', { details: { field: 'target_amount', reason: 'not a decimal number' } });
  }
  if (parsed.value.units < 0n) {
    return fail('INVALID_AMOUNT', {
      message: 'The target amount cannot be negative',
      details: { field: 'target_amount' },
    });
  }
  const decimals = currencyDecimals(currency);
  const units = toUnits(parsed.value, decimals);
  if (!units.ok) {
    return failWithText(
      'INVALID_AMOUNT',
      'amountDecimals',
      { decimals, currency },
      { field: 'target_amount', decimals },
    );
  }
  return ok(units.value === 0n ? null : units.value);
}
