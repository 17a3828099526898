import { COIN_NAME_BY_SYMBOL } from '@platform/contracts';
import { compare, decimal } from '@platform/money';

/** The pair selector's tabs and search (spec §2.6), as plain functions over the pairs list. */

/** Quote tabs come first in this order; any other quote currency follows alphabetically. */
const PREFERRED_QUOTES = ['USD', 'USDT', 'BTC', 'ETH'];

export const FAVOURITES_TAB = 'favourites';
export type PairSelectorTab = typeof FAVOURITES_TAB | string;

interface SelectablePair {
  id: string;
  baseCurrency: string;
  quoteCurrency: string;
}

/** The quote currencies of the pairs, as tabs. */
export function quoteTabs(pairs: readonly SelectablePair[]): string[] {
  const quotes = new Set(pairs.map((pair) => pair.quoteCurrency.toUpperCase()));
  const preferred = PREFERRED_QUOTES.filter((quote) => quotes.has(quote));
  const others = [...quotes].filter((quote) => !PREFERRED_QUOTES.includes(quote)).sort();
  return [...preferred, ...others];
}

/** The coin's name for searching and for a subtitle ('Bitcoin'), when known. */
export function coinName(symbol: string): string | null {
  return COIN_NAME_BY_SYMBOL[symbol.toUpperCase()] ?? null;
}

/** No match. */
const NO_MATCH = -1;

/**
 * How well a pair answers a search, best first: the base symbol itself, the symbol's start
 * ('ETH', 'ETHB' for ETH/BTC), anywhere in the base, the start of the coin's name, anywhere in
 * the name ('ether' finds Ethereum before Tether).
 */
export function matchRank(pair: SelectablePair, query: string): number {
  if (query === '') return 0;
  const base = pair.baseCurrency.toUpperCase();
  const compact = query.replace(/[\s/_-]/g, '');
  if (compact === '') return 0;
  const name = (coinName(base) ?? '').toUpperCase();
  if (base === compact) return 0;
  if (`${base}${pair.quoteCurrency.toUpperCase()}`.startsWith(compact)) return 1;
  if (base.includes(compact)) return 2;
  if (name.startsWith(query)) return 3;
  if (name.includes(query)) return 4;
  return NO_MATCH;
}

/**
 * The pairs' places by value traded over 24 h (quote volume), largest first, so a quote tab opens
 * on its busiest markets (BTC/USD before the stablecoins); pairs without a volume keep the list's
 * order after them. Taken once when the selector opens: rows do not jump while being read.
 */
export function valueTradedOrder(
  pairs: readonly { id: string; quoteVolume24h: string | null }[],
): ReadonlyMap<string, number> {
  const known = pairs.filter((pair) => pair.quoteVolume24h !== null);
  const ranked = known
    .map((pair, index) => ({ id: pair.id, index, volume: decimal(pair.quoteVolume24h ?? '0') }))
    .sort((a, b) => compare(b.volume, a.volume) || a.index - b.index);
  const unknown = pairs.filter((pair) => pair.quoteVolume24h === null);
  return new Map([...ranked, ...unknown].map((pair, place) => [pair.id, place]));
}

/**
 * The rows of a tab for a search: the tab's pairs (favourites in the user's order; a quote tab's
 * in `order` when given, else the list's), those whose base symbol, BASE/QUOTE symbol or coin
 * name contains the search, case-insensitive, best matches first (`matchRank`; ties keep that order).
 */
export function filterPairs<Pair extends SelectablePair>(
  pairs: readonly Pair[],
  tab: PairSelectorTab,
  search: string,
  favouriteIds: readonly string[],
  order?: ReadonlyMap<string, number>,
): Pair[] {
  const query = search.trim().toUpperCase();
  const byId = new Map(pairs.map((pair) => [pair.id, pair]));
  const place = (pair: Pair) => order?.get(pair.id) ?? Number.MAX_SAFE_INTEGER;
  const inTab =
    tab === FAVOURITES_TAB
      ? favouriteIds.flatMap((id) => byId.get(id) ?? [])
      : pairs.filter((pair) => pair.quoteCurrency.toUpperCase() === tab).sort((a, b) => place(a) - place(b));
  if (query === '') return inTab;
  return inTab
    .map((pair) => ({ pair, rank: matchRank(pair, query) }))
    .filter((entry) => entry.rank !== NO_MATCH)
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.pair);
}
