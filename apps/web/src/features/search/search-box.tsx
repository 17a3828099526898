import type { SearchResult } from '@platform/contracts';
import clsx from 'clsx';
import { Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDismiss } from '../../hooks/use-dismiss.ts';
import { searchIcon } from './search-icons.ts';
import { useCommandSearch } from './use-command-search.ts';

/** Spec §2.3: the top-bar search over the command index (up to 8 results, keyboard driven). */
export function SearchBox() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const listId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(0);
  const results = useCommandSearch(query);
  const showPanel = open && query.trim().length > 0;

  useDismiss(containerRef, open, () => setOpen(false));

  // Ctrl+K or Cmd+K focuses the search from anywhere.
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
  }, []);

  const choose = (result: SearchResult | undefined) => {
    if (!result?.path) return;
    setOpen(false);
    setQuery('');
    inputRef.current?.blur();
    void navigate(result.path);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      return;
    }
    if (results.length === 0) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActiveIndex((index) => (index + 1) % results.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      setActiveIndex((index) => (index - 1 + results.length) % results.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(results[activeIndex]);
    }
  };

  const optionId = (index: number) => `${listId}-option-${index}`;

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
        aria-activedescendant={showPanel && results.length > 0 ? optionId(activeIndex) : undefined}
        placeholder={t('topBar.searchPlaceholder')}
        data-testid="search-input"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActiveIndex(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <span className="search-shortcut" aria-hidden="true">
        Ctrl K
      </span>
      {showPanel ? (
        <div className="search-panel menu-panel" data-testid="search-results">
          {results.length === 0 ? (
            <p className="menu-empty">{t('errors.noResultsFound')}</p>
          ) : (
            <div id={listId} role="listbox" aria-label={t('topBar.searchResults')} className="search-results">
              {results.map((result, index) => {
                const Icon = searchIcon(result.icon);
                return (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant)
                  // biome-ignore lint/a11y/useFocusableInteractive: options stay unfocusable in the activedescendant pattern
                  <div
                    key={result.id}
                    id={optionId(index)}
                    role="option"
                    aria-selected={index === activeIndex}
                    className={clsx('search-result', index === activeIndex && 'active')}
                    onMouseEnter={() => setActiveIndex(index)}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => choose(result)}
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
              })}
            </div>
          )}
          <p className="search-hint" aria-hidden="true">
            {t('topBar.searchHint')}
          </p>
        </div>
      ) : null}
    </div>
  );
}
