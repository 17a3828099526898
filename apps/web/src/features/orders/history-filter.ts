import {
  normalizePairId,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderSide,
  type OrderType,
} from '@platform/contracts';
import type { OrdersFilter, TradesFilter } from '../../api/trading.ts';

/**
 * The filters of /orders and /trades as they live in the URL's query, so a filtered page can be
 * linked and reloaded: `?pair=BTC_USD&side=buy&type=limit&status=open&from=2026-11-01&to=2026-11-24&page=2`.
 * Anything unreadable in a link is dropped rather than sent, and days are the user's own calendar
 * days: `from` is the first millisecond of its day, `to` the first millisecond after its day.
 */

/** The status filter: one status, or open (pending and partial) or closed (every other one). */
export const STATUS_FILTERS = ['open', 'closed', ...ORDER_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export interface HistoryFilterValues {
  /** Pair id (BTC_USD) or ''. */
  pair: string;
  side: OrderSide | '';
  type: OrderType | '';
  status: StatusFilter | '';
  /** YYYY-MM-DD (a date input's value) or ''. */
  from: string;
  to: string;
  /** From 1. */
  page: number;
}

export const emptyHistoryFilter: HistoryFilterValues = {
  pair: '',
  side: '',
  type: '',
  status: '',
  from: '',
  to: '',
  page: 1,
};

/** The server's highest page number: a link asking for more is read as the first page. */
const MAX_PAGE = 100_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function oneOf<Value extends string>(options: readonly Value[], text: string | null): Value | '' {
  return text !== null && (options as readonly string[]).includes(text) ? (text as Value) : '';
}

function pageOf(text: string | null): number {
  if (text === null || !/^[1-9]\d{0,5}$/.test(text)) return 1;
  const page = Number(text);
  return page <= MAX_PAGE ? page : 1;
}

/** The local Date of a YYYY-MM-DD day's first millisecond, or null when it is no real day. */
function dayStart(day: string, addDays = 0): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(year, month - 1, date);
  if (start.getFullYear() !== year || start.getMonth() !== month - 1 || start.getDate() !== date) return null;
  return addDays === 0 ? start : new Date(year, month - 1, date + addDays);
}

function dayOf(text: string | null): string {
  return text !== null && dayStart(text) !== null ? text : '';
}

/** Reads the filters of a page's query; unknown values and malformed days become "no filter". */
export function parseHistorySearch(params: URLSearchParams): HistoryFilterValues {
  const pairText = params.get('pair');
  return {
    pair: pairText ? (normalizePairId(pairText) ?? '') : '',
    side: oneOf(ORDER_SIDES, params.get('side')),
    type: oneOf(ORDER_TYPES, params.get('type')),
    status: oneOf(STATUS_FILTERS, params.get('status')),
    from: dayOf(params.get('from')),
    to: dayOf(params.get('to')),
    page: pageOf(params.get('page')),
  };
}

/** The query for the filters: empty ones and the first page are left out, so a plain page has none. */
export function toHistorySearch(values: HistoryFilterValues): URLSearchParams {
  const params = new URLSearchParams();
  if (values.pair) params.set('pair', values.pair);
  if (values.side) params.set('side', values.side);
  if (values.type) params.set('type', values.type);
  if (values.status) params.set('status', values.status);
  if (values.from) params.set('from', values.from);
  if (values.to) params.set('to', values.to);
  if (values.page > 1) params.set('page', String(values.page));
  return params;
}

/** One filter changed: every change but the page's goes back to the first page. */
export function withFilter<Key extends keyof HistoryFilterValues>(
  values: HistoryFilterValues,
  key: Key,
  value: HistoryFilterValues[Key],
): HistoryFilterValues {
  return key === 'page' ? { ...values, page: value as number } : { ...values, [key]: value, page: 1 };
}

export function isFiltered(values: HistoryFilterValues): boolean {
  return (
    values.pair !== '' ||
    values.side !== '' ||
    values.type !== '' ||
    values.status !== '' ||
    values.from !== '' ||
    values.to !== ''
  );
}

export interface TimeRange {
  /** Unix ms, inclusive. */
  from: number | undefined;
  /** Unix ms, exclusive: the start of the day after the chosen last day. */
  to: number | undefined;
  /** The first day is after the last: the range is not sent until the user fixes it. */
  reversed: boolean;
}

export function timeRangeOf(values: Pick<HistoryFilterValues, 'from' | 'to'>): TimeRange {
  const from = values.from ? dayStart(values.from)?.getTime() : undefined;
  const to = values.to ? dayStart(values.to, 1)?.getTime() : undefined;
  const reversed = from !== undefined && to !== undefined && from >= to;
  return reversed ? { from: undefined, to: undefined, reversed } : { from, to, reversed };
}

/** The API filter of the order history for these values, without paging. */
export function toOrdersFilter(values: HistoryFilterValues): OrdersFilter {
  const range = timeRangeOf(values);
  return {
    tradingPair: values.pair || undefined,
    side: values.side || undefined,
    type: values.type || undefined,
    status: values.status || undefined,
    from: range.from,
    to: range.to,
  };
}

/** The API filter of the trade history (no type or status: a trade has neither). */
export function toTradesFilter(values: HistoryFilterValues): TradesFilter {
  const range = timeRangeOf(values);
  return {
    tradingPair: values.pair || undefined,
    side: values.side || undefined,
    from: range.from,
    to: range.to,
  };
}
