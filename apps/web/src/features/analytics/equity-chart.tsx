import type { AnalyticsEquityPoint } from '@platform/contracts';
import {
  BaselineSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocale } from '../../lib/format-locale.ts';
import { localizedNumber } from '../../state/preferences-store.ts';
import { type ChartColors, useChartColors, withAlpha } from '../trade-market/chart-theme.ts';
import { chartTickMark, chartTimeLabel } from '../trade-market/chart-time-format.ts';
import { formatPercentFigure } from './analytics-model.ts';

interface EquityParts {
  chart: IChartApi;
  twr: ISeriesApi<'Line'>;
  drawdown: ISeriesApi<'Baseline'>;
}

/** Canvas colours from the theme's definition (a canvas cannot read CSS variables). */
function themeOptions(colors: ChartColors) {
  return {
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: colors.font,
      fontSize: 11,
      // The library's licence asks for attribution; the logo gives it.
      attributionLogo: true,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.border },
    timeScale: { borderColor: colors.border },
  };
}

const seriesColors = (colors: ChartColors) => ({
  twr: { color: colors.up },
  // Filled between zero and the line: the drawdown reads on the same axis as the return.
  drawdown: {
    baseValue: { type: 'price' as const, price: 0 },
    topLineColor: colors.down,
    topFillColor1: withAlpha(colors.down, 0),
    topFillColor2: withAlpha(colors.down, 0),
    bottomLineColor: colors.down,
    bottomFillColor1: withAlpha(colors.down, 0.15),
    bottomFillColor2: withAlpha(colors.down, 0.4),
  },
});

/** Numbers for drawing only: every figure shown in text is the API's decimal. */
const toTime = (at: string) => Math.floor(Date.parse(at) / 1000) as UTCTimestamp;
const percentFormat = {
  type: 'custom' as const,
  formatter: (value: number) => `${localizedNumber(value.toFixed(2))}%`,
};

/**
 * The time-weighted return as a line, and the drawdown from the running peak filled below zero on
 * the same percent axis (so -4 % of drawdown reads as -4 % beside the return). Made once, given new colours on a theme change and new
 * points on a new answer; removed with the component.
 */
export function EquityChart({ points, maxDrawdown }: { points: AnalyticsEquityPoint[]; maxDrawdown: string | null }) {
  const { t } = useTranslation();
  const colors = useChartColors();
  const containerRef = useRef<HTMLDivElement | null>(null);
  const partsRef = useRef<EquityParts | null>(null);
  const colorsRef = useRef(colors);
  colorsRef.current = colors;
  const chartLocale = formatLocale();

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      ...themeOptions(colorsRef.current),
      localization: { locale: formatLocale(), timeFormatter: chartTimeLabel(false) },
      timeScale: { borderColor: colorsRef.current.border, timeVisible: false, tickMarkFormatter: chartTickMark },
    });
    const palette = seriesColors(colorsRef.current);
    const twr = chart.addSeries(LineSeries, { ...palette.twr, lineWidth: 2, priceFormat: percentFormat });
    const drawdown = chart.addSeries(BaselineSeries, {
      ...palette.drawdown,
      lineWidth: 1,
      priceFormat: percentFormat,
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('right').applyOptions({ scaleMargins: { top: 0.08, bottom: 0.08 } });
    partsRef.current = { chart, twr, drawdown };
    return () => {
      partsRef.current = null;
      chart.remove();
    };
  }, []);

  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    parts.chart.applyOptions(themeOptions(colors));
    const palette = seriesColors(colors);
    parts.twr.applyOptions(palette.twr);
    parts.drawdown.applyOptions(palette.drawdown);
  }, [colors]);

  useEffect(() => {
    partsRef.current?.chart.applyOptions({ localization: { locale: chartLocale } });
  }, [chartLocale]);

  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    parts.twr.setData(points.map((point) => ({ time: toTime(point.at), value: Number(point.twr_percent) })));
    parts.drawdown.setData(points.map((point) => ({ time: toTime(point.at), value: -Number(point.drawdown_percent) })));
    parts.chart.timeScale().fitContent();
  }, [points]);

  const first = points[0];
  const last = points.at(-1);
  const label =
    first && last
      ? t('analytics.equity.chart', {
          first: first.at.slice(0, 10),
          last: `${last.at.slice(0, 10)} ${formatPercentFigure(last.twr_percent, true)}`,
          drawdown: formatPercentFigure(maxDrawdown),
        })
      : '';
  return (
    <div
      className="an-equity-chart"
      ref={containerRef}
      role="img"
      aria-label={label}
      data-testid="analytics-equity-chart"
    />
  );
}
