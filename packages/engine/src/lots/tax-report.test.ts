import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TIME_MS, type RealisedRow } from './api.ts';
import {
  CSV_RECORD_SEPARATOR,
  csvNumber,
  csvText,
  csvTime,
  TAX_REPORT_CSV_COLUMNS,
  taxReportCsvRecord,
  taxReportCsvRecords,
} from './csv.ts';
import { computeLots } from './lot-book.ts';
import { realisedByTaxYear, type TaxReportRow, taxYearBounds, taxYearOf } from './tax-report.ts';

const USD = 100_000_000n;
const UK = { month: 4, day: 6 };

const row = (soldTimeMs: number, gainUsd: bigint, overrides: Partial<RealisedRow> = {}): RealisedRow => ({
  disposalId: `d${soldTimeMs}`,
  disposalKind: 'sell',
  lotId: 'lot',
  acquisitionKind: 'buy',
  acquiredTimeMs: Date.UTC(2020, 0, 1),
  soldTimeMs,
  amount: 1n,
  proceedsUsd: gainUsd > 0n ? gainUsd : 0n,
  costUsd: gainUsd > 0n ? 0n : -gainUsd,
  feeUsd: 0n,
  gainUsd,
  ...overrides,
});

describe('tax years (UTC)', () => {
  it('a calendar year ends at midnight UTC on 1 January', () => {
    expect(taxYearOf(Date.UTC(2023, 11, 31, 23, 59, 59, 999))).toBe(2023);
    expect(taxYearOf(Date.UTC(2024, 0, 1))).toBe(2024);
    expect(taxYearBounds(2024)).toEqual({ fromMs: Date.UTC(2024, 0, 1), toMs: Date.UTC(2025, 0, 1) });
  });

  it('a year starting on 6 April (the United Kingdom) is named by the year it starts in', () => {
    expect(taxYearOf(Date.UTC(2024, 3, 5, 23, 59, 59, 999), UK)).toBe(2023);
    expect(taxYearOf(Date.UTC(2024, 3, 6), UK)).toBe(2024);
    expect(taxYearOf(Date.UTC(2025, 0, 15), UK)).toBe(2024);
    expect(taxYearBounds(2024, UK)).toEqual({ fromMs: Date.UTC(2024, 3, 6), toMs: Date.UTC(2025, 3, 6) });
  });

  it('the first and last representable times', () => {
    expect(taxYearOf(0)).toBe(1970);
    expect(taxYearOf(0, UK)).toBe(1969);
    expect(taxYearOf(MAX_TIME_MS)).toBe(9999);
  });

  it('refuses a start day that is not in every year, and a time out of range', () => {
    expect(() => taxYearOf(0, { month: 2, day: 29 })).toThrow(RangeError);
    expect(() => taxYearOf(0, { month: 13, day: 1 })).toThrow(RangeError);
    expect(() => taxYearOf(-1)).toThrow(RangeError);
    expect(() => taxYearOf(1.5)).toThrow(RangeError);
  });

  it('property: a time lies in the bounds of its tax year', () => {
    const startArbitrary = fc.record({ month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) });
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1971, 0, 1), max: MAX_TIME_MS }), startArbitrary, (timeMs, start) => {
        const { fromMs, toMs } = taxYearBounds(taxYearOf(timeMs, start), start);
        expect(fromMs <= timeMs && timeMs < toMs).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('realisedByTaxYear', () => {
  it('groups the rows of several assets by the year sold, ordered by time then asset, with totals', () => {
    const btc = {
      asset: 'BTC',
      scale: 8,
      realised: [row(Date.UTC(2023, 5, 1), 100n * USD), row(Date.UTC(2024, 1, 1), -30n * USD)],
    };
    const eth = {
      asset: 'ETH',
      scale: 18,
      realised: [row(Date.UTC(2023, 5, 1), 5n * USD), row(Date.UTC(2023, 11, 31, 23, 59), 7n * USD)],
    };
    const years = realisedByTaxYear([eth, btc]);
    expect(years.map((year) => year.taxYear)).toEqual([2023, 2024]);
    expect(years[0]!.rows.map((entry) => [entry.asset, entry.soldTimeMs])).toEqual([
      ['BTC', Date.UTC(2023, 5, 1)],
      ['ETH', Date.UTC(2023, 5, 1)],
      ['ETH', Date.UTC(2023, 11, 31, 23, 59)],
    ]);
    expect(years[0]!.totals).toEqual({
      rows: 3,
      proceedsUsd: 112n * USD,
      costUsd: 0n,
      feeUsd: 0n,
      gainUsd: 112n * USD,
    });
    expect(years[1]).toMatchObject({
      taxYear: 2024,
      fromMs: Date.UTC(2024, 0, 1),
      toMs: Date.UTC(2025, 0, 1),
      totals: { rows: 1, gainUsd: -30n * USD },
    });
    expect(years[1]!.rows[0]).toMatchObject({ asset: 'BTC', scale: 8, gainUsd: -30n * USD });
  });

  it('skips empty years and keeps one asset\u2019s rows in their own order', () => {
    const rows = [
      row(Date.UTC(2020, 0, 1), 1n, { disposalId: 'x' }),
      row(Date.UTC(2020, 0, 1), 2n, { disposalId: 'y' }),
    ];
    const years = realisedByTaxYear([{ asset: 'A', scale: 0, realised: [...rows, row(Date.UTC(2022, 0, 1), 3n)] }]);
    expect(years.map((year) => year.taxYear)).toEqual([2020, 2022]);
    expect(years[0]!.rows.map((entry) => entry.disposalId)).toEqual(['x', 'y']);
  });

  it('sorts rows handed over out of order', () => {
    const years = realisedByTaxYear([
      { asset: 'A', scale: 0, realised: [row(Date.UTC(2022, 0, 1), 3n), row(Date.UTC(2020, 0, 1), 1n)] },
    ]);
    expect(years.map((year) => [year.taxYear, year.rows.length])).toEqual([
      [2020, 1],
      [2022, 1],
    ]);
  });

  it('the year totals add up to the lot totals', () => {
    const events = [
      { type: 'acquisition', id: 'a', timeMs: Date.UTC(2022, 5, 1), kind: 'buy', amount: 3n, costUsd: 100n },
      {
        type: 'disposal',
        id: 's1',
        timeMs: Date.UTC(2022, 11, 31),
        kind: 'sell',
        amount: 1n,
        proceedsUsd: 50n,
        feeUsd: 1n,
      },
      {
        type: 'disposal',
        id: 's2',
        timeMs: Date.UTC(2023, 0, 1),
        kind: 'sell',
        amount: 2n,
        proceedsUsd: 70n,
        feeUsd: 2n,
      },
    ] as const;
    const result = computeLots({ asset: 'X', scale: 0, events });
    if (!result.ok) throw new Error(result.message);
    const years = realisedByTaxYear([result]);
    expect(years.map((year) => year.totals.gainUsd)).toEqual([50n - 33n - 1n, 70n - 67n - 2n]);
    expect(years.reduce((sum, year) => sum + year.totals.gainUsd, 0n)).toBe(result.totals.realisedGainUsd);
  });
});

describe('CSV', () => {
  const reportRow = (overrides: Partial<TaxReportRow> = {}): TaxReportRow => ({
    ...row(Date.UTC(2024, 2, 5, 14, 7, 9, 870), -1_250_000_000n),
    asset: 'BTC',
    scale: 8,
    amount: 150_000_000n,
    proceedsUsd: 100n * USD,
    costUsd: 110n * USD,
    feeUsd: 2n * USD + 50_000_000n,
    gainUsd: -1_250_000_000n,
    ...overrides,
  });

  it('has the columns tax tools import, and Proceeds (net of the fee) - Cost Basis = Gain on every line', () => {
    const records = [...taxReportCsvRecords([reportRow()])];
    expect(TAX_REPORT_CSV_COLUMNS).toEqual([
      'Date Acquired',
      'Date Sold',
      'Asset',
      'Amount',
      'Proceeds',
      'Cost Basis',
      'Gain',
    ]);
    expect(records).toEqual([
      'Date Acquired,Date Sold,Asset,Amount,Proceeds,Cost Basis,Gain',
      '2020-01-01T00:00:00Z,2024-03-05T14:07:09Z,BTC,1.5,97.5,110,-12.5',
    ]);
    expect(CSV_RECORD_SEPARATOR).toBe('\r\n');
  });

  it('writes amounts exactly at their scale, 18 decimals included', () => {
    const record = taxReportCsvRecord(
      reportRow({ asset: 'ETH', scale: 18, amount: 1n, proceedsUsd: 1n, feeUsd: 0n, costUsd: 0n, gainUsd: 1n }),
    );
    expect(record.split(',').slice(3)).toEqual(['0.000000000000000001', '0.00000001', '0', '0.00000001']);
  });

  it('leaves the date acquired empty for the part of a disposal no lot covered', () => {
    expect(taxReportCsvRecord(reportRow({ lotId: null, acquisitionKind: null, acquiredTimeMs: null }))).toMatch(
      /^,2024-03-05T14:07:09Z,BTC,/,
    );
  });

  it.each([
    ['A,B', '"A,B"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+SUM(1,2)', `"'+SUM(1,2)"`],
    ['-1+1', "'-1+1"],
    ['-12.5', "'-12.5"],
    ['@cmd', "'@cmd"],
    ['\tTAB', "'\tTAB"],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['BTC', 'BTC'],
    ['', ''],
  ])('asset name %j becomes the field %j', (name, field) => {
    expect(csvText(name)).toBe(field);
    expect(taxReportCsvRecord(reportRow({ asset: name })).split(',').length).toBeGreaterThanOrEqual(7);
  });

  it('keeps numbers numeric: a negative gain stays a bare number, anything else is refused', () => {
    expect(csvNumber('-12.5')).toBe('-12.5');
    expect(csvNumber('0')).toBe('0');
    for (const bad of ['=1', '-1+1', '1e5', '+1', '1.', '.5', '1,5', ' 1', '']) {
      expect(() => csvNumber(bad)).toThrow(RangeError);
    }
  });

  it('a whole report parses back (RFC 4180) to the same fields, hostile asset names included', () => {
    const names = ['BTC', 'A,"B"\r\nC', '=1+2', '@SUM(A1)'];
    const text = [...taxReportCsvRecords(names.map((asset) => reportRow({ asset })))].join(CSV_RECORD_SEPARATOR);
    const parsed = parseCsv(text);
    expect(parsed[0]).toEqual([...TAX_REPORT_CSV_COLUMNS]);
    expect(parsed.slice(1).map((fields) => fields[2])).toEqual(['BTC', 'A,"B"\r\nC', "'=1+2", "'@SUM(A1)"]);
    for (const fields of parsed.slice(1)) expect(fields).toHaveLength(7);
  });

  it('property: csvTime is toISOString to the second, over the whole range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_TIME_MS }), (timeMs) => {
        expect(csvTime(timeMs)).toBe(`${new Date(timeMs).toISOString().slice(0, 19)}Z`);
      }),
      { numRuns: 2_000 },
    );
    expect(csvTime(0)).toBe('1970-01-01T00:00:00Z');
    expect(csvTime(MAX_TIME_MS)).toBe('9999-12-31T23:59:59Z');
    expect(csvTime(Date.UTC(2024, 1, 29, 23, 59, 59, 999))).toBe('2024-02-29T23:59:59Z');
    expect(() => csvTime(-1)).toThrow(RangeError);
  });
});

/** A strict RFC 4180 reader for the test: quoted fields with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let index = 0;
  for (;;) {
    let field = '';
    if (text[index] === '"') {
      index++;
      for (;;) {
        const quote = text.indexOf('"', index);
        if (quote < 0) throw new Error('unterminated quote');
        field += text.slice(index, quote);
        index = quote + 1;
        if (text[index] !== '"') break;
        field += '"';
        index++;
      }
    } else {
      const end = text.slice(index).search(/,|\r\n|$/);
      field = text.slice(index, index + end);
      if (field.includes('"')) throw new Error(`bare quote in ${field}`);
      index += end;
    }
    fields.push(field);
    if (text[index] === ',') {
      index++;
      continue;
    }
    records.push(fields);
    fields = [];
    if (index >= text.length) return records;
    if (text.slice(index, index + 2) !== '\r\n') throw new Error(`unexpected ${JSON.stringify(text[index])}`);
    index += 2;
  }
}
