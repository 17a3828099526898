import { type LotResult, MAX_TIME_MS, MIN_TIME_MS, type RealisedRow } from './api.ts';

/** Where a tax year begins, in UTC: month 1..12, day 1..28 (so that it exists in every year). */
export interface TaxYearStart {
  month: number;
  day: number;
}

/** The calendar year (most countries). The United Kingdom's would be { month: 4, day: 6 }. */
export const CALENDAR_TAX_YEAR: TaxYearStart = { month: 1, day: 1 };

function assertTaxYearStart(start: TaxYearStart): void {
  const { month, day } = start;
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(day) || day < 1 || day > 28) {
    throw new RangeError('a tax year starts on month 1..12, day 1..28');
  }
}

function assertTime(timeMs: number): void {
  if (!Number.isSafeInteger(timeMs) || timeMs < MIN_TIME_MS || timeMs > MAX_TIME_MS) {
    throw new RangeError(`time must be an integer in ${MIN_TIME_MS}..${MAX_TIME_MS}`);
  }
}

/** Midnight UTC of a day. setUTCFullYear, not Date.UTC, which reads years 0..99 as 1900..1999. */
function utcMidnightMs(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/** The tax year a time falls in, named by the calendar year in which that tax year starts. */
export function taxYearOf(timeMs: number, start: TaxYearStart = CALENDAR_TAX_YEAR): number {
  assertTaxYearStart(start);
  assertTime(timeMs);
  const year = new Date(timeMs).getUTCFullYear();
  return timeMs >= utcMidnightMs(year, start.month, start.day) ? year : year - 1;
}

/** A tax year as a half-open interval of times: fromMs <= time < toMs. */
export function taxYearBounds(
  taxYear: number,
  start: TaxYearStart = CALENDAR_TAX_YEAR,
): { fromMs: number; toMs: number } {
  assertTaxYearStart(start);
  return {
    fromMs: utcMidnightMs(taxYear, start.month, start.day),
    toMs: utcMidnightMs(taxYear + 1, start.month, start.day),
  };
}

/** A realised row with its asset, as the tax report lists it. */
export interface TaxReportRow extends RealisedRow {
  asset: string;
  scale: number;
}

export interface TaxYearTotals {
  rows: number;
  proceedsUsd: bigint;
  costUsd: bigint;
  feeUsd: bigint;
  gainUsd: bigint;
}

export interface TaxYearReport {
  taxYear: number;
  fromMs: number;
  toMs: number;
  /** By time sold, then asset (code-unit order), then the order of the asset's own rows. */
  rows: TaxReportRow[];
  totals: TaxYearTotals;
}

type AssetRealised = Pick<LotResult, 'asset' | 'scale' | 'realised'>;

/**
 * Groups the realised rows of one or more assets (each computeLots result, under the method the
 * user chose) into tax years by the time sold. Only years with at least one row appear, in
 * ascending order.
 */
export function realisedByTaxYear(
  results: readonly AssetRealised[],
  start: TaxYearStart = CALENDAR_TAX_YEAR,
): TaxYearReport[] {
  assertTaxYearStart(start);
  const rows: TaxReportRow[] = [];
  for (const result of results) {
    for (const row of result.realised) rows.push(withAsset(row, result.asset, result.scale));
  }
  // computeLots gives each asset's rows in time order, so one asset's (the common export) needs no
  // sort. The sort is stable: rows of one asset sold at one time keep their own order.
  if (!isInOrder(rows)) rows.sort(bySoldTimeThenAsset);
  const years: TaxYearReport[] = [];
  let current: TaxYearReport | undefined;
  for (const row of rows) {
    if (current === undefined || row.soldTimeMs >= current.toMs) {
      const taxYear = taxYearOf(row.soldTimeMs, start);
      current = { taxYear, ...taxYearBounds(taxYear, start), rows: [], totals: emptyTotals() };
      years.push(current);
    }
    current.rows.push(row);
    addToTotals(current.totals, row);
  }
  return years;
}

/** An explicit literal, not a spread: this runs once per row of a possibly long history. */
function withAsset(row: RealisedRow, asset: string, scale: number): TaxReportRow {
  return {
    asset,
    scale,
    disposalId: row.disposalId,
    disposalKind: row.disposalKind,
    lotId: row.lotId,
    acquisitionKind: row.acquisitionKind,
    acquiredTimeMs: row.acquiredTimeMs,
    soldTimeMs: row.soldTimeMs,
    amount: row.amount,
    proceedsUsd: row.proceedsUsd,
    costUsd: row.costUsd,
    feeUsd: row.feeUsd,
    gainUsd: row.gainUsd,
  };
}

const bySoldTimeThenAsset = (a: TaxReportRow, b: TaxReportRow): number =>
  a.soldTimeMs - b.soldTimeMs || (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0);

function isInOrder(rows: readonly TaxReportRow[]): boolean {
  for (let index = 1; index < rows.length; index++) {
    if (bySoldTimeThenAsset(rows[index - 1]!, rows[index]!) > 0) return false;
  }
  return true;
}

const emptyTotals = (): TaxYearTotals => ({ rows: 0, proceedsUsd: 0n, costUsd: 0n, feeUsd: 0n, gainUsd: 0n });

function addToTotals(totals: TaxYearTotals, row: RealisedRow): void {
  totals.rows++;
  totals.proceedsUsd += row.proceedsUsd;
  totals.costUsd += row.costUsd;
  totals.feeUsd += row.feeUsd;
  totals.gainUsd += row.gainUsd;
}
