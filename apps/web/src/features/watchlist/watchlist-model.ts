import { WATCHLIST_MAX_PAIRS } from '@platform/contracts';

/** The watchlist's edits as pure functions over the ordered pair ids (new arrays, never in place). */

export function addPair(pairIds: readonly string[], pairId: string): string[] {
  if (pairIds.includes(pairId) || pairIds.length >= WATCHLIST_MAX_PAIRS) return [...pairIds];
  return [...pairIds, pairId];
}

export function removePair(pairIds: readonly string[], pairId: string): string[] {
  return pairIds.filter((id) => id !== pairId);
}

export function togglePair(pairIds: readonly string[], pairId: string): string[] {
  return pairIds.includes(pairId) ? removePair(pairIds, pairId) : addPair(pairIds, pairId);
}

/** Moves a pair one place up (-1) or down (+1); at either end nothing changes. */
export function movePair(pairIds: readonly string[], pairId: string, direction: -1 | 1): string[] {
  const from = pairIds.indexOf(pairId);
  return from === -1 ? [...pairIds] : movePairTo(pairIds, from, from + direction);
}

/** Moves the pair at `from` to `to` (drag and drop). Out-of-range moves change nothing. */
export function movePairTo(pairIds: readonly string[], from: number, to: number): string[] {
  const next = [...pairIds];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length || from === to) return next;
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}
