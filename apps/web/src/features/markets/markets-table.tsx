import { tradePathForPair } from '@platform/contracts';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { memo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatCompact } from '../../lib/format.ts';
import { type LivePair, useMarketStatistics, useSparkline } from '../market-data/index.ts';
import { CoinIcon } from './coin-icon.tsx';
import { ChangeText, FavouriteButton, LivePrice } from './live-values.tsx';
import { coinName, type MarketSort, type SortColumn } from './markets-model.ts';
import { Sparkline } from './sparkline.tsx';
import { useInView } from './use-in-view.ts';

/** Statistics whose source is the built-in simulator: their market cap is an estimate, and says so. */
const SIMULATED_SOURCE = 'simulator';

/** The statistics of a coin are asked of its US-dollar market, whichever quote the row shows. */
export function usdPairOf(baseCurrency: string): string {
  return `${baseCurrency}_USD`;
}

const columns: ReadonlyArray<{ column: SortColumn; className: string }> = [
  { column: 'pair', className: 'col-pair' },
  { column: 'price', className: 'col-price num' },
  { column: 'change', className: 'col-change num' },
  { column: 'volume', className: 'col-volume num' },
  { column: 'marketCap', className: 'col-cap num' },
];

interface MarketsTableProps {
  rows: readonly LivePair[];
  sort: MarketSort;
  onSort: (column: SortColumn) => void;
  favourites: ReadonlySet<string>;
  onToggleFavourite: (pairId: string) => void;
  onPointerInside?: (inside: boolean) => void;
}

export function MarketsTable({
  rows,
  sort,
  onSort,
  favourites,
  onToggleFavourite,
  onPointerInside,
}: MarketsTableProps) {
  const { t } = useTranslation();
  return (
    <div className="markets-table-wrap">
      <table
        className="markets-table"
        data-testid="markets-table"
        onPointerEnter={() => onPointerInside?.(true)}
        onPointerLeave={() => onPointerInside?.(false)}
      >
        <thead>
          <tr>
            <th className="col-fav" aria-label={t('markets.columns.favourite')} />
            {columns.map(({ column, className }) => {
              const active = sort.column === column;
              const SortIcon = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown;
              return (
                <th
                  key={column}
                  className={className}
                  aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <button
                    type="button"
                    className={clsx('sort-button', active && 'active')}
                    onClick={() => onSort(column)}
                    data-testid={`markets-sort-${column}`}
                  >
                    {t(`markets.columns.${column}`)}
                    <SortIcon size={12} aria-hidden="true" className="sort-icon" />
                  </button>
                </th>
              );
            })}
            <th className="col-chart num">{t('markets.columns.chart')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((pair) => (
            <MarketRow
              key={pair.id}
              pair={pair}
              favourite={favourites.has(pair.id)}
              onToggleFavourite={onToggleFavourite}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const MarketRow = memo(function MarketRow({
  pair,
  favourite,
  onToggleFavourite,
}: {
  pair: LivePair;
  favourite: boolean;
  onToggleFavourite: (pairId: string) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rowRef = useRef<HTMLTableRowElement>(null);
  const inView = useInView(rowRef);
  const statistics = useMarketStatistics(usdPairOf(pair.baseCurrency), inView);
  const sparkline = useSparkline(pair.id, inView);
  const path = tradePathForPair(pair.baseCurrency, pair.quoteCurrency);
  const name = coinName(pair.baseCurrency);
  return (
    <tr
      ref={rowRef}
      className="market-row"
      data-testid={`market-row-${pair.id}`}
      onClick={() => void navigate(path)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') void navigate(path);
      }}
      tabIndex={0}
      aria-label={t('markets.openPair', { pair: pair.symbol })}
    >
      <td className="col-fav">
        <FavouriteButton pairId={pair.id} symbol={pair.symbol} active={favourite} onToggle={onToggleFavourite} />
      </td>
      <td className="col-pair">
        <span className="pair-cell">
          <CoinIcon symbol={pair.baseCurrency} />
          <span className="pair-text">
            <span className="pair-name">{name}</span>
            <span className="pair-symbol">
              {pair.baseCurrency}
              <span className="pair-quote">/{pair.quoteCurrency}</span>
            </span>
          </span>
        </span>
      </td>
      <td className="col-price num">
        <LivePrice price={pair.price} quoteCurrency={pair.quoteCurrency} testId={`market-price-${pair.id}`} />
      </td>
      <td className="col-change num">
        <ChangeText value={pair.changePercent24h} testId={`market-change-${pair.id}`} pill />
      </td>
      <td className="col-volume num tabular">{formatCompact(pair.quoteVolume24h, pair.quoteCurrency)}</td>
      <td className="col-cap num tabular">
        {statistics.data ? (
          <>
            {formatCompact(statistics.data.market_cap, 'USD')}
            {statistics.data.market_cap !== null && statistics.data.source === SIMULATED_SOURCE && (
              <span className="figure-simulated" title={t('markets.simulatedHint')}>
                {t('markets.simulated')}
              </span>
            )}
          </>
        ) : (
          <span className={clsx('muted', statistics.isFetching && 'skeleton-text')}>—</span>
        )}
      </td>
      <td className="col-chart num">
        {sparkline.data ? (
          <Sparkline closes={sparkline.data} label={t('markets.sparklineLabel', { pair: pair.symbol })} />
        ) : (
          <span className={clsx('sparkline sparkline-empty', sparkline.isFetching && 'skeleton-block')} />
        )}
      </td>
    </tr>
  );
});

export function MarketsTableSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div className="markets-table-wrap" aria-hidden="true">
      <table className="markets-table">
        <tbody>
          {Array.from({ length: rows }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
            <tr key={index} className="market-row skeleton-row">
              <td colSpan={7} className="skeleton-cell">
                <span className="skeleton-block skeleton-line" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
