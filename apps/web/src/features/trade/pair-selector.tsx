import clsx from 'clsx';
import { ChevronDown, Search, Star } from 'lucide-react';
import {
  type Dispatch,
  type KeyboardEvent,
  type SetStateAction,
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useDismiss } from '../../hooks/use-dismiss.ts';
import { pairSymbol } from '../../lib/format.ts';
import { type LivePair, useLivePairs, useWatchPairs } from '../market-data/index.ts';
import { CoinIcon } from '../markets/coin-icon.tsx';
import { ChangeText, FavouriteButton, LivePrice } from '../markets/live-values.tsx';
import { useWatchlist } from '../watchlist/use-watchlist.ts';
import {
  coinName,
  FAVOURITES_TAB,
  filterPairs,
  type PairSelectorTab,
  quoteTabs,
  valueTradedOrder,
} from './pair-selector-model.ts';

/** The list's own price channels are joined for the rows on show, not for every pair. */
const NOT_WATCHING: readonly string[] = [];

interface PairSelectorProps {
  pairId: string;
  onSelect: (pairId: string) => void;
}

/**
 * Spec §2.6 trading-pair selector: a button with the pair that opens a panel with a search box,
 * quote-currency tabs and a favourites tab (the watchlist). Arrows move through the pairs, Enter
 * picks, Escape closes and gives the focus back to the button.
 */
export function PairSelector({ pairId, onSelect }: PairSelectorProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const symbol = pairSymbol(pairId);
  const dismiss = useCallback(() => setOpen(false), []);
  useDismiss(rootRef, open, dismiss);

  const closeAndFocus = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  return (
    <div className="pair-selector" ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className="pair-selector-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        // Named by the pair it shows (WCAG 2.5.3); what it does is its description.
        title={t('trade.selector.open', { pair: symbol })}
        onClick={() => setOpen((current) => !current)}
        data-testid="pair-selector-button"
      >
        <CoinIcon symbol={symbol.split('/')[0] ?? symbol} size={26} />
        <span className="pair-selector-symbol" data-testid="trade-pair-symbol">
          {symbol}
        </span>
        <ChevronDown size={16} aria-hidden="true" className={clsx('pair-selector-chevron', open && 'open')} />
      </button>
      {open ? (
        <PairSelectorPanel
          id={panelId}
          currentPairId={pairId}
          onPick={(next) => {
            closeAndFocus();
            if (next !== pairId) onSelect(next);
          }}
          onEscape={closeAndFocus}
        />
      ) : null}
    </div>
  );
}

/**
 * The panel's keyboard: the search takes the focus as the panel is drawn; arrows go from the search
 * into the list and along it, Enter in the search picks the first row, typing on a row searches on.
 */
function usePairListKeys(
  rows: readonly { id: string }[],
  onPick: (pairId: string) => void,
  setSearch: Dispatch<SetStateAction<string>>,
) {
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // The panel opens to be searched, the focus in its search as it is drawn; Escape gives the focus back.
  useLayoutEffect(() => {
    searchRef.current?.focus();
  }, []);

  const options = () => Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('[data-pair-option]') ?? []);

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      options()[0]?.focus();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const first = rows[0];
      if (first) onPick(first.id);
    }
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const all = options();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    if (index === -1) return;
    const move = (next: number) => {
      event.preventDefault();
      if (next < 0) searchRef.current?.focus();
      else all[Math.min(next, all.length - 1)]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && event.key !== ' ') {
      // Typing on a row goes on with the search.
      event.preventDefault();
      setSearch((current) => current + event.key);
      searchRef.current?.focus();
    }
  };

  return { searchRef, listRef, onSearchKeyDown, onListKeyDown };
}

