import { COIN_NAME_BY_SYMBOL } from '@platform/contracts';

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
 * The rows of a tab for a search: the tab's pairs (favourites in the user's order), those whose
 * base symbol, BASE/QUOTE symbol or coin name contains the search, case-insensitive, best
 * matches first (`matchRank`; ties keep the list's order).
 */
export function filterPairs<Pair extends SelectablePair>(
  pairs: readonly Pair[],
  tab: PairSelectorTab,
  search: string,
  favouriteIds: readonly string[],
): Pair[] {
  const query = search.trim().toUpperCase();
  const byId = new Map(pairs.map((pair) => [pair.id, pair]));
  const inTab =
    tab === FAVOURITES_TAB
      ? favouriteIds.flatMap((id) => byId.get(id) ?? [])
      : pairs.filter((pair) => pair.quoteCurrency.toUpperCase() === tab);
  if (query === '') return inTab;
  return inTab
    .map((pair) => ({ pair, rank: matchRank(pair, query) }))
    .filter((entry) => entry.rank !== NO_MATCH)
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.pair);
}
