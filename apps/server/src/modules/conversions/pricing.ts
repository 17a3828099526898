import {
  CONVERSION_MIN_USD,
  CONVERSION_SPREAD_BPS,
  type ConversionPriceSource,
  REFERENCE_PRICES_USD,
} from '@platform/contracts';
import {
  type Amount,
  add,
  applyBps,
  decimal,
  div,
  formatDecimal,
  gte,
  isPositive,
  lt,
  min,
  mul,
  sub,
  toScale,
  zero,
} from '@platform/money';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { currencyDecimals } from '../wallet/rules.ts';

/**
 * The house desk's prices, pure: a conversion walks the live book of the pair for the amount,
 * falls back to the reference price when the book cannot fill it, goes through USD when no market
 * joins the two currencies, and keeps a disclosed spread. Every amount is exact; every rounding is
 * in the house's favour.
 */

/** A book level: price (quote per base) and quantity (base). */
export type BookLevel = readonly [price: Amount, quantity: Amount];
export type BookSides = { bids: readonly BookLevel[]; asks: readonly BookLevel[] };
export type MarketPair = { id: string; base: string; quote: string };

/** What pricing reads of the markets: read-only, answered from memory. */
export interface MarketView {
  /** A tradable spot market, by id (BASE_QUOTE). */
  pair(id: string): MarketPair | undefined;
  /** Best levels first (bids high to low, asks low to high). */
  book(id: string): BookSides | undefined;
  /** The pair's reference price (the price feed's), if one is known. */
  reference(id: string): Amount | undefined;
}

/** Currencies a cross goes through when no market joins two currencies. */
export const CROSS_CURRENCY = 'USD';

/**
 * Intermediate amounts (a first leg's result, a partial level) keep this many decimals, the
 * ledger's, rounded down: the final amount is rounded to the target's decimals anyway.
 */
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

/**
 * What selling `quantity` base into the bids pays in quote, level by level; undefined when the
 * book holds less than the quantity.
 */
export function walkBids(bids: readonly BookLevel[], quantity: Amount): Amount | undefined {
  let remaining = quantity;
  let proceeds = zero();
  for (const [price, size] of bids) {
    if (!isPositive(remaining)) break;
    const take = min(size, remaining);
    proceeds = add(proceeds, mul(take, price));
    remaining = sub(remaining, take);
  }
  return isPositive(remaining) ? undefined : proceeds;
}

/**
 * What spending `money` quote on the asks buys in base, level by level (the last level partly,
 * rounded down); undefined when the whole book costs less than the money.
 */
export function walkAsks(asks: readonly BookLevel[], money: Amount): Amount | undefined {
  let remaining = money;
  let bought = zero();
  for (const [price, size] of asks) {
    if (!isPositive(remaining)) break;
    if (!isPositive(price)) continue;
    const cost = mul(size, price);
    if (gte(remaining, cost)) {
      bought = add(bought, size);
      remaining = sub(remaining, cost);
    } else {
      bought = add(bought, div(remaining, price, WORK_SCALE, 'down'));
      remaining = zero();
    }
  }
  return isPositive(remaining) ? undefined : bought;
}

type LegPrice = { amount: Amount; source: ConversionPriceSource };

/** One leg: the book when it fills the amount, else the reference price, else no price. */
export function priceLeg(view: MarketView, leg: Leg, amountIn: Amount): LegPrice | undefined {
  const book = view.book(leg.pairId);
  const fromBook = book
    ? leg.side === 'sell'
      ? walkBids(book.bids, amountIn)
      : walkAsks(book.asks, amountIn)
    : undefined;
  if (fromBook !== undefined && isPositive(fromBook)) {
    return { amount: toScale(fromBook, WORK_SCALE, 'down'), source: 'order_book' };
  }
  const reference = view.reference(leg.pairId);
  if (reference === undefined || !isPositive(reference)) return undefined;
  const amount =
    leg.side === 'sell'
      ? toScale(mul(amountIn, reference), WORK_SCALE, 'down')
      : div(amountIn, reference, WORK_SCALE, 'down');
  return { amount, source: 'reference' };
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

/**
 * Prices `fromUnits` of `from` into `to` along the first candidate route that has a price for
 * every leg. PRICE_UNAVAILABLE when none has; CONVERSION_NOT_SUPPORTED when no route exists;
 * AMOUNT_BELOW_MINIMUM when the result is dust (nothing left after rounding and the spread).
 */
export function priceConversion(
  view: MarketView,
  from: string,
  to: string,
  fromUnits: bigint,
): Result<ConversionPrice> {
  const routes = candidateRoutes(view, from, to);
  if (routes.length === 0)
    return fail('CONVERSION_NOT_SUPPORTED', { details: { from_currency: from, to_currency: to } });
  const fromDecimals = currencyDecimals(from);
  const toDecimals = currencyDecimals(to);
  const amountIn: Amount = { units: fromUnits, scale: fromDecimals };
  for (const route of routes) {
    let amount = amountIn;
    let source: ConversionPriceSource = 'order_book';
    let priced = true;
    for (const leg of route) {
      const price = priceLeg(view, leg, amount);
      if (price === undefined) {
        priced = false;
        break;
      }
      amount = price.amount;
      if (price.source === 'reference') source = 'reference';
    }
    if (!priced) continue;
    if (gte(amount, LEDGER_LIMIT)) {
      return fail('INVALID_AMOUNT', { message: 'Amount is too large', details: { field: 'from_amount' } });
    }
    const grossUnits = toScale(amount, toDecimals, 'down').units;
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
      fromUnits,
      grossUnits,
      spreadUnits,
      toUnits,
      spreadBps: CONVERSION_SPREAD_BPS,
      rate: formatDecimal(rate, { trimZeros: true }),
      priceSource: source,
      route: routeCurrencies(route),
    });
  }
  return fail('PRICE_UNAVAILABLE', { details: { from_currency: from, to_currency: to } });
}

/**
 * A currency's USD price for the minimum: USD is 1; else the reference price of its USD market,
 * else the middle of that market's best bid and ask, else the catalogue's static reference price.
 */
export function usdPrice(view: MarketView, currency: string): Amount | undefined {
  if (currency === CROSS_CURRENCY) return { units: 1n, scale: 0 };
  const pairId = `${currency}_${CROSS_CURRENCY}`;
  const reference = view.reference(pairId);
  if (reference !== undefined && isPositive(reference)) return reference;
  const book = view.book(pairId);
  const bid = book?.bids[0]?.[0];
  const ask = book?.asks[0]?.[0];
  if (bid !== undefined && ask !== undefined) return div(add(bid, ask), { units: 2n, scale: 0 }, WORK_SCALE, 'down');
  const either = bid ?? ask;
  if (either !== undefined && isPositive(either)) return either;
  const fallback = REFERENCE_PRICES_USD[currency];
  return fallback === undefined ? undefined : decimal(fallback);
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
    return fail('AMOUNT_BELOW_MINIMUM', {
      message: `Minimum conversion amount is ${text} ${currency}`,
      details: { field: 'from_amount', minimum: text, currency },
    });
  }
  return ok(true);
}
