import type { AdlCandidate, PerpSpec } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

/**
 * Auto-deleveraging queue of one side (BitMEX ranking, futures-maths.md §8): profitable positions
 * first by P&L % x effective leverage, then losing ones by P&L % / effective leverage; ties by id.
 * Returns the candidates' ids, first to be deleveraged first, with their light (5 = first fifth .. 1).
 */
export function adlQueue(
  spec: PerpSpec,
  markTicks: number,
  candidates: readonly AdlCandidate[],
): { id: string; rank: number }[] {
  return todo();
}
