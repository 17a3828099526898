import {
  CONVERSION_MIN_USD,
  CONVERSION_SPREAD_BPS,
  type ConversionPriceSource,
  REFERENCE_PRICES_USD,
} from '@platform/contracts';
import { type Amount, applyBps, decimal, div, formatDecimal, gte, isPositive, lt, mul, toScale } from '@platform/money';
import { fail, failWithText, ok, type Result } from '../../lib/errors.ts';
import { currencyDecimals } from '../wallet/rules.ts';

/**
 * The house desk's prices, pure: a conversion is priced at the pair's reference price (the price
 * feed's, which no user moves), goes through USD when no market joins the two currencies, and keeps
 * a disclosed spread. Users' orders are never read: a book a user can fill or empty in a moment
 * must not set what the house pays (docs/conversions.md, "Why the reference price"). Every amount
 * is exact; every rounding is in the house's favour.
 */

export type MarketPair = { id: string; base: string; quote: string };

/** A reference price and when the feed last confirmed it (ms on the server clock). */
export type ReferencePrice = { price: Amount; timestampMs: number };

/** What pricing reads of the markets: read-only, answered from memory. No order book, on purpose. */
export interface MarketView {
  /** A tradable spot market, by id (BASE_QUOTE). */
  pair(id: string): MarketPair | undefined;
  /** The pair's reference price (the price feed's), if one is known. */
  reference(id: string): ReferencePrice | undefined;
}

/** Pricing refuses a reference older than maxAgeMs at nowMs (PRICE_STALE). */
export type Freshness = { nowMs: number; maxAgeMs: number };

/** Currencies a cross goes through when no market joins two currencies. */
export const CROSS_CURRENCY = 'USD';

/** Intermediate amounts (a first leg's result) keep this many decimals, the ledger's, rounded down. */
const WORK_SCALE = 18;

/** Largest amount the ledger holds: 20 integer digits. */
const LEDGER_LIMIT: Amount = { units: 10n ** 20n, scale: 0 };

/** One step of a route: sell gives the pair's base for its quote, buy gives the quote for the base. */
export type Leg = { pairId: string; side: 'sell' | 'buy'; from: string; to: string };

/** The routes that could join two currencies, best first: the direct market, then through USD. */
export function candidateRoutes(view: MarketView, from: string, to: string): Leg[][] {
  const routes: Leg[][] = [];
  if (from === to) return routes;
  const direct = directLeg(view, from, to);
  if (direct) routes.push([direct]);
  if (from !== CROSS_CURRENCY && to !== CROSS_CURRENCY) {
    const first = directLeg(view, from, CROSS_CURRENCY);
    const second = directLeg(view, CROSS_CURRENCY, to);
    if (first && second) routes.push([first, second]);
  }
  return routes;
}

function directLeg(view: MarketView, from: string, to: string): Leg | undefined {
  if (from === to) return undefined;
  const selling = view.pair(`${from}_${to}`);
  if (selling) return { pairId: selling.id, side: 'sell', from, to };
  const buying = view.pair(`${to}_${from}`);
  if (buying) return { pairId: buying.id, side: 'buy', from, to };
  return undefined;
}

/** The currencies a route passes through, e.g. ['ADA', 'USD', 'DOT']. */
export function routeCurrencies(route: readonly Leg[]): string[] {
  const first = route[0];
  return first ? [first.from, ...route.map((leg) => leg.to)] : [];
}

/** A leg's result, or why it has none: no reference at all, or one too old to trust. */
type LegPrice = { amount: Amount } | { missing: 'none' } | { missing: 'stale'; pairId: string; ageMs: number };

/** One leg at the pair's reference price: selling the base multiplies, buying it divides (rounded down). */
export function priceLeg(view: MarketView, leg: Leg, amountIn: Amount, freshness: Freshness): LegPrice {
  const reference = view.reference(leg.pairId);
  if (reference === undefined || !isPositive(reference.price)) return { missing: 'none' };
  const ageMs = freshness.nowMs - reference.timestampMs;
  if (ageMs > freshness.maxAgeMs) return { missing: 'stale', pairId: leg.pairId, ageMs };
  const amount =
    leg.side === 'sell'
      ? toScale(mul(amountIn, reference.price), WORK_SCALE, 'down')
      : div(amountIn, reference.price, WORK_SCALE, 'down');
  return { amount };
}

/** A priced conversion, in units of the currencies' last decimals (wallet/rules.ts). */
export interface ConversionPrice {
  fromCurrency: string;
  toCurrency: string;
  fromUnits: bigint;
  /** What the desk pays before the spread, rounded down to the target's decimals. */
  grossUnits: bigint;
  /** The spread kept, rounded up: CONVERSION_SPREAD_BPS of the gross. */
  spreadUnits: bigint;
  /** What the caller receives: gross - spread. */
  toUnits: bigint;
  spreadBps: number;
  /** to per one from, as received (after the spread), to 18 decimals rounded down. */
  rate: string;
  priceSource: ConversionPriceSource;
  route: string[];
}

/** A route priced leg by leg to its gross result, or why it could not be. */
function priceRoute(view: MarketView, route: readonly Leg[], amountIn: Amount, freshness: Freshness): LegPrice {
  let amount = amountIn;
  for (const leg of route) {
    const price = priceLeg(view, leg, amount, freshness);
    if (!('amount' in price)) return price;
    amount = price.amount;
  }
  return { amount };
}

