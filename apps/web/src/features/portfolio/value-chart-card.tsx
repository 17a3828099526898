import { PORTFOLIO_HISTORY_RANGES, type PortfolioHistoryPoint, type PortfolioHistoryRange } from '@platform/contracts';
import clsx from 'clsx';
import {
  AreaSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { LineChart } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/date-format.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { formatPercent } from '../../lib/format.ts';
import { formatLocale } from '../../lib/format-locale.ts';
import { timeZonePreference } from '../../state/preferences-store.ts';
import { axisPrice } from '../trade-market/chart-price-format.ts';
import { type ChartColors, useChartColors, withAlpha } from '../trade-market/chart-theme.ts';
import { chartTickMark, chartTimeLabel } from '../trade-market/chart-time-format.ts';
import { chartPoints, isEmptyHistory, pointAt, type RangeChange, rangeChange } from './portfolio-history-model.ts';
import { formatUsdValue, toneOf } from './portfolio-model.ts';
import { usePortfolioHistory } from './use-portfolio-history.ts';
import '../../theme/portfolio-history.css';

/** The range the card opens on: a week of hourly points. */
export const DEFAULT_HISTORY_RANGE: PortfolioHistoryRange = '1W';

/**
 * Value over time on /portfolio (issue 17, item 1): the account's recorded snapshots and its live
 * value now, over 1D to All, with the change over the range (deposits and withdrawals left out).
 */
export function ValueChartCard() {
  const { t } = useTranslation();
  const [range, setRange] = useState<PortfolioHistoryRange>(DEFAULT_HISTORY_RANGE);
  const history = usePortfolioHistory(range);
  return (
    <section className="wallet-card pf-vc" aria-labelledby="pf-vc-title" data-testid="portfolio-value-chart">
      <div className="pf-vc-head">
        <h2 id="pf-vc-title" className="wallet-card-title">
          {t('portfolio.history.title')}
        </h2>
        <fieldset className="pf-vc-ranges" aria-label={t('portfolio.history.ranges')}>
          {PORTFOLIO_HISTORY_RANGES.map((option) => (
            <button
              key={option}
              type="button"
              className={clsx('pf-vc-range', option === range && 'active')}
              aria-pressed={option === range}
              data-testid={`portfolio-history-range-${option}`}
              onClick={() => setRange(option)}
            >
              {t(`portfolio.history.range.${option}`)}
            </button>
          ))}
        </fieldset>
      </div>
      {history.data ? (
        <HistoryBody points={history.data.points} range={range} />
      ) : history.isError ? (
        <div className="pf-vc-state" role="alert" data-testid="portfolio-history-error">
          <p>{errorMessage(history.error, t, 'portfolio.history.failed')}</p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void history.refetch()}>
            {t('portfolio.history.retry')}
          </button>
        </div>
      ) : (
        <div className="pf-vc-state" aria-busy="true" data-testid="portfolio-history-loading">
          <span className="visually-hidden">{t('portfolio.history.loading')}</span>
          <span className="skeleton-block pf-vc-skeleton" />
        </div>
      )}
    </section>
  );
}

function HistoryBody({ points, range }: { points: PortfolioHistoryPoint[]; range: PortfolioHistoryRange }) {
  const { t } = useTranslation();
  const [hovered, setHovered] = useState<PortfolioHistoryPoint | null>(null);
  if (isEmptyHistory(points)) {
    return (
      <div className="pf-vc-state pf-vc-empty" data-testid="portfolio-history-empty">
        <LineChart size={28} aria-hidden="true" className="pf-empty-icon" />
        <p className="pf-vc-empty-title">{t('portfolio.history.emptyTitle')}</p>
        <p className="muted">{t('portfolio.history.emptyText')}</p>
      </div>
    );
  }
  const change = rangeChange(points);
  const shown = hovered ?? points.at(-1) ?? null;
  return (
    <>
      {change ? <ChangeLine change={change} range={range} /> : null}
      <p className="pf-vc-legend tabular" data-testid="portfolio-history-value" aria-live="polite">
        {shown ? <PointLabel point={shown} /> : null}
      </p>
      <ValueChart points={points} change={change} onHover={setHovered} />
    </>
  );
}

