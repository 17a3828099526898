import type { AdlCandidate, PerpSpec } from './api.ts';
import { assertLots, assertPriceTicks } from './pricing-units.ts';
import { unitsPerTickLot } from './units.ts';

/**
 * A candidate's ranking as an exact fraction numerator / denominator (denominator > 0), within a
 * class: winners (2) before flat-P&L positions (1) before losers (0).
 */
interface AdlScore {
  id: string;
  group: 0 | 1 | 2;
  numerator: bigint;
  denominator: bigint;
}

/**
 * BitMEX's ranking in money terms. With E = |entry value| (the cost basis), N = |mark value|,
 * U = unrealised P&L and C the collateral, the equity is C + U = mark value - bankrupt value, so
 *   P&L % = U / E, effective leverage = N / (C + U),
 *   winners: P&L % x leverage = U x N / (E x (C + U))      (C >= 0, U > 0: the denominator is > 0)
 *   losers:  P&L % / leverage = U x (C + U) / (E x N).
 * A loser whose equity is <= 0 (already past bankruptcy) has an unbounded leverage: its score is taken
 * as 0, the limit from below, so it comes first among losers.
 */
function adlScore(spec: PerpSpec, markTicks: number, candidate: AdlCandidate): AdlScore {
  const { sizeLots, costTickLots } = candidate.position;
  const unit = unitsPerTickLot(spec);
  const entryValue = costTickLots * unit;
  const markValue = BigInt(Math.abs(sizeLots)) * BigInt(markTicks) * unit;
  const pnl = sizeLots > 0 ? markValue - entryValue : entryValue - markValue;
  const equity = candidate.collateral + pnl;
  if (pnl > 0n) return { id: candidate.id, group: 2, numerator: pnl * markValue, denominator: entryValue * equity };
  if (pnl === 0n) return { id: candidate.id, group: 1, numerator: 0n, denominator: 1n };
  const positiveEquity = equity > 0n ? equity : 0n;
  return { id: candidate.id, group: 0, numerator: pnl * positiveEquity, denominator: entryValue * markValue };
}

/** Higher scores first, then ids in ascending (code unit) order. Cross-multiplied: no division, no float. */
function compareScores(a: AdlScore, b: AdlScore): number {
  if (a.group !== b.group) return b.group - a.group;
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  if (left !== right) return left > right ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function assertCandidate(candidate: AdlCandidate, side: number): void {
  const { sizeLots, costTickLots } = candidate.position;
  assertLots(sizeLots, 'ADL candidate size');
  if (sizeLots === 0 || Math.sign(sizeLots) !== side) {
    throw new RangeError('ADL candidates must be open positions of one side');
  }
  if (costTickLots <= 0n) throw new RangeError('an open position has a positive cost basis');
  if (candidate.collateral < 0n) throw new RangeError('ADL candidate collateral must not be negative');
}

/**
 * Auto-deleveraging queue of one side (BitMEX ranking, futures-maths.md §8): profitable positions
 * first by P&L % x effective leverage, then losing ones by P&L % / effective leverage; ties by id.
 * Returns the candidates' ids, first to be deleveraged first, with their light (5 = first fifth .. 1).
 *
 * Positions with exactly zero P&L rank between winners and losers (the formula leaves them
 * undefined; their score is 0). The light of the k-th position (0-based) of n is 5 - floor(5k / n):
 * the first fifth of the queue shows 5, the last fifth 1 (a lone position shows 5). Candidates are
 * open positions of one side (all long or all short) with collateral >= 0; anything else throws.
 */
export function adlQueue(
  spec: PerpSpec,
  markTicks: number,
  candidates: readonly AdlCandidate[],
): { id: string; rank: number }[] {
  assertPriceTicks(markTicks, 'mark price');
  const side = Math.sign(candidates[0]?.position.sizeLots ?? 0);
  for (const candidate of candidates) assertCandidate(candidate, side);
  const scores = candidates.map((candidate) => adlScore(spec, markTicks, candidate));
  scores.sort(compareScores);
  const count = scores.length;
  return scores.map((score, index) => ({ id: score.id, rank: 5 - Math.floor((5 * index) / count) }));
}
