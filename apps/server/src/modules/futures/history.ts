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

/** One futures fill of an account; money (fee, realised P&L) is USD, the futures wallet's currency. */
export type FuturesFill = KeysetRow & {
  /** ISO 8601 UTC to the microsecond. */
  executedAt: string;
  fillId: string;
  orderId: string;
  marketId: string;
  side: 'buy' | 'sell';
  role: 'maker' | 'taker';
  /** Exact decimals as stored (NUMERIC text, untrimmed). */
  price: string;
  quantity: string;
  fee: string;
  realisedPnl: string;
};

/** A move between the account's spot and futures wallets (always USD, always done: one transaction). */
export type FuturesTransfer = KeysetRow & {
  createdAt: string;
  transferId: string;
  direction: 'to_futures' | 'to_spot';
  amount: string;
};

/** The currency of the futures wallet: every transfer, fee and P&L is in it. */
export const FUTURES_WALLET_CURRENCY = 'USD';

const FILL_KEY = "f.id || ':' || f.role";

/** The account's futures fills in the window after the cursor, oldest first, at most `limit` (keyset pages). */
export async function futuresFillsPage(
  db: Queryable,
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
): Promise<FuturesFill[]> {
  assertPageLimit(limit);
  const params: unknown[] = [accountId, limit];
  const conditions = keysetConditions('f.executed_at', FILL_KEY, window, after, params);
  const found = await db.query<Record<string, string>>(
    `SELECT ${keysetTimeSql('f.executed_at')} AS at, ${FILL_KEY} AS key, f.id, f.order_id::text AS order_id,
       f.market_id, f.side, f.role, f.price::text AS price, f.quantity::text AS quantity, f.fee::text AS fee,
       f.realised_pnl::text AS realised_pnl
     FROM futures_fills f WHERE f.account_id = $1 AND ${conditions}
     ORDER BY ${keysetOrder('f.executed_at', FILL_KEY)} LIMIT $2`,
    params,
  );
  return found.rows.map((row) => ({
    cursor: { at: row.at!, key: row.key! },
    executedAt: row.at!,
    fillId: row.id!,
    orderId: row.order_id!,
    marketId: row.market_id!,
    side: row.side as 'buy' | 'sell',
    role: row.role as 'maker' | 'taker',
    price: row.price!,
    quantity: row.quantity!,
    fee: row.fee!,
    realisedPnl: row.realised_pnl!,
  }));
}

const TRANSFER_KEY = 't.id::text';

/** The account's spot <-> futures transfers in the window after the cursor, oldest first (keyset pages). */
export async function futuresTransfersPage(
  db: Queryable,
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
): Promise<FuturesTransfer[]> {
  assertPageLimit(limit);
  const params: unknown[] = [accountId, limit];
  const conditions = keysetConditions('t.created_at', TRANSFER_KEY, window, after, params);
  const found = await db.query<Record<string, string>>(
    `SELECT ${keysetTimeSql('t.created_at')} AS at, ${TRANSFER_KEY} AS key, t.direction, t.amount::text AS amount
     FROM futures_transfers t WHERE t.account_id = $1 AND ${conditions}
     ORDER BY ${keysetOrder('t.created_at', TRANSFER_KEY)} LIMIT $2`,
    params,
  );
  return found.rows.map((row) => ({
    cursor: { at: row.at!, key: row.key! },
    createdAt: row.at!,
    transferId: row.key!,
    direction: row.direction as 'to_futures' | 'to_spot',
    amount: row.amount!,
  }));
}
