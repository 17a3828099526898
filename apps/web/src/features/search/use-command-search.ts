import {
  commandIndex,
  SEARCH_LIMITS,
  type SearchableEntry,
  type SearchResult,
  searchCommands,
} from '@platform/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../lib/translate.ts';

/** The command index in the reader's language, searched with the spec's scoring (§9). */
export function useCommandSearch(query: string): SearchResult[] {
  const { t, i18n } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entries must be rebuilt when the language changes
  const entries = useMemo<SearchableEntry[]>(
    () =>
      commandIndex.map(({ titleKey, title, descriptionKey, descriptionValues, ...rest }) => ({
        ...rest,
        title: title ?? (titleKey ? translateMessage(t, titleKey) : rest.id),
        description: translateMessage(t, descriptionKey, descriptionValues),
      })),
    [t, i18n.language],
  );
  return useMemo(
    () =>
      searchCommands(entries, query, {
        limit: SEARCH_LIMITS.topBar,
        describePair: (asset) => t('search.pairDescription', { name: asset.name }),
      }),
    [entries, query, t],
  );
}
