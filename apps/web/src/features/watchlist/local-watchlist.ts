import { LOCAL_WATCHLIST_STORAGE_KEY, watchlistSchema } from '@platform/contracts';
import { readJsonStorage, writeStorage } from '../../lib/safe-storage.ts';

/**
 * The watchlist of a visitor who is not logged in, kept in this browser. Local storage is outside
 * data, so it is parsed; other tabs' changes arrive through the storage event.
 */

type Listener = () => void;

const EMPTY: readonly string[] = [];
const listeners = new Set<Listener>();
let cached: readonly string[] | null = null;

function load(): readonly string[] {
  const parsed = watchlistSchema.safeParse(readJsonStorage(LOCAL_WATCHLIST_STORAGE_KEY));
  return parsed.success ? parsed.data.pair_ids : EMPTY;
}

export function readLocalWatchlist(): readonly string[] {
  cached ??= load();
  return cached;
}

export function writeLocalWatchlist(pairIds: readonly string[]): void {
  cached = [...pairIds];
  writeStorage(LOCAL_WATCHLIST_STORAGE_KEY, JSON.stringify({ pair_ids: cached }));
  for (const listener of listeners) listener();
}

export function subscribeLocalWatchlist(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== LOCAL_WATCHLIST_STORAGE_KEY && event.key !== null) return;
    cached = null;
    listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

/** Forgets the cached copy (tests clear local storage between cases). */
export function resetLocalWatchlistCache(): void {
  cached = null;
}
