import type { Queryable } from '../../db/database.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { type OrderRow, orderFromRow, orderView } from './rows.ts';
import { storedUnits, unitsText } from './units.ts';

/** Reads of committed history (orders, fills, transfers, income, funding rounds), newest first, paged. */
export type Page = { limit: number; page: number };
const pagination = (page: Page, total: number) => ({
  page: page.page,
  limit: page.limit,
  total,
});

const OPEN = `('pending', 'partial')`;

export async function listOrders(
  db: Queryable,
  markets: ReadonlyMap<string, FuturesMarketSpec>,
  accountId: string,
  filter: { status?: string | undefined; market?: string | undefined } & Page,
) {
  const where = ['account_id = $1'];
  const params: unknown[] = [accountId];
  if (filter.market) {
    params.push(filter.market.toUpperCase());
    where.push(`market_id = $${params.length}`);
  }
  if (filter.status === 'open') where.push(`status IN ${OPEN}`);
  else if (filter.status === 'closed') where.push(`status NOT IN ${OPEN}`);
  else if (filter.status) {
    params.push(filter.status);
    where.push(`status = $${params.length}`);
  }
  const clause = where.join(' AND ');
  const count = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM futures_orders WHERE ${clause}`, params);
  const rows = await db.query<OrderRow>(
    `SELECT * FROM futures_orders WHERE ${clause} ORDER BY created_at DESC, id LIMIT ${filter.limit} OFFSET ${(filter.page - 1) * filter.limit}`,
    params,
  );
  const orders = rows.rows.flatMap((row) => {
    const spec = markets.get(row.market_id);
    return spec ? [orderView(spec, orderFromRow(spec, row))] : [];
  });
  return { orders, pagination: pagination(filter, Number(count.rows[0]?.n ?? 0)) };
}

export async function getOrder(
  db: Queryable,
  markets: ReadonlyMap<string, FuturesMarketSpec>,
  accountId: string,
  id: string,
) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const rows = await db.query<OrderRow>('SELECT * FROM futures_orders WHERE id = $1 AND account_id = $2', [
    id,
    accountId,
  ]);
  const row = rows.rows[0];
  const spec = row ? markets.get(row.market_id) : undefined;
  return row && spec ? orderView(spec, orderFromRow(spec, row)) : null;
}

type Listed = { sql: string; params: unknown[] };
async function paged<T extends Record<string, unknown>>(db: Queryable, listed: Listed, page: Page) {
  const count = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM (${listed.sql}) AS listed`,
    listed.params,
  );
  const rows = await db.query<T>(
    `${listed.sql} LIMIT ${page.limit} OFFSET ${(page.page - 1) * page.limit}`,
    listed.params,
  );
  return { rows: rows.rows, pagination: pagination(page, Number(count.rows[0]?.n ?? 0)) };
}

const canonical = (text: string) => unitsText(storedUnits(text, 18), 18);

export async function listFills(db: Queryable, accountId: string, market: string | undefined, page: Page) {
  const params: unknown[] = [accountId];
  if (market) params.push(market.toUpperCase());
  const result = await paged<Record<string, string> & { executed_at: Date }>(
    db,
    {
      sql: `SELECT id, order_id::text AS order_id, market_id, side, role, price::text AS price, quantity::text AS quantity,
        fee::text AS fee, realised_pnl::text AS realised_pnl, executed_at FROM futures_fills
        WHERE account_id = $1 ${market ? 'AND market_id = $2' : ''} ORDER BY executed_at DESC, id DESC`,
      params,
    },
    page,
  );
  const fills = result.rows.map((r) => ({
    id: r.id!,
    order_id: r.order_id!,
    market: r.market_id!,
    side: r.side as 'buy' | 'sell',
    role: r.role as 'maker' | 'taker',
    price: canonical(r.price!),
    quantity: canonical(r.quantity!),
    fee: canonical(r.fee!),
    realised_pnl: canonical(r.realised_pnl!),
    timestamp: new Date(r.executed_at).getTime(),
  }));
  return { fills, pagination: result.pagination };
}

export async function listTransfers(db: Queryable, accountId: string, page: Page) {
  const result = await paged<{ id: string; direction: 'to_futures' | 'to_spot'; amount: string; created_at: Date }>(
    db,
    {
      sql: `SELECT id::text AS id, direction, amount::text AS amount, created_at FROM futures_transfers
        WHERE account_id = $1 ORDER BY created_at DESC, id`,
      params: [accountId],
    },
    page,
  );
  const transfers = result.rows.map((r) => ({
    id: r.id,
    direction: r.direction,
    currency: 'USD' as const,
    amount: canonical(r.amount),
    created_at: new Date(r.created_at).toISOString(),
  }));
  return { transfers, pagination: result.pagination };
}

