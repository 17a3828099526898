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

/** Money that came in: a deposit seen on one of the account's addresses, or a payment through the provider. */
export type DepositRecord = KeysetRow & {
  /** ISO 8601 UTC to the microsecond: when the deposit was seen or the payment created. */
  createdAt: string;
  depositId: string;
  /** address: on-chain to a deposit address; checkout / card: hosted checkout; payment, lightning: the facade's. */
  method: 'address' | 'checkout' | 'card' | 'payment' | 'lightning';
  /** The chain's network for an address deposit; null otherwise. */
  network: string | null;
  currency: string;
  /** Exact decimal as stored: what was credited, else what was asked for (NUMERIC text, untrimmed). */
  amount: string;
  status: 'pending' | 'completed' | 'failed';
  /** The chain's transaction id, or the provider's reference (a Lightning payment hash when there is one). */
  reference: string | null;
};

const KEY = 'd.id::text';

/**
 * Every payment kind credits the account as a ledger 'deposit' (payments/credit.ts), so all are
 * listed; a row the provider never acknowledged (no reference) was never shown and is not. A
 * payment is pending until credited, failed once ended without money or expired unpaid (as in
 * GET /api/v1/wallet/deposits, payments/history.ts).
 */
function depositsSql(window: TimeWindow, after: KeysetCursor | null, params: unknown[]): string {
  const chain = keysetConditions('d.created_at', KEY, window, after, params);
  const paid = keysetConditions('d.created_at', KEY, window, after, params);
  return `
  (SELECT ${keysetTimeSql('d.created_at')} AS at, ${KEY} AS key, d.created_at, 'address' AS method, d.network,
     d.currency, d.amount::text AS amount, d.status, d.txid AS reference
   FROM chain_deposits d WHERE d.account_id = $1 AND ${chain}
   ORDER BY ${keysetOrder('d.created_at', KEY)} LIMIT $2)
  UNION ALL
  (SELECT ${keysetTimeSql('d.created_at')} AS at, ${KEY} AS key, d.created_at,
     CASE WHEN d.kind <> 'deposit' THEN d.kind WHEN d.pay_method = 'card' THEN 'card' ELSE 'checkout' END AS method,
     NULL::text AS network, d.order_currency AS currency, coalesce(d.credited_amount, d.order_amount)::text AS amount,
     CASE WHEN d.credited_at IS NOT NULL THEN 'completed'
          WHEN d.status IN ('waiting', 'confirming') AND NOT (d.status = 'waiting' AND d.expires_at < $3) THEN 'pending'
          ELSE 'failed' END AS status,
     coalesce(d.lightning_payment_hash, d.provider_reference, d.lightning_provider_reference) AS reference
   FROM payments d WHERE d.account_id = $1
     AND (d.provider_reference IS NOT NULL OR d.lightning_provider_reference IS NOT NULL) AND ${paid}
   ORDER BY ${keysetOrder('d.created_at', KEY)} LIMIT $2)`;
}

/** The account's deposits in the window after the cursor, oldest first, at most `limit` (keyset pages, lib/keyset.ts). */
export async function depositsPage(
  db: Queryable,
  now: Date,
  accountId: string,
  window: TimeWindow,
  after: KeysetCursor | null,
  limit: number,
): Promise<DepositRecord[]> {
  assertPageLimit(limit);
  const params: unknown[] = [accountId, limit, now];
  const found = await db.query<Record<string, string | null>>(
    `SELECT * FROM (${depositsSql(window, after, params)}) u ORDER BY u.created_at, u.key COLLATE "C" LIMIT $2`,
    params,
  );
  return found.rows.map((row) => ({
    cursor: { at: row.at!, key: row.key! },
    createdAt: row.at!,
    depositId: row.key!,
    method: row.method as DepositRecord['method'],
    network: row.network ?? null,
    currency: row.currency!,
    amount: row.amount!,
    status: row.status as DepositRecord['status'],
    reference: row.reference ?? null,
  }));
}
