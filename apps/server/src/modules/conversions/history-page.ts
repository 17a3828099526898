import type { ConversionKind } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import {
  assertPageLimit,
  type KeysetCursor,
  keysetConditions,
  keysetOrder,
  keysetTimeSql,
  type TimeWindow,
} from '../../lib/keyset.ts';

/**
 * One conversion or quick trade of the account, for the exports: NUMERIC texts as stored, the spread
 * in the currency received (it was kept out of gross: gross = spread + to). `rate` is the net
 * rate, to_amount / from_amount, as the quote showed it.
 */
export type ConversionRecord = {
  cursor: KeysetCursor;
  conversionId: string;
  kind: ConversionKind;
  createdAt: string;
  fromCurrency: string;
  toCurrency: string;
  fromAmount: string;
  toAmount: string;
  spreadAmount: string;
  rate: string;
};

type PageRow = {
  id: string;
  kind: ConversionKind;
  at: string;
  from_currency: string;
  to_currency: string;
  from_amount: string;
  to_amount: string;
  spread_amount: string;
  rate: string;
};

const TIME = 'created_at';
const KEY = 'id::text';

/**
 * The account's conversions and quick trades (both kinds: each is a swap with the house desk),
 * oldest first, in keyset pages (lib/keyset.ts) for exports of any length. The (account, kind,
 * created_at) index serves each kind; the account's conversions are few next to its fills.
 */
export async function conversionsPage(
  db: Queryable,
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
): Promise<ConversionRecord[]> {
  assertPageLimit(limit);
  const params: unknown[] = [accountId, limit];
  const conditions = keysetConditions(TIME, KEY, window, after, params);
  const found = await db.query<PageRow>(
    `SELECT id::text AS id, kind, ${keysetTimeSql(TIME)} AS at, from_currency, to_currency,
       from_amount::text AS from_amount, to_amount::text AS to_amount, spread_amount::text AS spread_amount,
       rate::text AS rate
     FROM conversions WHERE account_id = $1 AND ${conditions}
     ORDER BY ${keysetOrder(TIME, KEY)} LIMIT $2`,
    params,
  );
  return found.rows.map((row) => ({
    cursor: { at: row.at, key: row.id },
    conversionId: row.id,
    kind: row.kind,
    createdAt: row.at,
    fromCurrency: row.from_currency,
    toCurrency: row.to_currency,
    fromAmount: row.from_amount,
    toAmount: row.to_amount,
    spreadAmount: row.spread_amount,
    rate: row.rate,
  }));
}
