import { tradePathForPair } from '@platform/contracts';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, GripVertical, Plus, Search, Star, X } from 'lucide-react';
import { type KeyboardEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { type LivePair, useLivePairs } from '../market-data/index.ts';
import { CoinIcon } from '../markets/coin-icon.tsx';
import { ChangeText, LivePrice } from '../markets/live-values.tsx';
import { coinName, matchesSearch } from '../markets/markets-model.ts';
import { useWatchlist } from './use-watchlist.ts';

/** Suggestions shown under the add box. */
const SUGGESTIONS_SHOWN = 8;

/** The router's lazy module for /watchlist (routes/route-modules.ts). */
export { WatchlistScreen as Component };

/** Spec §2.1 /watchlist: the markets the user follows, live; add, remove and reorder. */
export function WatchlistScreen() {
  const { t } = useTranslation();
  const watchlist = useWatchlist();
  const { pairs, isLoading } = useLivePairs(watchlist.pairIds);
  const byId = useMemo(() => new Map(pairs.map((pair) => [pair.id, pair])), [pairs]);

  return (
    <div className="screen watchlist-screen">
      <PageHeader
        title={t('pages.watchlist.title')}
        description={watchlist.storage === 'account' ? t('watchlist.storedOnAccount') : t('watchlist.storedInBrowser')}
      />
      <AddPair pairs={pairs} watched={watchlist.pairIds} onAdd={watchlist.add} />
      {watchlist.isLoading || (isLoading && watchlist.pairIds.length > 0) ? (
        <p className="muted">{t('app.loading')}</p>
      ) : watchlist.pairIds.length === 0 ? (
        <div className="empty-state" data-testid="watchlist-list">
          <Star size={22} aria-hidden="true" />
          <p>{t('watchlist.empty')}</p>
          <Link to="/markets">{t('watchlist.browseMarkets')}</Link>
        </div>
      ) : (
        <WatchlistItems
          pairIds={watchlist.pairIds}
          byId={byId}
          onRemove={watchlist.remove}
          onMove={watchlist.move}
          onMoveTo={watchlist.moveTo}
        />
      )}
    </div>
  );
}

function AddPair({
  pairs,
  watched,
  onAdd,
}: {
  pairs: readonly LivePair[];
  watched: readonly string[];
  onAdd: (pairId: string) => void;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const suggestions = useMemo(() => {
    if (!query.trim()) return [];
    const exclude = new Set(watched);
    return pairs.filter((pair) => !exclude.has(pair.id) && matchesSearch(pair, query)).slice(0, SUGGESTIONS_SHOWN);
  }, [pairs, watched, query]);
  const add = (pairId: string) => {
    onAdd(pairId);
    setQuery('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && suggestions[0]) {
      event.preventDefault();
      add(suggestions[0].id);
    }
    if (event.key === 'Escape') setQuery('');
  };
  return (
    <div className="watchlist-add">
      <label className="markets-search">
        <Search size={15} aria-hidden="true" className="markets-search-icon" />
        <span className="visually-hidden">{t('watchlist.addLabel')}</span>
        <input
          type="search"
          className="input"
          placeholder={t('watchlist.addPlaceholder')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
          data-testid="watchlist-add-input"
          autoComplete="off"
        />
      </label>
      {query.trim() ? (
        <ul className="watchlist-suggestions" data-testid="watchlist-suggestions">
          {suggestions.length === 0 ? (
            <li className="muted watchlist-suggestion-empty">{t('watchlist.noMatches')}</li>
          ) : (
            suggestions.map((pair) => (
              <li key={pair.id}>
                <button
                  type="button"
                  className="watchlist-suggestion"
                  onClick={() => add(pair.id)}
                  data-testid={`watchlist-add-${pair.id}`}
                >
                  <CoinIcon symbol={pair.baseCurrency} size={22} />
                  <span className="pair-symbol">
                    {pair.baseCurrency}
                    <span className="pair-quote">/{pair.quoteCurrency}</span>
                  </span>
                  <span className="muted">{coinName(pair.baseCurrency)}</span>
                  <Plus size={14} aria-hidden="true" className="watchlist-suggestion-plus" />
                </button>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}

function WatchlistItems({
  pairIds,
  byId,
  onRemove,
  onMove,
  onMoveTo,
}: {
  pairIds: readonly string[];
  byId: ReadonlyMap<string, LivePair>;
  onRemove: (pairId: string) => void;
  onMove: (pairId: string, direction: -1 | 1) => void;
  onMoveTo: (from: number, to: number) => void;
}) {
  const { t } = useTranslation();
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState<number | null>(null);
  return (
    <ol className="watchlist-list" data-testid="watchlist-list">
      {pairIds.map((pairId, index) => {
        const pair = byId.get(pairId);
        const [base = pairId, quote = ''] = pairId.split('_');
        const symbol = `${base}/${quote}`;
        return (
          <li
            key={pairId}
            className={clsx('watchlist-item', dragOver === index && dragFrom !== index && 'drag-over')}
            data-testid={`watchlist-item-${pairId}`}
            draggable
            onDragStart={(event) => {
              setDragFrom(index);
              event.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(event) => {
              event.preventDefault();
              setDragOver(index);
            }}
            onDragEnd={() => {
              setDragFrom(null);
              setDragOver(null);
            }}
            onDrop={(event) => {
              event.preventDefault();
              if (dragFrom !== null) onMoveTo(dragFrom, index);
              setDragFrom(null);
              setDragOver(null);
            }}
          >
            <GripVertical size={14} className="drag-handle" aria-hidden="true" />
            <Link className="watchlist-pair" to={tradePathForPair(base, quote)}>
              <CoinIcon symbol={base} />
              <span className="pair-text">
                <span className="pair-symbol">
                  {base}
                  <span className="pair-quote">/{quote}</span>
                </span>
                <span className="pair-name-small">{coinName(base)}</span>
              </span>
            </Link>
            <span className="watchlist-values">
              <LivePrice
                price={pair?.price ?? null}
                quoteCurrency={quote}
                testId={`watchlist-price-${pairId}`}
                className="watchlist-price"
              />
              <ChangeText value={pair?.changePercent24h ?? null} pill />
            </span>
            <span className="watchlist-actions">
              <button
                type="button"
                className="icon-button icon-button-sm"
                onClick={() => onMove(pairId, -1)}
                disabled={index === 0}
                aria-label={t('watchlist.moveUp', { pair: symbol })}
                title={t('watchlist.moveUp', { pair: symbol })}
                data-testid={`watchlist-up-${pairId}`}
              >
                <ArrowUp size={14} aria-hidden="true" />
              </button>
              <button
                type="button"
                className="icon-button icon-button-sm"
                onClick={() => onMove(pairId, 1)}
                disabled={index === pairIds.length - 1}
                aria-label={t('watchlist.moveDown', { pair: symbol })}
                title={t('watchlist.moveDown', { pair: symbol })}
                data-testid={`watchlist-down-${pairId}`}
              >
                <ArrowDown size={14} aria-hidden="true" />
              </button>
              <button
                type="button"
                className="icon-button icon-button-sm watchlist-remove"
                onClick={() => onRemove(pairId)}
                aria-label={t('watchlist.remove', { pair: symbol })}
                title={t('watchlist.remove', { pair: symbol })}
                data-testid={`watchlist-remove-${pairId}`}
              >
                <X size={14} aria-hidden="true" />
              </button>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
