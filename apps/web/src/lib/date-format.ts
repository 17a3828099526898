import { MISSING_VALUE } from './format.ts';
import { formatLocale, formatTimeZone } from './format-locale.ts';

/**
 * One way to write a moment per language, used by every screen: the date as numbers and a 24-hour
 * clock to the second ('11/24/2026, 14:03:22' in English, '24.11.2026, 14:03:22' in German), in
 * the locale and time zone formatLocale() and formatTimeZone() give.
 */

const DATE_PARTS = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
// A 24-hour clock keeps a column narrow and every row the same width.
const TIME_PARTS = { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' } as const;

const STYLES = {
  dateTime: { ...DATE_PARTS, ...TIME_PARTS },
  date: DATE_PARTS,
  time: TIME_PARTS,
} satisfies Record<string, Intl.DateTimeFormatOptions>;

type Style = keyof typeof STYLES;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatterFor(style: Style): Intl.DateTimeFormat {
  const locale = formatLocale();
  const timeZone = formatTimeZone();
  const key = `${style}|${locale}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, timeZone ? { ...STYLES[style], timeZone } : STYLES[style]);
    formats.set(key, format);
  }
  return format;
}

/** A Date, ISO text or unix milliseconds as an instant; null when unreadable. */
function instantOf(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const instant = value instanceof Date ? value : new Date(value);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

function write(style: Style, value: Date | string | number | null | undefined): string {
  const instant = instantOf(value);
  return instant ? formatterFor(style).format(instant) : MISSING_VALUE;
}

/** '11/24/2026, 14:03:22' */
export const formatDateTime = (value: Date | string | number | null | undefined) => write('dateTime', value);
/** '11/24/2026' */
export const formatDate = (value: Date | string | number | null | undefined) => write('date', value);
/** '14:03:22' */
export const formatTime = (value: Date | string | number | null | undefined) => write('time', value);
