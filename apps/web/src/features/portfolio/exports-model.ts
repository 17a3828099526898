import { EXPORT_KINDS, type ExportKind, LOT_METHOD_NAMES } from '@platform/contracts';
import type { DownloadedFile } from '../../api/client.ts';
import type { ExportPeriod } from '../../api/exports.ts';

export type { ExportKind };
export { EXPORT_KINDS, LOT_METHOD_NAMES };

/** Tax years offered: this year (UTC) and the nine before it. */
export const TAX_YEARS_SHOWN = 10;

export function taxYears(now: Date): number[] {
  const current = now.getUTCFullYear();
  return Array.from({ length: TAX_YEARS_SHOWN }, (_, index) => current - index);
}

/** The period as the API takes it: empty dates are left out (the whole history on that side). */
export function exportPeriod(from: string, to: string): ExportPeriod {
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** The i18n key of what is wrong with a period, or null. Dates YYYY-MM-DD compare as text. */
export function periodProblem(from: string, to: string): 'portfolio.exports.periodOrder' | null {
  return from && to && from > to ? 'portfolio.exports.periodOrder' : null;
}

/** The name to save a file under: the server's, else one of our own. */
export function fileName(file: DownloadedFile, fallback: string): string {
  return file.filename ?? fallback;
}

/** Hands a downloaded file to the browser: an object URL on a link that is clicked, then let go. */
export function saveFile(file: DownloadedFile, name: string): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns; revoking on the next turn is safe in all.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
