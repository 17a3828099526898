import type { LotMethodName, PortfolioSettings } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';

/** The method when the account never chose one (the engine's default, and the tax tools' usual one). */
export const DEFAULT_LOT_METHOD: LotMethodName = 'fifo';

/** The account's stored portfolio settings: one primary-key read, defaults when it never chose. */
export async function readSettings(q: Queryable, accountId: string): Promise<PortfolioSettings> {
  const result = await q.query<{ lot_method: LotMethodName }>(
    'SELECT lot_method FROM portfolio_settings WHERE account_id = $1',
    [accountId],
  );
  return { lot_method: result.rows[0]?.lot_method ?? DEFAULT_LOT_METHOD };
}

/** Stores the settings (the last write wins) and answers them as stored. */
export async function writeSettings(
  q: Queryable,
  accountId: string,
  settings: PortfolioSettings,
  now: Date,
): Promise<PortfolioSettings> {
  const result = await q.query<{ lot_method: LotMethodName }>(
    `INSERT INTO portfolio_settings (account_id, lot_method, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET lot_method = EXCLUDED.lot_method, updated_at = EXCLUDED.updated_at
     RETURNING lot_method`,
    [accountId, settings.lot_method, now],
  );
  return { lot_method: result.rows[0]!.lot_method };
}