export async function listIncome(
  db: Queryable,
  accountId: string,
  filter: { type?: string | undefined; market?: string | undefined } & Page,
) {
  const where = ['account_id = $1'];
  const params: unknown[] = [accountId];
  if (filter.type) {
    params.push(filter.type);
    where.push(`type = $${params.length}`);
  }
  if (filter.market) {
    params.push(filter.market.toUpperCase());
    where.push(`market_id = $${params.length}`);
  }
  const result = await paged<{ id: string; type: string; market_id: string | null; amount: string; created_at: Date }>(
    db,
    {
      sql: `SELECT id::text AS id, type, market_id, amount::text AS amount, created_at FROM futures_income
        WHERE ${where.join(' AND ')} ORDER BY id DESC`,
      params,
    },
    filter,
  );
  const income = result.rows.map((r) => ({
    id: r.id,
    type: r.type as 'transfer',
    market: r.market_id,
    amount: canonical(r.amount),
    currency: 'USD' as const,
    timestamp: new Date(r.created_at).getTime(),
  }));
  return { income, pagination: result.pagination };
}

export async function listFunding(db: Queryable, market: string, page: Page) {
  const result = await paged<{ rate: string; mark_price: string; funding_time: string; total_paid: string }>(
    db,
    {
      sql: `SELECT rate::text AS rate, mark_price::text AS mark_price, funding_time::text AS funding_time,
        total_paid::text AS total_paid FROM futures_funding_rounds WHERE market_id = $1 ORDER BY funding_time DESC`,
      params: [market],
    },
    page,
  );
  const rounds = result.rows.map((r) => ({
    market,
    funding_rate: canonical(r.rate),
    mark_price: canonical(r.mark_price),
    funding_time: Number(r.funding_time),
    total_paid: canonical(r.total_paid),
  }));
  return { rounds, pagination: result.pagination };
}

export async function marketTrades(db: Queryable, market: string, limit: number) {
  const rows = await db.query<{ id: string; price: string; quantity: string; side: 'buy' | 'sell'; executed_at: Date }>(
    `SELECT id, price::text AS price, quantity::text AS quantity, side, executed_at FROM futures_fills
     WHERE market_id = $1 AND role = 'taker' ORDER BY executed_at DESC, id DESC LIMIT ${limit}`,
    [market],
  );
  return rows.rows.map((r) => ({
    id: r.id,
    market,
    price: canonical(r.price),
    quantity: canonical(r.quantity),
    side: r.side,
    timestamp: new Date(r.executed_at).getTime(),
  }));
}

/** One futures fill of a period, for analytics: exact decimal texts, time in epoch ms. */
export type PeriodFill = {
  id: string;
  market: string;
  side: 'buy' | 'sell';
  price: string;
  quantity: string;
  fee: string;
  realisedPnl: string;
  timeMs: number;
};

/** One futures income row of a period (funding, ...), signed: positive is received. */
export type PeriodIncome = { id: string; type: string; market: string | null; amount: string; timeMs: number };

/** The account's fills executed in [fromMs, toMs), oldest first (analytics reads whole periods, not pages). */
export async function periodFills(db: Queryable, accountId: string, fromMs: number, toMs: number) {
  const rows = await db.query<Record<string, string> & { executed_at: Date }>(
    `SELECT id, market_id, side, price::text AS price, quantity::text AS quantity, fee::text AS fee,
       realised_pnl::text AS realised_pnl, executed_at FROM futures_fills
     WHERE account_id = $1 AND executed_at >= $2 AND executed_at < $3 ORDER BY executed_at, id`,
    [accountId, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
  );
  return rows.rows.map(
    (r): PeriodFill => ({
      id: r.id!,
      market: r.market_id!,
      side: r.side as 'buy' | 'sell',
      price: canonical(r.price!),
      quantity: canonical(r.quantity!),
      fee: canonical(r.fee!),
      realisedPnl: canonical(r.realised_pnl!),
      timeMs: new Date(r.executed_at).getTime(),
    }),
  );
}

/** The account's income rows of one type recorded in [fromMs, toMs), oldest first. */
export async function periodIncome(db: Queryable, accountId: string, type: string, fromMs: number, toMs: number) {
  const rows = await db.query<{ id: string; type: string; market_id: string | null; amount: string; created_at: Date }>(
    `SELECT id::text AS id, type, market_id, amount::text AS amount, created_at FROM futures_income
     WHERE account_id = $1 AND type = $2 AND created_at >= $3 AND created_at < $4 ORDER BY id`,
    [accountId, type, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
  );
  return rows.rows.map(
    (r): PeriodIncome => ({
      id: r.id,
      type: r.type,
      market: r.market_id,
      amount: canonical(r.amount),
      timeMs: new Date(r.created_at).getTime(),
    }),
  );
}
