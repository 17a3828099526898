import { COIN_NAME_BY_SYMBOL, COIN_TYPE_BY_SYMBOL, type CoinType } from '@platform/contracts';
import { type Amount, add, compare, formatDecimal, mulToScale } from '@platform/money';
import { isDollarQuote, percentDirection, toAmount } from '../../lib/format.ts';
import type { LivePair } from '../market-data/index.ts';

/**
 * The Markets screen's data work as plain functions: filter, sort and the home overview. Amounts
 * are compared and summed exactly; nothing here converts a price to a number.
 */

export const marketQuotes = ['USD', 'USDT', 'BTC', 'ETH'] as const;
export type MarketQuote = (typeof marketQuotes)[number];

/** Category filters; `major` is shown as "Popular". Categories come from the coin catalogue's types. */
export const marketCategories = ['all', 'major', 'stable', 'defi', 'meme', 'layer2', 'altcoin'] as const;
export type MarketCategory = (typeof marketCategories)[number];

export const sortColumns = ['pair', 'price', 'change', 'volume', 'marketCap'] as const;
export type SortColumn = (typeof sortColumns)[number];
export type SortDirection = 'asc' | 'desc';
export interface MarketSort {
  column: SortColumn;
  direction: SortDirection;
}

/** Numbers read best largest first; names A to Z. */
export function defaultDirection(column: SortColumn): SortDirection {
  return column === 'pair' ? 'asc' : 'desc';
}

/** Clicking the sorted column flips it; another column starts in its natural direction. */
export function nextSort(current: MarketSort, column: SortColumn): MarketSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: defaultDirection(column) };
}

export function coinName(symbol: string): string {
  return COIN_NAME_BY_SYMBOL[symbol] ?? symbol;
}

export function coinType(symbol: string): CoinType | null {
  return COIN_TYPE_BY_SYMBOL[symbol] ?? null;
}

export interface MarketFilter {
  quote: MarketQuote;
  category: MarketCategory;
  search: string;
  favouritesOnly?: boolean;
  favourites?: ReadonlySet<string>;
}

/** Matches the symbol, the pair (BTC/USD, BTCUSD, BTC_USD) and the coin's name, case-insensitively. */
export function matchesSearch(pair: Pick<LivePair, 'id' | 'baseCurrency' | 'symbol'>, search: string): boolean {
  const text = search.trim().toLowerCase();
  if (!text) return true;
  const haystacks = [
    pair.baseCurrency.toLowerCase(),
    pair.symbol.toLowerCase(),
    pair.id.toLowerCase(),
    pair.id.replace('_', '').toLowerCase(),
    coinName(pair.baseCurrency).toLowerCase(),
  ];
  return haystacks.some((haystack) => haystack.includes(text));
}

export function filterMarkets(pairs: readonly LivePair[], filter: MarketFilter): LivePair[] {
  return pairs.filter((pair) => {
    if (pair.quoteCurrency !== filter.quote) return false;
    if (filter.category !== 'all' && coinType(pair.baseCurrency) !== filter.category) return false;
    if (filter.favouritesOnly && !filter.favourites?.has(pair.id)) return false;
    return matchesSearch(pair, filter.search);
  });
}

/** Market caps by base coin (from the statistics), as decimal strings. */
export type MarketCaps = ReadonlyMap<string, string | null>;

function sortValue(pair: LivePair, column: SortColumn, caps: MarketCaps): Amount | null {
  switch (column) {
    case 'price':
      return toAmount(pair.price);
    case 'change':
      return toAmount(pair.changePercent24h);
    case 'volume':
      return toAmount(pair.quoteVolume24h);
    case 'marketCap':
      return toAmount(caps.get(pair.baseCurrency) ?? null);
    case 'pair':
      return null;
  }
}

