import type { DepositHistoryItem, DepositHistoryResponse } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { trimAmount } from '../wallet/rules.ts';
import { isoOrNull } from './credit.ts';

type HistoryRow = {
  id: string;
  method: 'address' | 'checkout';
  currency: string;
  network: string | null;
  amount: string;
  status: 'pending' | 'completed' | 'failed';
  confirmations: number | null;
  required_confirmations: number | null;
  txid: string | null;
  address: string | null;
  memo: string | null;
  checkout_url: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
};

// Both kinds of deposit in one list. A checkout deposit is pending until credited, failed once the
// provider ended it without money (or it expired unpaid), completed once credited.
const DEPOSITS = `
  SELECT id, 'address' AS method, currency, network, amount::text AS amount, status, confirmations,
    required_confirmations, txid, address, memo, NULL::text AS checkout_url, created_at, completed_at
  FROM chain_deposits WHERE account_id = $1
  UNION ALL
  SELECT id, 'checkout' AS method, order_currency AS currency, NULL::text AS network,
    coalesce(credited_amount, order_amount)::text AS amount,
    CASE WHEN credited_at IS NOT NULL THEN 'completed'
         WHEN status IN ('waiting', 'confirming') AND NOT (status = 'waiting' AND expires_at < $2) THEN 'pending'
         ELSE 'failed' END AS status,
    NULL::int, NULL::int, NULL::text, crypto_address AS address, NULL::text, checkout_url, created_at,
    credited_at AS completed_at
  FROM payments WHERE account_id = $1 AND kind = 'deposit' AND provider_reference IS NOT NULL`;

/** GET /api/v1/wallet/deposits: address and checkout deposits, newest first. */
export async function depositHistory(
  q: Queryable,
  accountId: string,
  now: Date,
  limit: number,
  page: number,
): Promise<DepositHistoryResponse> {
  const total = await q.query<{ count: string | number }>(`SELECT count(*) AS count FROM (${DEPOSITS}) d`, [
    accountId,
    now,
  ]);
  const rows = await q.query<HistoryRow>(
    `SELECT * FROM (${DEPOSITS}) d ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [accountId, now, limit, (page - 1) * limit],
  );
  return {
    deposits: rows.rows.map(toItem),
    total: Number(total.rows[0]?.count ?? 0),
    page,
    limit,
  };
}

function toItem(row: HistoryRow): DepositHistoryItem {
  return {
    id: row.id,
    method: row.method,
    currency: row.currency,
    network: row.network,
    amount: trimAmount(row.amount),
    status: row.status,
    confirmations: row.confirmations === null ? null : Number(row.confirmations),
    required_confirmations: row.required_confirmations === null ? null : Number(row.required_confirmations),
    txid: row.txid,
    address: row.address,
    memo: row.memo,
    checkout_url: row.checkout_url,
    created_at: new Date(row.created_at).toISOString(),
    completed_at: isoOrNull(row.completed_at),
  };
}
