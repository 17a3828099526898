import { useQueries } from '@tanstack/react-query';
import clsx from 'clsx';
import { Search, Star } from 'lucide-react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { type LivePair, marketDataApi, marketQueryKeys, useLivePairs, useWatchPairs } from '../market-data/index.ts';
import { useWatchlist } from '../watchlist/use-watchlist.ts';
import { FeedStatusBadge } from './feed-status-badge.tsx';
import {
  filterMarkets,
  type MarketCaps,
  type MarketCategory,
  type MarketQuote,
  type MarketSort,
  marketCategories,
  marketQuotes,
  nextSort,
  type SortColumn,
  sortMarkets,
} from './markets-model.ts';
import { MarketsTable, MarketsTableSkeleton, usdPairOf } from './markets-table.tsx';
import { useStableOrder } from './use-stable-order.ts';

const NOT_WATCHING: readonly string[] = [];
const idOf = (pair: LivePair) => pair.id;

/** Market caps of the rows' coins; asked for every row only while sorting by market cap. */
function useMarketCaps(rows: readonly LivePair[], enabled: boolean): MarketCaps {
  const bases = useMemo(() => [...new Set(rows.map((pair) => pair.baseCurrency))], [rows]);
  const results = useQueries({
    queries: bases.map((base) => ({
      queryKey: marketQueryKeys.statistics(usdPairOf(base)),
      queryFn: () => marketDataApi.fetchStatistics(usdPairOf(base)),
      staleTime: 5 * 60_000,
      enabled,
    })),
  });
  const caps = new Map<string, string | null>();
  bases.forEach((base, index) => {
    const data = results[index]?.data;
    if (data) caps.set(base, data.market_cap);
  });
  return caps;
}

/** The router's lazy module for /markets (routes/route-modules.ts). */
export { MarketsScreen as Component };

/** Spec §2.1 /markets: every market, live, searchable, sortable and filterable. */
export function MarketsScreen() {
  const { t } = useTranslation();
  const [quote, setQuote] = useState<MarketQuote>('USD');
  const [category, setCategory] = useState<MarketCategory>('all');
  const [search, setSearch] = useState('');
  const [favouritesOnly, setFavouritesOnly] = useState(false);
  const [sort, setSort] = useState<MarketSort>({ column: 'volume', direction: 'desc' });
  const [pointerInside, setPointerInside] = useState(false);
  const watchlist = useWatchlist();
  const favourites = useMemo(() => new Set(watchlist.pairIds), [watchlist.pairIds]);
  const { pairs, isLoading, error, refetch } = useLivePairs(NOT_WATCHING);

  const filtered = useMemo(
    () => filterMarkets(pairs, { quote, category, search, favouritesOnly, favourites }),
    [pairs, quote, category, search, favouritesOnly, favourites],
  );
  useWatchPairs(useMemo(() => filtered.map(idOf), [filtered]));
  const caps = useMarketCaps(filtered, sort.column === 'marketCap');
  const sortRows = useCallback((rows: readonly LivePair[]) => sortMarkets(rows, sort, caps), [sort, caps]);
  const sortKey = `${sort.column}:${sort.direction}:${sort.column === 'marketCap' ? caps.size : ''}`;
  const rows = useStableOrder(filtered, idOf, sortRows, sortKey, pointerInside);
  // A stable function, so that rows whose price did not change do not re-render.
  const toggleRef = useRef(watchlist.toggle);
  toggleRef.current = watchlist.toggle;
  const toggleFavourite = useCallback((pairId: string) => toggleRef.current(pairId), []);

  return (
    <div className="screen screen-wide">
      <PageHeader
        title={t('pages.markets.title')}
        description={t('pages.markets.description')}
        actions={<FeedStatusBadge />}
      />
      <MarketsToolbar quote={quote} onQuote={setQuote} search={search} onSearch={setSearch} />
      <fieldset className="chip-row">
        <legend className="visually-hidden">{t('markets.categoryFilter')}</legend>
        <button
          type="button"
          className={clsx('chip', favouritesOnly && 'active')}
          aria-pressed={favouritesOnly}
          onClick={() => setFavouritesOnly((value) => !value)}
          data-testid="markets-favourites-only"
        >
          <Star size={13} aria-hidden="true" fill={favouritesOnly ? 'currentColor' : 'none'} />
          {t('markets.favouritesOnly')}
        </button>
        <span className="chip-divider" aria-hidden="true" />
        {marketCategories.map((key) => (
          <button
            key={key}
            type="button"
            className={clsx('chip', category === key && 'active')}
            aria-pressed={category === key}
            onClick={() => setCategory(key)}
            data-testid={`markets-category-${key}`}
          >
            {t(`markets.categories.${key}`)}
          </button>
        ))}
      </fieldset>
      {isLoading ? (
        <MarketsTableSkeleton />
      ) : error ? (
        <div className="empty-state" role="alert">
          <p>{t('markets.loadFailed')}</p>
          <Button variant="secondary" size="sm" onClick={refetch}>
            {t('common.retry')}
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <div className="empty-state" data-testid="markets-empty">
          <p>{favouritesOnly && favourites.size === 0 ? t('markets.noFavourites') : t('markets.noResults')}</p>
        </div>
      ) : (
        <MarketsTable
          rows={rows}
          sort={sort}
          onSort={(column: SortColumn) => setSort((current) => nextSort(current, column))}
          favourites={favourites}
          onToggleFavourite={toggleFavourite}
          onPointerInside={setPointerInside}
        />
      )}
      <p className="markets-footnote muted">{t('markets.footnote', { count: filtered.length })}</p>
    </div>
  );
}

interface MarketsToolbarProps {
  quote: MarketQuote;
  onQuote: (quote: MarketQuote) => void;
  search: string;
  onSearch: (search: string) => void;
}

/** The quote currency switch and the search box above the table. */
function MarketsToolbar({ quote, onQuote, search, onSearch }: MarketsToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className="markets-toolbar">
      <fieldset className="segmented">
        <legend className="visually-hidden">{t('markets.quoteFilter')}</legend>
        {marketQuotes.map((code) => (
          <button
            key={code}
            type="button"
            className={clsx('segment', quote === code && 'active')}
            aria-pressed={quote === code}
            onClick={() => onQuote(code)}
            data-testid={`markets-quote-${code}`}
          >
            {code}
          </button>
        ))}
      </fieldset>
      <label className="markets-search">
        <Search size={15} aria-hidden="true" className="markets-search-icon" />
        <span className="visually-hidden">{t('markets.searchLabel')}</span>
        <input
          type="search"
          className="input"
          placeholder={t('markets.searchPlaceholder')}
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          data-testid="markets-search"
        />
      </label>
    </div>
  );
}