/** Sorted copy; missing values go last whatever the direction; ties keep the symbol order. */
export function sortMarkets(pairs: readonly LivePair[], sort: MarketSort, caps: MarketCaps = new Map()): LivePair[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const bySymbol = (a: LivePair, b: LivePair) => a.symbol.localeCompare(b.symbol);
  if (sort.column === 'pair') return [...pairs].sort((a, b) => sign * bySymbol(a, b));
  const keyed = pairs.map((pair) => ({ pair, value: sortValue(pair, sort.column, caps) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value === b.value) return bySymbol(a.pair, b.pair);
      return a.value === null ? 1 : -1;
    }
    return sign * compare(a.value, b.value) || bySymbol(a.pair, b.pair);
  });
  return keyed.map((entry) => entry.pair);
}

/** The quote currency's USD price: 1 for dollar quotes, else the live price of QUOTE_USD. */
export function usdRate(quote: string, pairsById: ReadonlyMap<string, LivePair>): Amount | null {
  if (isDollarQuote(quote)) return { units: 1n, scale: 0 };
  return toAmount(pairsById.get(`${quote}_USD`)?.price ?? null);
}

/** A pair's 24 h volume in US dollars, to the cent, or null when it cannot be converted. */
export function usdVolume(pair: LivePair, pairsById: ReadonlyMap<string, LivePair>): Amount | null {
  const volume = toAmount(pair.quoteVolume24h);
  const rate = usdRate(pair.quoteCurrency, pairsById);
  if (!volume || !rate) return null;
  return mulToScale(volume, rate, 2, 'half_up');
}

export interface MarketOverview {
  marketCount: number;
  /** Sum of every market's 24 h volume in US dollars (decimal string). */
  totalVolumeUsd: string;
  gainers: LivePair[];
  losers: LivePair[];
  /** Dollar markets, highest volume first, one market per coin. */
  trending: LivePair[];
  /** Dollar markets up and down over 24 h. */
  advancing: number;
  declining: number;
}

export const OVERVIEW_LIST_SIZE = 5;

/**
 * The home overview from the live pairs. Gainers and losers are taken from the dollar markets
 * (USD, else USDT) so that one coin does not fill the list through its several quotes.
 */
export function computeOverview(pairs: readonly LivePair[], size = OVERVIEW_LIST_SIZE): MarketOverview {
  const pairsById = new Map(pairs.map((pair) => [pair.id, pair]));
  let total: Amount = { units: 0n, scale: 2 };
  const volumes = new Map<string, Amount>();
  for (const pair of pairs) {
    const volume = usdVolume(pair, pairsById);
    if (!volume) continue;
    volumes.set(pair.id, volume);
    total = add(total, volume);
  }
  const usdMarkets = pairs.filter((pair) => pair.quoteCurrency === 'USD');
  const dollarMarkets = usdMarkets.length > 0 ? usdMarkets : pairs.filter((pair) => isDollarQuote(pair.quoteCurrency));
  const withChange = dollarMarkets.filter((pair) => toAmount(pair.changePercent24h) !== null);
  const byChange = sortMarkets(withChange, { column: 'change', direction: 'desc' });
  const gainers = byChange.filter((pair) => percentDirection(pair.changePercent24h) > 0).slice(0, size);
  const losers = byChange
    .filter((pair) => percentDirection(pair.changePercent24h) < 0)
    .reverse()
    .slice(0, size);
  const seenCoins = new Set<string>();
  const trending = [...dollarMarkets]
    .filter((pair) => volumes.has(pair.id))
    .sort((a, b) => {
      const left = volumes.get(a.id);
      const right = volumes.get(b.id);
      return left && right ? compare(right, left) || a.symbol.localeCompare(b.symbol) : 0;
    })
    .filter((pair) => {
      if (seenCoins.has(pair.baseCurrency)) return false;
      seenCoins.add(pair.baseCurrency);
      return true;
    })
    .slice(0, size);
  return {
    marketCount: pairs.length,
    totalVolumeUsd: formatDecimal(total),
    gainers,
    losers,
    trending,
    advancing: dollarMarkets.filter((pair) => percentDirection(pair.changePercent24h) > 0).length,
    declining: dollarMarkets.filter((pair) => percentDirection(pair.changePercent24h) < 0).length,
  };
}
