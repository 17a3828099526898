import type { Watchlist } from '@platform/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../state/app-store.ts';
import { readLocalWatchlist, subscribeLocalWatchlist, writeLocalWatchlist } from './local-watchlist.ts';
import { watchlistQueryKeys } from './query-keys.ts';
import { watchlistApi } from './watchlist-api.ts';
import { addPair, movePair, movePairTo, removePair, togglePair } from './watchlist-model.ts';

const WATCHLIST_STALE_MS = 60_000;
const EMPTY: readonly string[] = [];

export interface WatchlistState {
  pairIds: readonly string[];
  isLoading: boolean;
  /** Where the list lives: on the account when logged in, in this browser otherwise. */
  storage: 'account' | 'browser';
  has: (pairId: string) => boolean;
  toggle: (pairId: string) => void;
  add: (pairId: string) => void;
  remove: (pairId: string) => void;
  move: (pairId: string, direction: -1 | 1) => void;
  moveTo: (from: number, to: number) => void;
}

/**
 * The favourites / watchlist (one list): the server's per account when logged in, saved
 * optimistically and rolled back if the save fails; local storage per browser when logged out.
 */
export function useWatchlist(): WatchlistState {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  const accountId = useAppStore((state) => (state.isAuthenticated ? (state.user?.id ?? null) : null));
  const local = useSyncExternalStore(subscribeLocalWatchlist, readLocalWatchlist, readLocalWatchlist);
  const key = watchlistQueryKeys.list(accountId ?? '');

  const query = useQuery({
    queryKey: key,
    queryFn: () => watchlistApi.get(accountId ?? ''),
    enabled: accountId !== null,
    staleTime: WATCHLIST_STALE_MS,
  });

  const mutation = useMutation({
    mutationFn: (pairIds: string[]) => watchlistApi.put(accountId ?? '', { pair_ids: pairIds }),
    onMutate: async (pairIds) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Watchlist>(key);
      queryClient.setQueryData<Watchlist>(key, { pair_ids: pairIds });
      return { previous };
    },
    onError: (_error, _pairIds, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toast.error(t('watchlist.saveFailed'));
    },
  });

  const useAccount = isAuthenticated && accountId !== null;
  const pairIds = useAccount ? (query.data?.pair_ids ?? EMPTY) : local;

  // Each edit starts from the latest list (the cache, updated optimistically), not from this render's.
  // Before the account's list has loaded, wait for it: starting from an empty list would replace it.
  const edit = (change: (current: readonly string[]) => string[]) => {
    if (useAccount) {
      const current = queryClient.getQueryData<Watchlist>(key)?.pair_ids;
      if (current) {
        mutation.mutate(change(current));
        return;
      }
      queryClient
        .fetchQuery({ queryKey: key, queryFn: () => watchlistApi.get(accountId), staleTime: WATCHLIST_STALE_MS })
        .then(
          (loaded) => mutation.mutate(change(queryClient.getQueryData<Watchlist>(key)?.pair_ids ?? loaded.pair_ids)),
          () => toast.error(t('watchlist.saveFailed')),
        );
    } else {
      writeLocalWatchlist(change(readLocalWatchlist()));
    }
  };

  return {
    pairIds,
    isLoading: useAccount && query.isLoading,
    storage: useAccount ? 'account' : 'browser',
    has: (pairId) => pairIds.includes(pairId),
    toggle: (pairId) => edit((current) => togglePair(current, pairId)),
    add: (pairId) => edit((current) => addPair(current, pairId)),
    remove: (pairId) => edit((current) => removePair(current, pairId)),
    move: (pairId, direction) => edit((current) => movePair(current, pairId, direction)),
    moveTo: (from, to) => edit((current) => movePairTo(current, from, to)),
  };
}
