import type { WalletTransactionType } from '@platform/contracts';
import type { WalletTransactionsFilter } from '../../api/wallet.ts';

/**
 * The full history's filters (type, currency, a range of days) as the wallet's transaction query
 * reads them: days are the user's own calendar days, sent as ISO instants with an offset (from the
 * first day's start to the last day's end, both inclusive).
 */

export interface HistoryFilterValues {
  type: WalletTransactionType | '';
  currency: string;
  /** YYYY-MM-DD from a date input, or ''. */
  fromDate: string;
  toDate: string;
}

export const emptyHistoryFilter: HistoryFilterValues = { type: '', currency: '', fromDate: '', toDate: '' };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local instant at the start (or the last millisecond) of a YYYY-MM-DD day, as ISO; null when unreadable. */
export function dayBoundary(day: string, edge: 'start' | 'end'): string | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const instant =
    edge === 'start' ? new Date(year, month - 1, date, 0, 0, 0, 0) : new Date(year, month - 1, date, 23, 59, 59, 999);
  if (instant.getFullYear() !== year || instant.getMonth() !== month - 1 || instant.getDate() !== date) return null;
  return instant.toISOString();
}

export type HistoryFilterProblem = 'rangeReversed' | null;

/** The query for the filters, or the reason there is none (the first day after the last). */
export function historyQuery(
  values: HistoryFilterValues,
  page: number,
  limit: number,
): { filter: WalletTransactionsFilter; problem: HistoryFilterProblem } {
  const from = values.fromDate ? dayBoundary(values.fromDate, 'start') : null;
  const to = values.toDate ? dayBoundary(values.toDate, 'end') : null;
  const problem: HistoryFilterProblem = from && to && from > to ? 'rangeReversed' : null;
  // A reversed range asks for nothing the user wants: the days are left out until it is fixed.
  return {
    filter: {
      type: values.type || undefined,
      currency: values.currency || undefined,
      from: problem ? undefined : (from ?? undefined),
      to: problem ? undefined : (to ?? undefined),
      page,
      limit,
    },
    problem,
  };
}

export function isFiltered(values: HistoryFilterValues): boolean {
  return values.type !== '' || values.currency !== '' || values.fromDate !== '' || values.toDate !== '';
}
