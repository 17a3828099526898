import { normalizePairId, type UpdateWatchlistRequest, userFacingTexts, type Watchlist } from '@platform/contracts';
import type { Database, Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { existingPairIds } from '../markets/service.ts';
import { replaceWatchlist, selectWatchlist } from './queries.ts';

export async function getWatchlist(q: Queryable, accountId: string): Promise<Watchlist> {
  return { pair_ids: await selectWatchlist(q, accountId) };
}

/**
 * Replaces the account's watchlist with the given pairs, in the given order. A pair named twice
 * keeps its first place; display symbols (BTC/USD) and lower case are read as pair ids (BTC_USD).
 * Any unknown pair refuses the whole list, naming each one.
 */
export async function setWatchlist(
  db: Database,
  accountId: string,
  input: UpdateWatchlistRequest,
): Promise<Result<Watchlist>> {
  const pairIds = [...new Set(input.pair_ids.map(normalisePairId))];
  const known = pairIds.length === 0 ? new Set<string>() : await existingPairIds(db, pairIds);
  const issues = input.pair_ids.flatMap((raw, index) =>
    known.has(normalisePairId(raw))
      ? []
      : [{ path: `pair_ids.${index}`, message: userFacingTexts.tradingPairNotFound }],
  );
  if (issues.length > 0) {
    const unknown = [...new Set(input.pair_ids.filter((raw) => !known.has(normalisePairId(raw))))];
    return fail('VALIDATION_ERROR', {
      message: `${userFacingTexts.tradingPairNotFound}: ${unknown.join(', ')}`,
      details: { issues, unknown_pair_ids: unknown },
    });
  }
  await db.transaction((tx) => replaceWatchlist(tx, accountId, pairIds));
  return ok({ pair_ids: pairIds });
}

/** The canonical id; text that is no pair id at all stays as sent, to be reported as unknown. */
function normalisePairId(raw: string): string {
  return normalizePairId(raw) ?? raw.trim().toUpperCase();
}
