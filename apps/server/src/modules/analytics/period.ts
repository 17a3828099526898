import {
  ANALYTICS_DEFAULT_PERIOD_DAYS,
  ANALYTICS_MAX_PERIOD_DAYS,
  analyticsDateMs,
  type PeriodQuery,
} from '@platform/contracts';
import { AppError } from '../../lib/errors.ts';

export const DAY_MS = 86_400_000;

/** A period of whole UTC days: [fromMs, toMs), `to` the last day included. */
export type Period = { from: string; to: string; fromMs: number; toMs: number; days: number };

const dateText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The period a query names, both ends UTC dates included. Missing ends: `to` is today, `from` is
 * ANALYTICS_DEFAULT_PERIOD_DAYS before `to` (today counted). A `from` after `to`, or a span longer
 * than ANALYTICS_MAX_PERIOD_DAYS, is a 400 (the schema already refused anything that is not a date).
 */
export function resolvePeriod(query: PeriodQuery, now: Date): Period {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const given = (text: string | undefined) => (text === undefined ? undefined : (analyticsDateMs(text) ?? undefined));
  const toDay = given(query.to) ?? today;
  const fromDay = given(query.from) ?? toDay - (ANALYTICS_DEFAULT_PERIOD_DAYS - 1) * DAY_MS;
  if (fromDay > toDay) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'from must not be after to',
      details: { from: dateText(fromDay), to: dateText(toDay) },
    });
  }
  const days = (toDay - fromDay) / DAY_MS + 1;
  if (days > ANALYTICS_MAX_PERIOD_DAYS) {
    throw new AppError('VALIDATION_ERROR', {
      message: `a period may cover at most ${ANALYTICS_MAX_PERIOD_DAYS} days`,
      details: { from: dateText(fromDay), to: dateText(toDay), days },
    });
  }
  return { from: dateText(fromDay), to: dateText(toDay), fromMs: fromDay, toMs: toDay + DAY_MS, days };
}
