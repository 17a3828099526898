import {
  PORTFOLIO_PERCENT_SCALE,
  type PortfolioHolding,
  type PortfolioPosition,
  type PortfolioPriceSource,
  REFERENCE_PRICES_USD,
} from '@platform/contracts';
import {
  type Amount,
  add,
  compare,
  decimal,
  div,
  formatDecimal,
  isPositive,
  isZero,
  mul,
  parseDecimal,
  sub,
  sum,
  zero,
} from '@platform/money';

/**
 * The portfolio's arithmetic, pure: balances times USD prices, shares and changes. Values are exact
 * products and sums (never rounded); only percentages round, to PORTFOLIO_PERCENT_SCALE decimals.
 */

const ONE: Amount = { units: 1n, scale: 0 };
const HUNDRED: Amount = { units: 100n, scale: 0 };

/** A currency's USD price now and 24 h ago, and where it came from. */
export type UsdPrice = { price: Amount; open24h: Amount; source: PortfolioPriceSource };
export type PriceLookup = (currency: string) => UsdPrice | undefined;
export type DayQuote = { price: string; open24h: string };

/** Our own decimal texts (the feed's, the catalogue's); anything else, or a price of zero, reads as none. */
function positiveAmount(text: string | undefined): Amount | undefined {
  if (text === undefined) return undefined;
  const parsed = parseDecimal(text, { maxScale: 30, maxIntegerDigits: 30 });
  return parsed.ok && isPositive(parsed.value) ? parsed.value : undefined;
}

/**
 * The USD price chain the rest of the server uses (conversions' usdPrice): USD is 1; else the
 * reference price of the currency's USD pair (the price sources', never a trade on our book, with
 * the reference track's open as its price 24 h ago); else the catalogue's static reference price
 * (stablecoins at 1.0000), whose 24 h change is 0.
 */
export function usdPriceLookup(dayQuote: (pairId: string) => DayQuote | undefined): PriceLookup {
  return (currency) => {
    if (currency === 'USD') return { price: ONE, open24h: ONE, source: 'unit' };
    const quote = dayQuote(`${currency}_USD`);
    const price = positiveAmount(quote?.price);
    if (price) return { price, open24h: positiveAmount(quote?.open24h) ?? price, source: 'reference' };
    const fallback = positiveAmount(REFERENCE_PRICES_USD[currency]);
    return fallback && { price: fallback, open24h: fallback, source: 'catalogue' };
  };
}

export const text = (value: Amount) => formatDecimal(value, { trimZeros: true });

/** part / whole x 100 to the percent scale, half to even (as the feed's 24 h change); null over zero. */
export function percentOf(part: Amount, whole: Amount): Amount | null {
  if (isZero(whole)) return null;
  return div(mul(part, HUNDRED), whole, PORTFOLIO_PERCENT_SCALE, 'half_even');
}

/**
 * Each value's share of their sum in percent, rounded toward zero to the percent scale, with what
 * the rounding left (so that the shares sum to exactly 100) put on the largest value (the first of
 * equals). Zeros everywhere when the sum is not positive: nothing to share.
 */
export function shares(values: readonly Amount[]): Amount[] {
  const total = sum([zero(), ...values]);
  if (!isPositive(total)) return values.map(() => zero(PORTFOLIO_PERCENT_SCALE));
  const result = values.map((value) => div(mul(value, HUNDRED), total, PORTFOLIO_PERCENT_SCALE, 'down'));
  let largest = 0;
  values.forEach((value, index) => {
    if (compare(value, values[largest]!) > 0) largest = index;
  });
  result[largest] = add(result[largest]!, sub(HUNDRED, sum([zero(), ...result])));
  return result;
}

/** A spot balance valued: the wire row without its share, and the exact figures the totals need. */
export type ValuedHolding = {
  row: Omit<
    PortfolioHolding,
    'share_percent' | 'average_cost' | 'cost_basis' | 'unrealised_pnl' | 'unrealised_pnl_percent'
  >;
  value: Amount | null;
  value24hAgo: Amount | null;
  lockedValue: Amount;
};

export function valueHolding(
  balance: { currency: string; available: string; locked: string },
  prices: PriceLookup,
): ValuedHolding {
  const available = decimal(balance.available);
  const locked = decimal(balance.locked);
  const amount = add(available, locked);
  const price = prices(balance.currency);
  const value = price ? mul(amount, price.price) : null;
  const change = price ? percentOf(sub(price.price, price.open24h), price.open24h) : null;
  return {
    row: {
      asset: balance.currency,
      amount: text(amount),
      available: text(available),
      locked: text(locked),
      price: price ? text(price.price) : null,
      price_source: price?.source ?? null,
      value: value ? text(value) : null,
      price_24h_ago: price ? text(price.open24h) : null,
      change_24h_percent: change ? text(change) : null,
    },
    value,
    value24hAgo: price ? mul(amount, price.open24h) : null,
    lockedValue: price ? mul(locked, price.price) : zero(),
  };
}

/** Largest value first, unpriced last, then by asset: the order of the holdings table. */
export function byValue(a: ValuedHolding, b: ValuedHolding): number {
  if (a.value === null || b.value === null) {
    if (a.value !== b.value) return a.value === null ? 1 : -1;
  } else {
    const order = compare(b.value, a.value);
    if (order !== 0) return order;
  }
  return a.row.asset < b.row.asset ? -1 : a.row.asset > b.row.asset ? 1 : 0;
}

/**
 * How far the mark may move against a position before it reaches its liquidation price, in % of
 * the mark: (mark - liquidation) / mark for a long, (liquidation - mark) / mark for a short,
 * rounded toward negative infinity (a distance is never shown larger than it is). Negative once
 * the mark is past it (the liquidation engine is then on its way).
 */
export function distanceToLiquidation(
  side: PortfolioPosition['side'],
  markText: string,
  liquidationText: string | null,
): Amount | null {
  if (liquidationText === null) return null;
  const mark = decimal(markText);
  if (!isPositive(mark)) return null;
  const liquidation = decimal(liquidationText);
  const gap = side === 'long' ? sub(mark, liquidation) : sub(liquidation, mark);
  return div(mul(gap, HUNDRED), mark, PORTFOLIO_PERCENT_SCALE, 'floor');
}
