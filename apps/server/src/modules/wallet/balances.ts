import type {
  WalletBalance,
  WalletTransaction,
  WalletTransactionsQuery,
  WalletTransactionsResponse,
  WalletTransactionType,
} from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { ok, type Result } from '../../lib/errors.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import { parseCurrency, WALLET_CURRENCIES } from './rules.ts';

/**
 * GET /v1/wallet/balances: every currency the account holds, then a zero row for every other
 * wallet currency (§3.5: the client shows a row per enabled coin), in catalogue order. The held
 * balances come from the ledger's balance cache (exact: dropped by every committed change).
 */
export async function walletBalances(balances: BalanceCache, accountId: string): Promise<WalletBalance[]> {
  const held = await balances.balances(accountId);
  // Copies: the cached rows are shared by every read until the next change.
  const byCurrency = new Map(held.map((row) => [row.currency, { ...row }]));
  const rows: WalletBalance[] = WALLET_CURRENCIES.map(
    (currency) => byCurrency.get(currency) ?? { currency, available: '0', locked: '0' },
  );
  for (const row of held) if (!WALLET_CURRENCIES.includes(row.currency)) rows.push({ ...row });
  return rows;
}

/**
 * Ledger entry kinds as the history names them. Holds and releases (an order's or a transfer's
 * funds moving between available and locked) change nothing the account owns, so they are not
 * transactions; a transfer appears once it settles, as transfer_out or transfer_in by its sign.
 */
const KINDS: Record<string, WalletTransactionType | 'transfer'> = {
  deposit: 'deposit',
  withdrawal: 'withdrawal',
  trade: 'trade',
  conversion: 'conversion',
  transfer: 'transfer',
};

type TransactionRow = {
  id: string;
  kind: string;
  reference: string;
  currency: string;
  amount: string;
  created_at: Date;
  counterparty: string | null;
};

/**
 * GET /v1/wallet/transactions: what changed the account's holdings (available + locked), per entry
 * and currency, newest first, with filters by type, currency and time, and paging.
 */
export async function walletTransactions(
  q: Queryable,
  accountId: string,
  query: WalletTransactionsQuery,
): Promise<Result<WalletTransactionsResponse>> {
  const parsedCurrency = query.currency === undefined ? ok(null) : parseCurrency(query.currency);
  if (!parsedCurrency.ok) return parsedCurrency;
  const currency = parsedCurrency.value;
  const kinds =
    query.type === undefined
      ? Object.keys(KINDS)
      : query.type === 'transfer_in' || query.type === 'transfer_out'
        ? ['transfer']
        : [query.type];
  const sign = query.type === 'transfer_in' ? 1 : query.type === 'transfer_out' ? -1 : 0;
  const params = [accountId, kinds, currency, query.from ?? null, query.to ?? null, sign];
  const base = `
    WITH moves AS (
      SELECT e.id::text AS id, e.kind, e.reference, la.currency, sum(p.amount) AS amount, e.created_at
      FROM ledger_accounts la
      JOIN ledger_postings p ON p.ledger_account_id = la.id
      JOIN ledger_entries e ON e.id = p.entry_id
      WHERE la.owner_kind = 'user' AND la.account_id = $1 AND e.kind = ANY($2::text[])
        AND ($3::text IS NULL OR la.currency = $3)
        AND ($4::timestamptz IS NULL OR e.created_at >= $4)
        AND ($5::timestamptz IS NULL OR e.created_at <= $5)
      GROUP BY e.id, e.kind, e.reference, la.currency, e.created_at
      HAVING sum(p.amount) <> 0
    )
    -- A transfer names the other side (the recipient of money sent, the sender of money received).
    SELECT m.*, CASE WHEN t.from_account_id = $1 THEN ta.username ELSE fa.username END AS counterparty
    FROM moves m
    LEFT JOIN transfers t ON m.kind = 'transfer' AND t.id::text = m.reference
    LEFT JOIN accounts fa ON fa.id = t.from_account_id
    LEFT JOIN accounts ta ON ta.id = t.to_account_id
    WHERE $6::int = 0 OR sign(m.amount) = $6::int`;
  const total = await q.query<{ count: bigint | string }>(`SELECT count(*) AS count FROM (${base}) counted`, params);
  const rows = await q.query<TransactionRow>(`${base} ORDER BY created_at DESC, id DESC LIMIT $7 OFFSET $8`, [
    ...params,
    query.limit,
    (query.page - 1) * query.limit,
  ]);
  return ok({
    transactions: rows.rows.map(toTransaction),
    total: Number(total.rows[0]?.count ?? 0),
    page: query.page,
    limit: query.limit,
  });
}

function toTransaction(row: TransactionRow): WalletTransaction {
  const amount = String(row.amount);
  const kind = KINDS[row.kind] ?? 'trade';
  const type: WalletTransactionType =
    kind === 'transfer' ? (amount.startsWith('-') ? 'transfer_out' : 'transfer_in') : kind;
  return {
    id: row.id,
    type,
    currency: row.currency,
    amount: amount.includes('.') ? amount.replace(/0+$/, '').replace(/\.$/, '') : amount,
    reference: row.reference,
    counterparty: row.counterparty ?? null,
    created_at: new Date(row.created_at).toISOString(),
  };
}
