import { formatDecimal } from '@platform/money';
import { MAX_TIME_MS, MIN_TIME_MS, USD_DECIMALS } from './api.ts';
import type { TaxReportRow } from './tax-report.ts';

/**
 * The realised-gains CSV: the columns common tax tools import. Dates are UTC (ISO 8601, seconds);
 * amounts are exact decimals at the asset's scale and USD at 8 decimals, trailing zeros dropped.
 * Proceeds are net of the disposal's fee, so that on every line Proceeds - Cost Basis = Gain (the
 * fee of an acquisition is already in its cost basis).
 */
export const TAX_REPORT_CSV_COLUMNS = [
  'Date Acquired',
  'Date Sold',
  'Asset',
  'Amount',
  'Proceeds',
  'Cost Basis',
  'Gain',
] as const;

/** RFC 4180: records end with CRLF; a field holding a comma, a quote or a line break is quoted. */
export const CSV_RECORD_SEPARATOR = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;
/**
 * First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): = + - @,
 * tab and carriage return, and their full-width forms, which some spreadsheets also accept.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** What csvNumber lets through: an optional minus, digits, optionally a point and digits. */
const PLAIN_DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * A text field, made safe: a leading formula character gets a single quote in front (shown as text,
 * never evaluated), then the field is quoted if it needs it, with quotes doubled.
 */
export function csvText(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * A number field, left bare so that spreadsheets and tax tools read it as a number ("-12.5" stays a
 * negative number). Only a plain decimal passes: a leading minus followed by digits and one point
 * cannot start a formula, and anything else is a bug in the caller, not data to escape.
 */
export function csvNumber(decimal: string): string {
  if (!PLAIN_DECIMAL.test(decimal)) throw new RangeError(`not a plain decimal: ${JSON.stringify(decimal)}`);
  return decimal;
}

const MS_PER_DAY = 86_400_000;
const pad2 = (value: number): string => (value < 10 ? `0${value}` : `${value}`);

/**
 * The civil date of a day number (days since 1970-01-01), proleptic Gregorian: H. Hinnant's
 * days_from_civil inverse. Used instead of Date#toISOString, which costs most of a report line.
 */
function civilDate(days: number): string {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

// Rows of one day are usually next to each other, so the last day's date is kept.
let cachedDay = Number.NaN;
let cachedDate = '';

/** A time as ISO 8601 UTC to the second ("2024-03-05T14:07:09Z"); the milliseconds are dropped. */
export function csvTime(timeMs: number): string {
  if (!Number.isSafeInteger(timeMs) || timeMs < MIN_TIME_MS || timeMs > MAX_TIME_MS) {
    throw new RangeError(`time out of the report's range: ${timeMs}`);
  }
  const days = Math.floor(timeMs / MS_PER_DAY);
  if (days !== cachedDay) {
    cachedDate = civilDate(days);
    cachedDay = days;
  }
  const seconds = Math.floor((timeMs - days * MS_PER_DAY) / 1_000);
  const hours = Math.floor(seconds / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  return `${cachedDate}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds % 60)}Z`;
}

const decimalText = (units: bigint, scale: number): string => formatDecimal({ units, scale }, { trimZeros: true });

/** One report line's fields, without the record separator. An uncovered row has no date acquired. */
export function taxReportCsvRecord(row: TaxReportRow): string {
  return [
    row.acquiredTimeMs === null ? '' : csvTime(row.acquiredTimeMs),
    csvTime(row.soldTimeMs),
    csvText(row.asset),
    csvNumber(decimalText(row.amount, row.scale)),
    csvNumber(decimalText(row.proceedsUsd - row.feeUsd, USD_DECIMALS)),
    csvNumber(decimalText(row.costUsd, USD_DECIMALS)),
    csvNumber(decimalText(row.gainUsd, USD_DECIMALS)),
  ].join(',');
}

/**
 * The report as CSV records (the header first), each without its separator: a generator, so a
 * large history can be streamed (join with CSV_RECORD_SEPARATOR and end with one).
 */
export function* taxReportCsvRecords(rows: Iterable<TaxReportRow>): Generator<string, void, undefined> {
  yield TAX_REPORT_CSV_COLUMNS.map(csvText).join(',');
  for (const row of rows) yield taxReportCsvRecord(row);
}
