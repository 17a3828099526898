import { SEARCH_MIN_QUERY_CHARS, type SearchResult } from '@platform/contracts';
import clsx from 'clsx';
import type { TFunction } from 'i18next';
import { Clock, Search, TrendingUp } from 'lucide-react';
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDismiss } from '../../hooks/use-dismiss.ts';
import { querySuggestions, searchPanelMode } from './search-history.ts';
import { searchIcon } from './search-icons.ts';
import { loadCommandIndex, useCommandSearch } from './use-command-search.ts';
import { useSearchHistory } from './use-search-history.ts';

/**
 * Spec §2.3 and §5: the top-bar search over the command index (up to 8 results, keyboard driven).
 * Blank text offers the popular searches and text shorter than 2 characters the recent ones;
 * picking one of those puts it in the box. Opening a result records the query in the history.
 */
export function SearchBox() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const listId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(0);
  const [history, recordSearch] = useSearchHistory();
  const mode = searchPanelMode(query);
  const found = useCommandSearch(mode === 'results' ? query : '');
  const results = found ?? [];
  const suggestions = querySuggestions(query, history);
  const itemCount = mode === 'results' ? results.length : suggestions.length;
  const active = Math.min(activeIndex, Math.max(itemCount - 1, 0));
  const showPanel = open;

  useDismiss(containerRef, open, () => setOpen(false));

  useFocusShortcut(inputRef, setOpen);

  const choose = (result: SearchResult | undefined) => {
    if (!result?.path) return;
    recordSearch(query);
    setOpen(false);
    setQuery('');
    setActiveIndex(0);
    inputRef.current?.blur();
    void navigate(result.path);
  };

  /** A popular or recent query goes into the box, which then shows its results. */
  const pickQuery = (suggestion: string | undefined) => {
    if (suggestion === undefined) return;
    setQuery(suggestion);
    setActiveIndex(0);
    setOpen(true);
    inputRef.current?.focus();
  };

  const pick = (index: number) => (mode === 'results' ? choose(results[index]) : pickQuery(suggestions[index]));

  return (
    <div className="search" ref={containerRef}>
      <Search size={16} className="search-icon" aria-hidden="true" />
      <input
        ref={inputRef}
        type="search"
        className="search-input"
        role="combobox"
        aria-label={t('topBar.searchLabel')}
        aria-expanded={showPanel}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showPanel && itemCount > 0 ? optionId(listId, active) : undefined}
        placeholder={t('topBar.searchPlaceholder')}
        data-testid="search-input"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActiveIndex(0);
          setOpen(true);
        }}
        onFocus={() => {
          setOpen(true);
          void loadCommandIndex().catch(() => {});
        }}
        onClick={() => setOpen(true)}
        onKeyDown={(event) => onSearchKey(event, open, active, itemCount, setOpen, setActiveIndex, pick)}
      />
      <span className="search-shortcut" aria-hidden="true">
        Ctrl K
      </span>
      {showPanel ? searchPanel(t, mode, listId, active, found, suggestions, setActiveIndex, pick) : null}
    </div>
  );
}

/** The keys of the combobox: Escape closes, the arrows move through the options, Enter opens the active one. */
function onSearchKey(
  event: KeyboardEvent<HTMLInputElement>,
  open: boolean,
  active: number,
  itemCount: number,
  setOpen: (open: boolean) => void,
  setActiveIndex: (index: number) => void,
  pick: (index: number) => void,
) {
  if (event.key === 'Escape') {
    event.preventDefault();
    setOpen(false);
    return;
  }
  if (itemCount === 0) return;
  if (event.key === 'ArrowDown') {
    event.preventDefault();
    // The first press on a closed panel opens it on the first item.
    setActiveIndex(open ? (active + 1) % itemCount : 0);
    setOpen(true);
  } else if (event.key === 'ArrowUp') {
    event.preventDefault();
    setActiveIndex(open ? (active - 1 + itemCount) % itemCount : itemCount - 1);
    setOpen(true);
  } else if (event.key === 'Enter') {
    event.preventDefault();
    if (!open) setOpen(true);
    else pick(active);
  }
}

