import { formatDecimal, mul, parseDecimal } from '@platform/money';

/** RFC 4180: records end with CRLF; a field holding a comma, a quote or a line break is quoted. */
export const CSV_LINE_END = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;
/**
 * First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): = + - @,
 * tab and carriage return, and their full-width forms, which some spreadsheets also accept.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain decimal: an optional minus, digits, optionally a point and digits. Never a formula. */
const PLAIN_DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * Any field, made safe. A plain decimal ("-1.5", "42") is written bare so that it stays a number
 * (its leading minus followed by digits only cannot start a formula); any other field that starts
 * like a formula gets a single quote in front (shown as text, never evaluated: "=1+2", "-1+2",
 * "+1", "@SUM(A1)"); then a field holding a comma, a quote or a line break is quoted, quotes doubled.
 */
export function csvField(value: string): string {
  if (PLAIN_DECIMAL.test(value)) return value;
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A field that may be missing: empty when null. */
export function csvOptional(value: string | null): string {
  return value === null ? '' : csvField(value);
}

/**
 * An amount as stored (NUMERIC text): exact, trailing zeros of the fraction dropped, bare. Anything
 * but a plain decimal here is a bug (the database only returns numbers), so it throws.
 */
export function csvDecimal(stored: string): string {
  if (!PLAIN_DECIMAL.test(stored)) throw new RangeError(`not a plain decimal: ${JSON.stringify(stored)}`);
  if (!stored.includes('.')) return stored === '-0' ? '0' : stored;
  const trimmed = stored.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

/** price × quantity, exact (a futures fill's notional: the table stores no total). */
export function csvProduct(a: string, b: string): string {
  const left = parseDecimal(a, { maxScale: 72, maxIntegerDigits: 60, allowNegative: true });
  const right = parseDecimal(b, { maxScale: 72, maxIntegerDigits: 60, allowNegative: true });
  if (!left.ok || !right.ok) throw new RangeError(`not decimals: ${a} × ${b}`);
  return csvDecimal(formatDecimal(mul(left.value, right.value)));
}

/** ISO 8601 UTC to the microsecond (keysetTimeSql) written to the second: "2026-11-26T06:22:00Z". */
export function csvTime(microsecondIso: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(microsecondIso)) {
    throw new RangeError(`not an ISO 8601 UTC time: ${JSON.stringify(microsecondIso)}`);
  }
  return `${microsecondIso.slice(0, 19)}Z`;
}

/** One record: already-encoded fields joined by commas, with its line end. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(',')}${CSV_LINE_END}`;
}

/** The header record of a column list. */
export function csvHeader(columns: readonly string[]): string {
  return csvRecord(columns.map(csvField));
}
