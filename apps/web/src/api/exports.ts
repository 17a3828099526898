import type { ExportKind, LOT_METHOD_NAMES } from '@platform/contracts';
import type { DownloadedFile } from './client.ts';
import { apiClient } from './http.ts';

/** A lot method of the tax report. */
export type LotMethodName = (typeof LOT_METHOD_NAMES)[number];

/** A period of whole UTC days (YYYY-MM-DD), either end optional. */
export type ExportPeriod = { from?: string; to?: string };

function periodQuery(period: ExportPeriod): string {
  const query = new URLSearchParams();
  if (period.from) query.set('from', period.from);
  if (period.to) query.set('to', period.to);
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** The CSV downloads of issue 17 (docs/portfolio.md, "Exports"), with the signed-in account's token. */
export const exportsApi = {
  /** Trades, transfers, deposits or withdrawals of a period, as CSV. */
  history: (kind: ExportKind, period: ExportPeriod): Promise<DownloadedFile> =>
    apiClient.download(`/v1/exports/${kind}.csv${periodQuery(period)}`),
  /** Realised gains of a tax year under a lot method, as CSV. */
  taxReport: (year: number, method: LotMethodName): Promise<DownloadedFile> =>
    apiClient.download(`/v1/portfolio/tax-report.csv?year=${year}&method=${method}`),
};