function ChangeLine({ change, range }: { change: RangeChange; range: PortfolioHistoryRange }) {
  const { t } = useTranslation();
  const tone = toneOf(change.gain);
  const percent = change.percent === null ? null : formatPercent(change.percent);
  return (
    <p className="pf-vc-change" title={t('portfolio.history.changeHint')}>
      <span className="pf-label">
        {t('portfolio.history.change', { range: t(`portfolio.history.range.${range}`) })}
      </span>{' '}
      <span className={clsx('pf-change tabular', tone)} data-testid="portfolio-history-change">
        {formatUsdValue(change.gain, { signed: true })}
        {percent ? ` (${percent})` : ''}
      </span>
      <span className="pf-vc-flows muted tabular" data-testid="portfolio-history-flows">
        {t('portfolio.history.flows', { amount: formatUsdValue(change.flows, { signed: true }) })}
      </span>
    </p>
  );
}

function PointLabel({ point }: { point: PortfolioHistoryPoint }) {
  const { t } = useTranslation();
  const label = point.live
    ? t('portfolio.history.now')
    : t('portfolio.history.at', { time: formatTime(point.at, formatLocale()) });
  return (
    <>
      <span className="pf-label">{label}</span> <strong>{formatUsdValue(point.total_value)}</strong>
    </>
  );
}

function formatTime(at: string, locale: string): string {
  return new Date(at).toLocaleString(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: timeZonePreference(),
  });
}

type ValueChartProps = {
  points: PortfolioHistoryPoint[];
  change: RangeChange | null;
  onHover: (point: PortfolioHistoryPoint | null) => void;
};

/** The line: drawn with numbers (the chart's only use of them), in the theme's colours, removed on unmount. */
function ValueChart({ points, change, onHover }: ValueChartProps) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement | null>(null);
  const partsRef = useRef<{ chart: IChartApi; series: ISeriesApi<'Area'> } | null>(null);
  const colors = useChartColors();
  const chartLocale = formatLocale();
  const down = change?.gain.startsWith('-') === true;
  const pointsRef = useRef(points);
  pointsRef.current = points;
  const hoverRef = useRef(onHover);
  hoverRef.current = onHover;

  // biome-ignore lint/correctness/useExhaustiveDependencies: made once; colours and data follow below
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      ...chartOptions(colors),
      localization: {
        locale: formatLocale(),
        timeFormatter: chartTimeLabel(true),
        priceFormatter: (value: number) => axisPrice(value, 2),
      },
    });
    const series = chart.addSeries(AreaSeries, { lineWidth: 2, priceLineVisible: false });
    const move = (param: MouseEventParams<Time>) => {
      hoverRef.current(param.time === undefined ? null : pointAt(pointsRef.current, Number(param.time)));
    };
    chart.subscribeCrosshairMove(move);
    partsRef.current = { chart, series };
    return () => {
      chart.unsubscribeCrosshairMove(move);
      chart.remove();
      partsRef.current = null;
    };
  }, []);

  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    parts.chart.applyOptions(chartOptions(colors));
    const line = down ? colors.down : colors.up;
    parts.series.applyOptions({ lineColor: line, topColor: withAlpha(line, 0.28), bottomColor: withAlpha(line, 0.02) });
  }, [colors, down]);

  useEffect(() => {
    partsRef.current?.chart.applyOptions({ localization: { locale: chartLocale } });
  }, [chartLocale]);

  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    parts.series.setData(chartPoints(points).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    parts.chart.timeScale().fitContent();
  }, [points]);

  const first = points[0];
  const last = points.at(-1);
  const label =
    first && last
      ? t('portfolio.history.chart', {
          from: formatDate(first.at),
          to: formatDate(last.at),
          first: formatUsdValue(first.total_value),
          last: formatUsdValue(last.total_value),
        })
      : t('portfolio.history.title');
  return (
    <div
      className="pf-vc-chart"
      ref={containerRef}
      role="img"
      aria-label={label}
      data-testid="portfolio-history-chart"
    />
  );
}

function chartOptions(colors: ChartColors) {
  return {
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: colors.font,
      fontSize: 11,
      // The library's licence asks for attribution; the logo gives it.
      attributionLogo: true,
    },
    grid: { vertLines: { visible: false }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.border },
    timeScale: {
      borderColor: colors.border,
      timeVisible: true,
      secondsVisible: false,
      tickMarkFormatter: chartTickMark,
    },
    crosshair: {
      vertLine: { color: colors.crosshair, labelBackgroundColor: colors.crosshair },
      horzLine: { color: colors.crosshair, labelBackgroundColor: colors.crosshair },
    },
  };
}
