import { SEARCH_LIMITS, type SearchableEntry, type SearchResult } from '@platform/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../lib/translate.ts';

type CommandIndexModule = typeof import('./command-index.ts');

let loaded: CommandIndexModule | null = null;
let loading: Promise<CommandIndexModule> | null = null;

/** Loads the command index once (on focus of the search, or the first query); a failed load is tried again next time. */
export function loadCommandIndex(): Promise<CommandIndexModule> {
  loading ??= import('./command-index.ts').then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The command index in the reader's language, searched with the spec's scoring (§9). `null` while
 * the index loads (the first query of a page, unless focusing the search already loaded it).
 */
export function useCommandSearch(query: string): SearchResult[] | null {
  const { t, i18n } = useTranslation();
  const [index, setIndex] = useState(loaded);
  useEffect(() => {
    if (index || !query) return;
    let current = true;
    loadCommandIndex().then(
      (module) => current && setIndex(module),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [index, query]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entries must be rebuilt when the language changes
  const entries = useMemo<SearchableEntry[] | null>(
    () =>
      index?.commandIndex.map(({ titleKey, title, descriptionKey, descriptionValues, ...rest }) => ({
        ...rest,
        title: title ?? (titleKey ? translateMessage(t, titleKey) : rest.id),
        description: translateMessage(t, descriptionKey, descriptionValues),
      })) ?? null,
    [index, t, i18n.language],
  );
  return useMemo(
    () =>
      index && entries
        ? index.searchCommands(entries, query, {
            limit: SEARCH_LIMITS.topBar,
            describePair: (asset) => t('search.pairDescription', { name: asset.name }),
          })
        : null,
    [index, entries, query, t],
  );
}