/** Ctrl+K or Cmd+K focuses the search from anywhere. */
function useFocusShortcut(inputRef: RefObject<HTMLInputElement | null>, setOpen: (open: boolean) => void) {
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        inputRef.current?.focus();
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [inputRef, setOpen]);
}

const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

/*
 * The panel (like the key handling above) is a plain function with positional parameters rather
 * than a component: the box is in the shell that loads at once, and props passed by name would
 * grow that chunk (measured: a component split added about 0.1 KB gzip).
 */

/** The open panel: the command results, or the popular or recent searches while the text is short. */
function searchPanel(
  t: TFunction,
  mode: SearchPanelMode,
  listId: string,
  active: number,
  /** The command search's results, null while its index loads. */
  found: readonly SearchResult[] | null,
  suggestions: readonly string[],
  setActiveIndex: (index: number) => void,
  /** Opens the result, or puts the suggestion in the box, at this index. */
  pick: (index: number) => void,
) {
  const results = found ?? [];
  const itemCount = mode === 'results' ? results.length : suggestions.length;
  const listLabel = panelLabel(t, mode);
  const SuggestionIcon = mode === 'popular' ? TrendingUp : Clock;
  return (
    <div className="search-panel menu-panel" data-testid="search-results" data-mode={mode}>
      {mode === 'results' ? null : (
        <p className="menu-heading" aria-hidden="true">
          {listLabel}
        </p>
      )}
      {itemCount === 0 ? (
        <p className="menu-empty">{emptyPanelText(t, mode, found)}</p>
      ) : (
        <div id={listId} role="listbox" aria-label={listLabel} className="search-results">
          {mode === 'results'
            ? results.map((result, index) => {
                const Icon = searchIcon(result.icon);
                return (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant)
                  // biome-ignore lint/a11y/useFocusableInteractive: options stay unfocusable in the activedescendant pattern
                  <div
                    key={result.id}
                    id={optionId(listId, index)}
                    role="option"
                    aria-selected={index === active}
                    className={clsx('search-result', index === active && 'active')}
                    onMouseEnter={() => setActiveIndex(index)}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => pick(index)}
                  >
                    <span className={clsx('search-result-icon', `category-${result.category}`)} aria-hidden="true">
                      <Icon size={16} />
                    </span>
                    <span className="search-result-text">
                      <span className="search-result-title">{result.title}</span>
                      <span className="search-result-description">{result.description}</span>
                    </span>
                    <span className="search-result-category">{t(`search.categories.${result.category}`)}</span>
                  </div>
                );
              })
            : suggestions.map((suggestion, index) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant)
                // biome-ignore lint/a11y/useFocusableInteractive: options stay unfocusable in the activedescendant pattern
                <div
                  key={suggestion}
                  id={optionId(listId, index)}
                  role="option"
                  aria-selected={index === active}
                  className={clsx('search-result search-suggestion', index === active && 'active')}
                  data-testid={`search-suggestion-${mode}`}
                  onMouseEnter={() => setActiveIndex(index)}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pick(index)}
                >
                  <span className="search-suggestion-icon" aria-hidden="true">
                    <SuggestionIcon size={15} />
                  </span>
                  <span className="search-result-title">{suggestion}</span>
                </div>
              ))}
        </div>
      )}
      <p className="search-hint" aria-hidden="true">
        {t('topBar.searchHint')}
      </p>
    </div>
  );
}

type SearchPanelMode = ReturnType<typeof searchPanelMode>;

function panelLabel(t: TFunction, mode: SearchPanelMode): string {
  return mode === 'popular'
    ? t('topBar.popularSearches')
    : mode === 'recent'
      ? t('topBar.recentSearches')
      : t('topBar.searchResults');
}

function emptyPanelText(t: TFunction, mode: SearchPanelMode, found: readonly SearchResult[] | null): string {
  return mode !== 'results'
    ? t('topBar.searchMinChars', { min: SEARCH_MIN_QUERY_CHARS })
    : found
      ? t('errors.noResultsFound')
      : t('app.loading');
}
