import type { Analytics } from '@platform/contracts';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { type CalendarCell, calendarWeeks, formatUsd, type PeriodRange } from './analytics-model.ts';

/**
 * The daily P&L as a calendar heat map: a column per week, a row per weekday (Monday first), green
 * for a gain and red for a loss, stronger for a larger day. Each day says its figure in its title
 * (a tooltip) and its accessible name; days with P&L can be reached with the keyboard.
 */
export function PnlCalendar({ range, days }: { range: PeriodRange; days: Analytics['pnl_by_day'] }) {
  const { t } = useTranslation();
  const weeks = calendarWeeks(range, days);
  const describe = (cell: CalendarCell) =>
    cell.pnl === null
      ? t('analytics.calendar.dayNone', { date: cell.date })
      : t('analytics.calendar.day', { date: cell.date, pnl: formatUsd(cell.pnl, true), count: cell.closedTrades });
  return (
    <section className="wallet-card an-card an-calendar-card" aria-labelledby="an-calendar-title">
      <div className="an-card-head">
        <h2 id="an-calendar-title" className="wallet-card-title">
          {t('analytics.calendar.title')}
        </h2>
        <p className="muted an-card-text">{t('analytics.calendar.description')}</p>
      </div>
      <div className="an-calendar-scroll">
        <div className="an-calendar-days" aria-hidden="true">
          <span>{t('analytics.calendar.weekdays.mon')}</span>
          <span />
          <span>{t('analytics.calendar.weekdays.wed')}</span>
          <span />
          <span>{t('analytics.calendar.weekdays.fri')}</span>
          <span />
          <span />
        </div>
        <ul className="an-calendar" aria-label={t('analytics.calendar.title')} data-testid="analytics-calendar">
          {weeks
            .flat()
            .map((cell) =>
              cell.outside ? (
                <li key={cell.date} className="an-day an-day-outside" aria-hidden="true" />
              ) : (
                <li
                  key={cell.date}
                  className={clsx('an-day', cell.level > 0 && 'an-gain', cell.level < 0 && 'an-loss')}
                  data-level={Math.abs(cell.level)}
                  title={describe(cell)}
                  aria-label={describe(cell)}
                  tabIndex={cell.pnl === null ? undefined : 0}
                  data-testid={`analytics-day-${cell.date}`}
                />
              ),
            )}
        </ul>
      </div>
      <p className="an-calendar-legend muted" aria-hidden="true">
        {t('analytics.calendar.legendLoss')}
        <span className="an-day an-loss" data-level="4" />
        <span className="an-day an-loss" data-level="2" />
        <span className="an-day" data-level="0" />
        <span className="an-day an-gain" data-level="2" />
        <span className="an-day an-gain" data-level="4" />
        {t('analytics.calendar.legendGain')}
      </p>
    </section>
  );
}
