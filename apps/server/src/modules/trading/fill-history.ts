import type { Queryable } from '../../db/database.ts';
import {
  assertPageLimit,
  type KeysetCursor,
  type KeysetRow,
  keysetConditions,
  keysetOrder,
  keysetTimeSql,
  type TimeWindow,
} from '../../lib/keyset.ts';

/** One spot fill of an account, from its side of the trade (a self-trade is two fills: maker and taker). */
export type SpotFill = KeysetRow & {
  /** ISO 8601 UTC to the microsecond. */
  executedAt: string;
  tradeId: string;
  orderId: string;
  pairId: string;
  side: 'buy' | 'sell';
  role: 'maker' | 'taker';
  /** Exact decimals as stored (NUMERIC text, untrimmed). */
  price: string;
  quantity: string;
  total: string;
  fee: string;
  feeCurrency: string;
};

type FillRow = {
  at: string;
  key: string;
  id: string;
  order_id: string;
  pair_id: string;
  side: 'buy' | 'sell';
  role: 'maker' | 'taker';
  price: string;
  quantity: string;
  total: string;
  fee: string;
  fee_currency: string;
};

/** A fill's unique key: the trade's id and the account's role in it. */
const keyOf = (role: 'maker' | 'taker') => `t.id || ':${role}'`;

/** One side's fills (the maker's or the taker's) after the cursor, each side bounded by its index. */
function sideSql(role: 'maker' | 'taker', window: TimeWindow, after: KeysetCursor | null, params: unknown[]): string {
  const flipped = "CASE t.taker_side WHEN 'buy' THEN 'sell' ELSE 'buy' END";
  const conditions = keysetConditions('t.executed_at', keyOf(role), window, after, params);
  return `(SELECT ${keysetTimeSql('t.executed_at')} AS at, ${keyOf(role)} AS key, t.id, t.${role}_order_id::text AS order_id,
      t.pair_id, ${role === 'maker' ? flipped : 't.taker_side'} AS side, '${role}' AS role, t.price::text AS price,
      t.quantity::text AS quantity, t.total::text AS total, t.${role}_fee::text AS fee, t.fee_currency, t.executed_at
    FROM trades t WHERE t.${role}_account_id = $1 AND ${conditions}
    ORDER BY ${keysetOrder('t.executed_at', keyOf(role))} LIMIT $2)`;
}

/**
 * The account's spot fills in the window after the cursor, oldest first, at most `limit`: keyset
 * pages (lib/keyset.ts) for exports of any length. Each side of the trade table is read through its
 * own (account, time) index, then the two are merged.
 */
export async function spotFillsPage(
  db: Queryable,
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
): Promise<SpotFill[]> {
  assertPageLimit(limit);
  const params: unknown[] = [accountId, limit];
  const maker = sideSql('maker', window, after, params);
  const taker = sideSql('taker', window, after, params);
  const found = await db.query<FillRow>(
    `SELECT * FROM (${maker} UNION ALL ${taker}) f ORDER BY f.executed_at, f.key COLLATE "C" LIMIT $2`,
    params,
  );
  return found.rows.map((row) => ({
    cursor: { at: row.at, key: row.key },
    executedAt: row.at,
    tradeId: row.id,
    orderId: row.order_id,
    pairId: row.pair_id,
    side: row.side,
    role: row.role,
    price: row.price,
    quantity: row.quantity,
    total: row.total,
    fee: row.fee,
    feeCurrency: row.fee_currency,
  }));
}
