import {
  POPULAR_SEARCH_SEEDS,
  SEARCH_HISTORY_STORAGE_KEY,
  SEARCH_LIMITS,
  SEARCH_MIN_QUERY_CHARS,
} from '@platform/contracts';
import { readJsonStorage, writeStorage } from '../../lib/safe-storage.ts';

/**
 * Spec §4, §5 and §9: the search history and what the top-bar search shows before a query is long
 * enough to search. The history holds the most recent unique queries, newest first; a repeated
 * query moves to the front. 10 are kept in local storage and 5 are shown.
 */

/** Trimmed, with inner runs of whitespace collapsed: "  btc   usd " and "btc usd" are one query. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ');
}

/** The history with a query added at the front. Case does not make a query new ("BTC" is "btc"). */
export function addToSearchHistory(
  history: readonly string[],
  query: string,
  keep: number = SEARCH_LIMITS.historyKept,
): string[] {
  const normalized = normalizeQuery(query);
  if (normalized.length === 0) return history.slice(0, keep);
  const key = normalized.toLowerCase();
  return [normalized, ...history.filter((item) => item.toLowerCase() !== key)].slice(0, keep);
}

/**
 * The stored history. Local storage is outside data: anything that is not a list of strings is
 * dropped, and the list is brought back to the rules (unique, at most 10). A failed read is logged
 * by the storage layer and gives an empty history.
 */
export function readSearchHistory(): string[] {
  const stored = readJsonStorage(SEARCH_HISTORY_STORAGE_KEY);
  if (!Array.isArray(stored)) return [];
  const queries = stored.filter((item): item is string => typeof item === 'string');
  // Oldest first through the adding rule, so the first occurrence of a query keeps its place.
  return queries.reduceRight<string[]>((history, query) => addToSearchHistory(history, query), []);
}

/** Saves the history; a failed write is logged by the storage layer and otherwise ignored. */
export function writeSearchHistory(history: readonly string[]): void {
  writeStorage(SEARCH_HISTORY_STORAGE_KEY, JSON.stringify(history.slice(0, SEARCH_LIMITS.historyKept)));
}

/**
 * Spec §5: blank text shows the popular searches, text shorter than 2 characters the recent
 * searches, and anything longer is searched.
 */
export type SearchPanelMode = 'popular' | 'recent' | 'results';

export function searchPanelMode(query: string): SearchPanelMode {
  const length = normalizeQuery(query).length;
  if (length === 0) return 'popular';
  if (length < SEARCH_MIN_QUERY_CHARS) return 'recent';
  return 'results';
}

/** The queries offered instead of results: the popular seeds, or the 5 most recent searches. */
export function querySuggestions(query: string, history: readonly string[]): readonly string[] {
  const mode = searchPanelMode(query);
  if (mode === 'popular') return POPULAR_SEARCH_SEEDS;
  if (mode === 'recent') return history.slice(0, SEARCH_LIMITS.recentShown);
  return [];
}