/**
 * Prices `fromUnits` of `from` into `to` at the reference prices, along the first candidate route
 * whose every leg has a fresh one. CONVERSION_NOT_SUPPORTED when no route exists; PRICE_STALE when
 * a route has prices but one is older than freshness.maxAgeMs (and no other route is fresh);
 * PRICE_UNAVAILABLE when no route has prices; AMOUNT_BELOW_MINIMUM when the result is dust.
 */
export function priceConversion(
  view: MarketView,
  from: string,
  to: string,
  fromUnits: bigint,
  freshness: Freshness,
): Result<ConversionPrice> {
  const routes = candidateRoutes(view, from, to);
  if (routes.length === 0)
    return fail('CONVERSION_NOT_SUPPORTED', { details: { from_currency: from, to_currency: to } });
  const amountIn: Amount = { units: fromUnits, scale: currencyDecimals(from) };
  let stale: { pairId: string; ageMs: number } | undefined;
  for (const route of routes) {
    const priced = priceRoute(view, route, amountIn, freshness);
    if ('amount' in priced) return settleAmounts(from, to, amountIn, priced.amount, routeCurrencies(route));
    if (priced.missing === 'stale') stale ??= priced;
  }
  if (stale !== undefined) {
    return fail('PRICE_STALE', {
      details: {
        pair: stale.pairId,
        age_seconds: Math.floor(stale.ageMs / 1000),
        max_age_seconds: Math.floor(freshness.maxAgeMs / 1000),
      },
    });
  }
  return fail('PRICE_UNAVAILABLE', { details: { from_currency: from, to_currency: to } });
}

/** The gross rounded down to the target's decimals, the spread rounded up, the rest to the caller. */
function settleAmounts(
  from: string,
  to: string,
  amountIn: Amount,
  gross: Amount,
  route: string[],
): Result<ConversionPrice> {
  if (gte(gross, LEDGER_LIMIT)) {
    return fail('INVALID_AMOUNT', { message: 'Amount is too large', details: { field: 'from_amount' } });
  }
  const toDecimals = currencyDecimals(to);
  const grossUnits = toScale(gross, toDecimals, 'down').units;
  const spreadUnits = applyBps({ units: grossUnits, scale: 0 }, BigInt(CONVERSION_SPREAD_BPS), 0, 'up').units;
  const toUnits = grossUnits - spreadUnits;
  if (toUnits <= 0n) {
    return fail('AMOUNT_BELOW_MINIMUM', {
      message: `The amount converts to less than the smallest unit of ${to}`,
      details: { field: 'from_amount' },
    });
  }
  const rate = div({ units: toUnits, scale: toDecimals }, amountIn, WORK_SCALE, 'down');
  return ok({
    fromCurrency: from,
    toCurrency: to,
    fromUnits: amountIn.units,
    grossUnits,
    spreadUnits,
    toUnits,
    spreadBps: CONVERSION_SPREAD_BPS,
    rate: formatDecimal(rate, { trimZeros: true }),
    priceSource: 'reference',
    route,
  });
}

/**
 * A currency's USD price, for the minimum and the exposure limits: USD is 1; else the reference
 * price of its USD market (whatever its age: pricing itself refuses stale prices); else the
 * catalogue's static reference price. Never a book: users move books.
 */
export function usdPrice(view: MarketView, currency: string): Amount | undefined {
  if (currency === CROSS_CURRENCY) return { units: 1n, scale: 0 };
  const reference = view.reference(`${currency}_${CROSS_CURRENCY}`);
  if (reference !== undefined && isPositive(reference.price)) return reference.price;
  const fallback = REFERENCE_PRICES_USD[currency];
  return fallback === undefined ? undefined : decimal(fallback);
}

/**
 * What `units` of `currency` are worth in USD for the exposure limits: at usdPrice, rounded up to
 * the cent (in the house's favour: a conversion counts for at least what it is worth).
 */
export function usdValue(view: MarketView, currency: string, units: bigint): Amount | undefined {
  const price = usdPrice(view, currency);
  if (price === undefined) return undefined;
  return toScale(mul({ units, scale: currencyDecimals(currency) }, price), 2, 'up');
}

/**
 * The smallest conversion: worth CONVERSION_MIN_USD at the currency's USD price (usdPrice),
 * rounded up to its decimals. 'Minimum conversion amount is {min} {X}' below it.
 */
export function checkMinimum(view: MarketView, currency: string, units: bigint): Result<true> {
  const price = usdPrice(view, currency);
  if (price === undefined || !isPositive(price)) return fail('PRICE_UNAVAILABLE', { details: { currency } });
  const decimals = currencyDecimals(currency);
  const minimum = div(decimal(CONVERSION_MIN_USD), price, decimals, 'up');
  const amount: Amount = { units, scale: decimals };
  if (lt(amount, minimum)) {
    const text = formatDecimal(minimum, { trimZeros: true });
    return failWithText(
      'AMOUNT_BELOW_MINIMUM',
      'conversionMinimum',
      { minimum: text, currency },
      { field: 'from_amount', minimum: text, currency },
    );
  }
  return ok(true);
}
