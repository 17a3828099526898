import type { AccountTrade, Order } from '@platform/contracts';
import { isoTime } from './order-format.ts';

/**
 * CSV export of the order and trade histories (RFC 4180): a header row of the column labels, then
 * one line per row, CRLF line ends, and a field quoted when it holds a comma, a quote, a line break
 * or surrounding spaces (quotes doubled inside). Decimals are written exactly as the server sent
 * them and times as ISO 8601 UTC instants, so a spreadsheet or a script reads what was traded.
 */

/** Rows asked for per call while exporting: the API's largest page. */
export const EXPORT_PAGE_SIZE = 500;
/** At most this many rows go into one file, so an export of a busy account stays quick and small. */
export const EXPORT_ROW_CAP = 5_000;

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function buildCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

export const ORDER_CSV_COLUMNS = [
  'time',
  'orderId',
  'pair',
  'side',
  'type',
  'price',
  'stopPrice',
  'amount',
  'filled',
  'averagePrice',
  'total',
  'fee',
  'feeCurrency',
  'status',
] as const;
export type OrderCsvColumn = (typeof ORDER_CSV_COLUMNS)[number];

export const TRADE_CSV_COLUMNS = [
  'time',
  'tradeId',
  'orderId',
  'pair',
  'side',
  'role',
  'price',
  'amount',
  'total',
  'fee',
  'feeCurrency',
] as const;
export type TradeCsvColumn = (typeof TRADE_CSV_COLUMNS)[number];

/** The orders as CSV; `label` names each column in the interface language. */
export function ordersCsv(orders: readonly Order[], label: (column: OrderCsvColumn) => string): string {
  const rows = orders.map((order) => [
    isoTime(order.created_at),
    order.id,
    order.symbol,
    order.side,
    order.type,
    order.price ?? '',
    order.stop_price ?? '',
    order.quantity ?? '',
    order.filled_quantity,
    order.average_price ?? '',
    order.total,
    order.fee,
    order.fee_currency,
    order.status,
  ]);
  return buildCsv(ORDER_CSV_COLUMNS.map(label), rows);
}

export function tradesCsv(trades: readonly AccountTrade[], label: (column: TradeCsvColumn) => string): string {
  const rows = trades.map((trade) => [
    isoTime(trade.timestamp),
    trade.id,
    trade.order_id,
    trade.symbol,
    trade.side,
    trade.role,
    trade.price,
    trade.quantity,
    trade.total,
    trade.fee,
    trade.fee_currency,
  ]);
  return buildCsv(TRADE_CSV_COLUMNS.map(label), rows);
}

export interface PageOfRows<Row> {
  rows: Row[];
  total: number;
}

/**
 * Every row matching a filter, page after page, newest first, up to `cap` rows. A row that arrives
 * while exporting pushes the older ones down a place, so the next page may repeat one: `keyOf`
 * drops repeats. `truncated` says the filter matched more than went in.
 */
export async function fetchAllRows<Row>(
  fetchPage: (page: number, limit: number) => Promise<PageOfRows<Row>>,
  keyOf: (row: Row) => string,
  { pageSize = EXPORT_PAGE_SIZE, cap = EXPORT_ROW_CAP }: { pageSize?: number; cap?: number } = {},
): Promise<{ rows: Row[]; truncated: boolean }> {
  const rows: Row[] = [];
  const seen = new Set<string>();
  let total = 0;
  const maxPages = Math.ceil(cap / pageSize) + 1;
  for (let page = 1; page <= maxPages && rows.length < cap; page += 1) {
    const answer = await fetchPage(page, pageSize);
    total = answer.total;
    for (const row of answer.rows) {
      const key = keyOf(row);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(row);
    }
    if (answer.rows.length < pageSize || page * pageSize >= total) break;
  }
  return { rows: rows.slice(0, cap), truncated: total > cap || rows.length > cap };
}

/** meridian-orders-2026-11-24.csv, dated by the user's own calendar. */
export function csvFileName(kind: 'orders' | 'trades', now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `meridian-${kind}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

/** Hands the text to the browser as a file download. */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns; revoking on the next turn is safe in all.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
