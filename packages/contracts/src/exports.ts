import { z } from 'zod';

/**
 * CSV exports of an account's history (docs/portfolio.md, "Exports"): GET /v1/exports/{kind}.csv
 * with an optional period of whole UTC days.
 */
export const EXPORT_KINDS = ['trades', 'transfers', 'deposits', 'withdrawals'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/**
 * The years a period may name: from the Unix epoch (nothing on the platform is older) to 9999, the
 * last year an ISO 8601 date writes with four digits.
 */
export const EXPORT_YEAR_MIN = 1970;
export const EXPORT_YEAR_MAX = 9999;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date YYYY-MM-DD that exists (no 2026-02-30), within the export years. */
export function isExportDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < EXPORT_YEAR_MIN || year > EXPORT_YEAR_MAX) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const exportDateSchema = z.string().refine(isExportDate, {
  error: `must be a date YYYY-MM-DD (UTC) between ${EXPORT_YEAR_MIN}-01-01 and ${EXPORT_YEAR_MAX}-12-31`,
});

/**
 * The period of an export: `from` and `to` are whole UTC days, both included; either may be left
 * out (from the first record; up to now). Dates compare as text: YYYY-MM-DD orders as the days do.
 */
export const exportQuerySchema = z
  .object({
    from: exportDateSchema.optional().describe('First day included (YYYY-MM-DD, UTC); default: the first record'),
    to: exportDateSchema.optional().describe('Last day included (YYYY-MM-DD, UTC); default: today'),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    error: 'from must not be after to',
    path: ['from'],
  });
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/**
 * The CSV columns of each export, in order (what tax and accounting tools import). trades: a row
 * per spot fill, futures fill and conversion (Product `spot`, `futures`, `conversion`; a conversion
 * is a sale of its FROM currency for TO, docs/portfolio.md "Conversions in the trades file").
 */
export const EXPORT_CSV_COLUMNS = {
  trades: [
    'Date',
    'Product',
    'Market',
    'Side',
    'Role',
    'Price',
    'Amount',
    'Total',
    'Fee',
    'Fee Currency',
    'Realised P&L',
    'Order ID',
    'Trade ID',
  ],
  transfers: ['Date', 'From', 'To', 'Currency', 'Amount', 'Status', 'ID'],
  deposits: ['Date', 'Currency', 'Amount', 'Method/Network', 'Status', 'Transaction/Reference', 'ID'],
  withdrawals: ['Date', 'Currency', 'Amount', 'Fee', 'Network', 'Address', 'Status', 'Transaction hash', 'ID'],
} as const satisfies Record<ExportKind, readonly string[]>;
