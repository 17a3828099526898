import { TickMarkType, type Time } from 'lightweight-charts';
import { formatLocale, formatTimeZone } from '../../lib/format-locale.ts';

/**
 * How every chart writes time (price, portfolio value, return curve): in the interface language
 * and the time zone chosen in Settings, not the library's UTC and browser language.
 */

const asDate = (time: Time) => new Date((time as number) * 1000);

/** Time-axis labels; the library passes the chart's locale (its `localization.locale`). */
export function chartTickMark(time: Time, type: TickMarkType, locale: string): string {
  const date = asDate(time);
  const timeZone = formatTimeZone();
  switch (type) {
    case TickMarkType.Year:
      return date.toLocaleDateString(locale, { year: 'numeric', timeZone });
    case TickMarkType.Month:
      return date.toLocaleDateString(locale, { month: 'short', timeZone });
    case TickMarkType.DayOfMonth:
      return date.toLocaleDateString(locale, { day: 'numeric', timeZone });
    case TickMarkType.TimeWithSeconds:
      return date.toLocaleTimeString(locale, {
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hour12: false,
        timeZone,
      });
    default:
      return date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', hour12: false, timeZone });
  }
}

/** The crosshair's time label: the date, and the time of day unless the chart is drawn by day. */
export function chartTimeLabel(withTime: boolean): (time: Time) => string {
  return (time) =>
    asDate(time).toLocaleString(formatLocale(), {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short', hourCycle: 'h23' as const } : {}),
      timeZone: formatTimeZone(),
    });
}