function PairSelectorPanel({
  id,
  currentPairId,
  onPick,
  onEscape,
}: {
  id: string;
  currentPairId: string;
  onPick: (pairId: string) => void;
  onEscape: () => void;
}) {
  const { t } = useTranslation();
  const { pairs } = useLivePairs(NOT_WATCHING);
  const watchlist = useWatchlist();
  const tabs = useMemo(() => quoteTabs(pairs), [pairs]);
  const currentQuote = currentPairId.split('_')[1] ?? 'USD';
  const [tab, setTab] = useState<PairSelectorTab>(currentQuote);
  const [search, setSearch] = useState('');
  // The busiest markets first, as ranked when the panel opened (or when its list first arrived).
  const orderRef = useRef<ReadonlyMap<string, number> | null>(null);
  if (orderRef.current === null && pairs.length > 0) orderRef.current = valueTradedOrder(pairs);
  const order = orderRef.current ?? undefined;
  const rows = useMemo(
    () => filterPairs(pairs, tab, search, watchlist.pairIds, order),
    [pairs, tab, search, watchlist.pairIds, order],
  );
  useWatchPairs(useMemo(() => rows.map((row) => row.id), [rows]));

  const { searchRef, listRef, onSearchKeyDown, onListKeyDown } = usePairListKeys(rows, onPick, setSearch);

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onEscape();
    }
  };

  return (
    <div
      id={id}
      className="pair-selector-panel"
      role="dialog"
      aria-label={t('trade.selector.dialog')}
      onKeyDown={onPanelKeyDown}
      data-testid="pair-selector-panel"
    >
      <label className="pair-selector-search">
        <Search size={15} aria-hidden="true" />
        <span className="visually-hidden">{t('trade.selector.search')}</span>
        <input
          ref={searchRef}
          type="search"
          value={search}
          placeholder={t('trade.selector.searchPlaceholder')}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={onSearchKeyDown}
          autoComplete="off"
          spellCheck={false}
          data-testid="pair-selector-search"
        />
      </label>
      <fieldset className="pair-selector-tabs">
        <legend className="visually-hidden">{t('trade.selector.tabs')}</legend>
        <button
          type="button"
          className={clsx('pair-selector-tab', tab === FAVOURITES_TAB && 'active')}
          aria-pressed={tab === FAVOURITES_TAB}
          onClick={() => setTab(FAVOURITES_TAB)}
          data-testid="pair-selector-tab-favourites"
        >
          <Star size={13} aria-hidden="true" fill={tab === FAVOURITES_TAB ? 'currentColor' : 'none'} />
          {t('trade.selector.favourites')}
        </button>
        {tabs.map((quote) => (
          <button
            key={quote}
            type="button"
            className={clsx('pair-selector-tab', tab === quote && 'active')}
            aria-pressed={tab === quote}
            onClick={() => setTab(quote)}
            data-testid={`pair-selector-tab-${quote}`}
          >
            {quote}
          </button>
        ))}
      </fieldset>
      <div className="pair-selector-head" aria-hidden="true">
        <span>{t('trade.selector.pair')}</span>
        <span>{t('trade.selector.price')}</span>
        <span>{t('trade.selector.change')}</span>
      </div>
      {rows.length === 0 ? (
        <p className="pair-selector-empty">
          {tab === FAVOURITES_TAB && search.trim() === ''
            ? t('trade.selector.noFavourites')
            : t('trade.selector.empty')}
        </p>
      ) : (
        <ul className="pair-selector-list" ref={listRef} onKeyDown={onListKeyDown}>
          {rows.map((row) => (
            <PairRow
              key={row.id}
              row={row}
              current={row.id === currentPairId}
              favourite={watchlist.has(row.id)}
              onToggleFavourite={watchlist.toggle}
              onPick={onPick}
            />
          ))}
        </ul>
      )}
      <p className="pair-selector-hint">{t('trade.selector.hint')}</p>
    </div>
  );
}

function PairRow({
  row,
  current,
  favourite,
  onToggleFavourite,
  onPick,
}: {
  row: LivePair;
  current: boolean;
  favourite: boolean;
  onToggleFavourite: (pairId: string) => void;
  onPick: (pairId: string) => void;
}) {
  const name = coinName(row.baseCurrency);
  return (
    <li className={clsx('pair-selector-row', current && 'current')}>
      <FavouriteButton pairId={row.id} symbol={row.symbol} active={favourite} onToggle={onToggleFavourite} />
      <button
        type="button"
        className="pair-option"
        aria-current={current || undefined}
        onClick={() => onPick(row.id)}
        data-pair-option=""
        data-testid={`pair-option-${row.id}`}
      >
        <span className="pair-option-name">
          <span className="pair-option-symbol">
            {row.baseCurrency}
            <span className="muted">/{row.quoteCurrency}</span>
          </span>
          {name ? <span className="pair-option-coin">{name}</span> : null}
        </span>
        <LivePrice price={row.price} quoteCurrency={row.quoteCurrency} className="pair-option-price" />
        <ChangeText value={row.changePercent24h} />
      </button>
    </li>
  );
}
